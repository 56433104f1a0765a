/// Per-coverage constants of full-opacity source-over for one paint colour, cached while the
/// colour stays the same (a stroke draws thousands of segments with one paint).
///
/// Entry `m` (0...255) holds two 64-bit words: `div255(S * m)` for red, blue, green and alpha
/// as four 16-bit lanes (bits 0, 16, 32 and 48; ``SpanCompositor/div255Quad(_:)``), and
/// `255 - div255(Sa * m)`, the destination's weight. ``SpanCompositor/OverPixel`` then blends a
/// partly covered pixel with one multiply instead of five. Building a table costs about as much as blending 100
/// pixels, so it pays off from the second segment of a stroke on.
///
/// ``prepareQuads(_:)`` keeps a second table, built only for compositing through a mask: the
/// same constants in the pixel's own channel order for SIMD. Entry `m` holds `div255(S * m)`
/// for red, green, blue and alpha as 16-bit lanes from the low one up, and the destination's
/// weight in all four lanes, so two pixels blend as one 8-lane multiply
/// (``SpanCompositor/overQuads(_:from:mask:count:quads:)``).
///
/// Not thread-safe; owned by one ``Rasterizer``.
final class OverTable {
    private let entries: UnsafeMutablePointer<UInt64>
    private let quads: UnsafeMutablePointer<UInt64>
    /// The premultiplied colour the table was built for, packed; `nil` before the first build.
    private var key: UInt32?
    /// The same for the channel-ordered table.
    private var quadKey: UInt32?

    init() {
        entries = .allocate(capacity: 2 * 256)
        entries.initialize(repeating: 0, count: 2 * 256)
        quads = .allocate(capacity: 2 * 256)
        quads.initialize(repeating: 0, count: 2 * 256)
    }

    deinit {
        entries.deallocate()
        quads.deallocate()
    }

    /// The table for `s`'s colour (built now if the colour differs from the last one).
    func prepare(_ s: SpanCompositor.Source) -> UnsafePointer<UInt64> {
        let packed = s.r | s.g << 8 | s.b << 16 | s.a << 24
        if key != packed {
            let lanes = SpanCompositor.lanes(packed)
            for m in 0..<UInt32(256) {
                let e = entries + 2 * Int(m)
                e[0] = SpanCompositor.div255Quad(lanes &* UInt64(m))
                e[1] = UInt64(255 &- SpanCompositor.div255(s.a &* m))
            }
            key = packed
        }
        return UnsafePointer(entries)
    }

    /// The channel-ordered table for `s`'s colour (built now if the colour differs from the
    /// last one it was built for).
    func prepareQuads(_ s: SpanCompositor.Source) -> UnsafePointer<UInt64> {
        let packed = s.r | s.g << 8 | s.b << 16 | s.a << 24
        if quadKey != packed {
            let channels = UInt64(s.r) | UInt64(s.g) << 16 | UInt64(s.b) << 32 | UInt64(s.a) << 48
            for m in 0..<UInt32(256) {
                let e = quads + 2 * Int(m)
                e[0] = SpanCompositor.div255Quad(channels &* UInt64(m))
                e[1] = UInt64(255 &- SpanCompositor.div255(s.a &* m)) &* 0x0001_0001_0001_0001
            }
            quadKey = packed
        }
        return UnsafePointer(quads)
    }
}
