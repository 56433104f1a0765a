/// A paint's ``SpanCompositor/prepareMaskTable(_:into:)`` table (its constants for each mask
/// value, opacity and blend included), kept while the paint stays the same: a brush that
/// composites its stroke mask after every event (the marker) builds it once per stroke
/// instead of once per event.
///
/// Not thread-safe; owned by one ``Rasterizer``.
final class MaskTable {
    private let entries: UnsafeMutablePointer<UInt32>
    /// The paint the table was built for (colour, opacity, blend); `nil` before the first build.
    private var key: (colour: UInt32, opacity: UInt32, blend: BlendMode)?

    init() {
        entries = .allocate(capacity: SpanCompositor.maskTableWords)
        entries.initialize(repeating: 0, count: SpanCompositor.maskTableWords)
    }

    deinit {
        entries.deallocate()
    }

    /// The table for `s` (built now if it differs from the last paint's).
    func prepare(_ s: SpanCompositor.Source) -> UnsafePointer<UInt32> {
        let colour = s.r | s.g << 8 | s.b << 16 | s.a << 24
        if let key, key.colour == colour, key.opacity == s.opacity, key.blend == s.blend {
            return UnsafePointer(entries)
        }
        SpanCompositor.prepareMaskTable(s, into: entries)
        key = (colour, s.opacity, s.blend)
        return UnsafePointer(entries)
    }
}
