/// The last stage for shapes: applies rows of 8-bit coverage, or runs of one constant
/// coverage, to a ``ShapeTarget``.
///
/// Solid paints use ``SpanCompositor`` for coverage rows and ``SolidRun`` for constant runs,
/// bit-identical to ``SpanCompositor/blendPixel(_:_:_:_:)`` (same `div255`, same rounding). Patterns use the same formulas with the tile pixel as the source
/// colour: source-over `dst = div255(T * c) + div255(dst * (255 - div255(Ta * c)))` (clamped to
/// 255 for a tile that breaks premultiplication), erase `dst = div255(dst * (255 - div255(Ta * c)))`.
/// Masks take `max`, and record the cells that rose when given a ``RaisedCells``. Zero
/// coverage never touches a pixel.
enum CoverageSink {
    case solid(RGBAPlane, SpanCompositor.Source)
    case pattern(RGBAPlane, PatternTile, SpanCompositor.Source)
    case mask(MaskPlane, RaisedCells?)

    /// The sink for a target, or nil when nothing can change (invalid plane or tile, zero
    /// opacity or alpha).
    init?(_ target: ShapeTarget) {
        switch target {
        case .paint(let plane, let paint):
            let s = SpanCompositor.Source(paint)
            guard plane.isValid, !s.isNoOp else { return nil }
            self = .solid(plane, s)
        case .pattern(let plane, let tile, let opacity, let blend):
            let s = SpanCompositor.Source(Paint(color: .white, opacity: opacity, blend: blend))
            guard plane.isValid, tile.isValid, !s.isNoOp else { return nil }
            self = .pattern(plane, tile, s)
        case .mask(let mask, let raised):
            guard mask.isValid else { return nil }
            self = .mask(mask, raised)
        }
    }

    /// The pixels a shape may touch.
    var bounds: PixelRect {
        switch self {
        case .solid(let p, _), .pattern(let p, _, _): return p.bounds
        case .mask(let m, _): return m.bounds
        }
    }

    /// Reads one byte of the destination at (x, y) (inside ``bounds``) so its cache line is on
    /// its way before the row is drawn: rows are far apart in memory and the hardware only
    /// prefetches within a row. Callers fold the values into ``ShapeScratch/touched`` so the
    /// reads are not optimised away.
    @inline(__always)
    func touch(_ y: Int, _ x: Int) -> UInt8 {
        switch self {
        case .solid(let p, _), .pattern(let p, _, _): return p.base[y &* p.strideBytes &+ 4 &* x]
        case .mask(let m, _): return m.base[y &* m.strideBytes &+ x]
        }
    }

    /// Applies `count` coverage values starting at column `x` of row `y` (inside ``bounds``).
    func row(_ y: Int, _ x: Int, _ cov: UnsafePointer<UInt8>, _ count: Int) {
        switch self {
        case .solid(let plane, let s):
            SpanCompositor.blendRow(plane.row(y) + 4 * x, coverage: cov, count: count, source: s)
        case .pattern(let plane, let tile, let s):
            Self.patternRow(plane.row(y) + 4 * x, y: y, x: x, count: count, tile: tile, source: s) { cov[$0] }
        case .mask(let mask, nil):
            SpanCompositor.maxRow(mask.row(y) + x, coverage: cov, count: count)
        case .mask(let mask, let raised?):
            raised.maxRow(y, x, mask.row(y) + x, cov, count)
        }
    }

    /// Applies the constant coverage `m` to `count` pixels from column `x` of row `y`.
    func run(_ y: Int, _ x: Int, _ count: Int, _ m: UInt8) {
        guard m != 0, count > 0 else { return }
        switch self {
        case .solid(let plane, let s):
            SolidRun(source: s, c: s.effective(m)).apply(plane.row(y) + 4 * x, count: count)
        case .pattern(let plane, let tile, let s):
            Self.patternRow(plane.row(y) + 4 * x, y: y, x: x, count: count, tile: tile, source: s) { _ in m }
        case .mask(let mask, nil):
            let p = mask.row(y) + x
            for i in 0..<count where p[i] < m { p[i] = m }
        case .mask(let mask, let raised?):
            raised.maxRun(y, x, mask.row(y) + x, count, m)
        }
    }

    /// Composites the tile's pixels with coverage `coverage(i)` for pixel `i` of the run.
    @inline(__always)
    private static func patternRow(_ p: UnsafeMutablePointer<UInt8>, y: Int, x: Int, count: Int,
                                   tile: PatternTile, source s: SpanCompositor.Source,
                                   coverage: (Int) -> UInt8) {
        let trow = tile.row(y)
        var tx = tile.column(x)
        for i in 0..<count {
            let m = coverage(i)
            if m != 0 {
                let c = s.effective(m)
                if c != 0 {
                    let t = trow + 4 * tx
                    let d = p + 4 * i
                    let inv = 255 &- SpanCompositor.div255(UInt32(t[3]) &* c)
                    switch s.blend {
                    case .sourceOver:
                        for k in 0..<4 {
                            let v = SpanCompositor.div255(UInt32(t[k]) &* c)
                                &+ SpanCompositor.div255(UInt32(d[k]) &* inv)
                            d[k] = UInt8(truncatingIfNeeded: Swift.min(v, 255))
                        }
                    case .erase:
                        for k in 0..<4 {
                            d[k] = UInt8(truncatingIfNeeded: SpanCompositor.div255(UInt32(d[k]) &* inv))
                        }
                    }
                }
            }
            tx += 1
            if tx == tile.width { tx = 0 }
        }
    }
}
