/// Per-coverage constants of full-opacity source-over for one paint colour, cached while the
/// colour stays the same (a stroke draws thousands of segments with one paint).
///
/// Entry `m` (0...255) holds three words: `div255(S * m)` for red/blue and for green/alpha as
/// two 16-bit lanes (``SpanCompositor/div255Pair(_:)``), and `255 - div255(Sa * m)`, the
/// destination's weight. ``SpanCompositor/OverPixel`` then blends a partly covered pixel with
/// two multiplies instead of five. Building a table costs about as much as blending 100
/// pixels, so it pays off from the second segment of a stroke on.
///
/// Not thread-safe; owned by one ``Rasterizer``.
final class OverTable {
    private let entries: UnsafeMutablePointer<UInt32>
    /// The premultiplied colour the table was built for, packed; `nil` before the first build.
    private var key: UInt32?

    init() {
        entries = .allocate(capacity: 3 * 256)
        entries.initialize(repeating: 0, count: 3 * 256)
    }

    deinit {
        entries.deallocate()
    }

    /// The table for `s`'s colour (built now if the colour differs from the last one).
    func prepare(_ s: SpanCompositor.Source) -> UnsafePointer<UInt32> {
        let packed = s.r | s.g << 8 | s.b << 16 | s.a << 24
        if key != packed {
            let rb = s.r | s.b << 16, ga = s.g | s.a << 16
            for m in 0..<UInt32(256) {
                let e = entries + 3 * Int(m)
                e[0] = SpanCompositor.div255Pair(rb &* m)
                e[1] = SpanCompositor.div255Pair(ga &* m)
                e[2] = 255 &- SpanCompositor.div255(s.a &* m)
            }
            key = packed
        }
        return UnsafePointer(entries)
    }
}
