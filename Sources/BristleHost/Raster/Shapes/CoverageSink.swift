/// The last stage for shapes: applies rows of 8-bit coverage, or runs of one constant
/// coverage, to a ``ShapeTarget``.
///
/// Solid paints use ``SpanCompositor`` for coverage rows and a packed two-channels-per-lane
/// loop for constant runs, bit-identical to ``SpanCompositor/blendPixel(_:_:_:_:)`` (same
/// `div255`, same rounding). Patterns use the same formulas with the tile pixel as the source
/// colour: source-over `dst = div255(T * c) + div255(dst * (255 - div255(Ta * c)))` (clamped to
/// 255 for a tile that breaks premultiplication), erase `dst = div255(dst * (255 - div255(Ta * c)))`.
/// Masks take `max`. Zero coverage never touches a pixel.
enum CoverageSink {
    case solid(RGBAPlane, SpanCompositor.Source)
    case pattern(RGBAPlane, PatternTile, SpanCompositor.Source)
    case mask(MaskPlane)

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
        case .mask(let mask):
            guard mask.isValid else { return nil }
            self = .mask(mask)
        }
    }

    /// The pixels a shape may touch.
    var bounds: PixelRect {
        switch self {
        case .solid(let p, _), .pattern(let p, _, _): return p.bounds
        case .mask(let m): return m.bounds
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
        case .mask(let m): return m.base[y &* m.strideBytes &+ x]
        }
    }

    /// Applies `count` coverage values starting at column `x` of row `y` (inside ``bounds``).
    func row(_ y: Int, _ x: Int, _ cov: UnsafePointer<UInt8>, _ count: Int) {
        switch self {
        case .solid(let plane, let s):
            SpanCompositor.blendRow(plane.row(y) + 4 * x, coverage: cov, count: count, source: s)
        case .pattern(let plane, let tile, let s):
            Self.patternRow(plane.row(y) + 4 * x, y: y, x: x, count: count, tile: tile, source: s) { cov[$0] }
        case .mask(let mask):
            SpanCompositor.maxRow(mask.row(y) + x, coverage: cov, count: count)
        }
    }

    /// Applies the constant coverage `m` to `count` pixels from column `x` of row `y`.
    func run(_ y: Int, _ x: Int, _ count: Int, _ m: UInt8) {
        guard m != 0, count > 0 else { return }
        switch self {
        case .solid(let plane, let s):
            Self.solidRun(plane.row(y) + 4 * x, count: count, c: s.effective(m), source: s)
        case .pattern(let plane, let tile, let s):
            Self.patternRow(plane.row(y) + 4 * x, y: y, x: x, count: count, tile: tile, source: s) { _ in m }
        case .mask(let mask):
            let p = mask.row(y) + x
            for i in 0..<count where p[i] < m { p[i] = m }
        }
    }

    /// Source-over or erase of one solid colour with effective coverage `c` over a run.
    private static func solidRun(_ p: UnsafeMutablePointer<UInt8>, count: Int, c: UInt32,
                                 source s: SpanCompositor.Source) {
        guard c != 0 else { return }
        let raw = UnsafeMutableRawPointer(p)
        let inv: UInt32, add: UInt32
        switch s.blend {
        case .sourceOver:
            if c == 255 && s.a == 255 {
                let v = UInt32(littleEndian: s.r | s.g << 8 | s.b << 16 | 255 << 24)
                for i in 0..<count { raw.storeBytes(of: v, toByteOffset: 4 &* i, as: UInt32.self) }
                return
            }
            inv = 255 &- SpanCompositor.div255(s.a &* c)
            add = SpanCompositor.div255(s.r &* c) | SpanCompositor.div255(s.g &* c) << 8
                | SpanCompositor.div255(s.b &* c) << 16 | SpanCompositor.div255(s.a &* c) << 24
        case .erase:
            inv = 255 &- SpanCompositor.div255(s.a &* c)
            add = 0
        }
        @inline(__always) func one(_ i: Int) {
            let d = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self))
            var rb = (d & 0x00FF_00FF) &* inv &+ 0x0080_0080
            rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
            var ga = ((d >> 8) & 0x00FF_00FF) &* inv &+ 0x0080_0080
            ga = ((ga &+ ((ga >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
            let out = (rb | ga << 8) &+ add
            raw.storeBytes(of: out.littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
        }
        // Four pixels at a time: the sixteen bytes seen as eight 16-bit lanes, even and odd
        // bytes split apart, the same exact div255 per byte (products stay below 65536).
        let invV = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: inv))
        let lo8 = SIMD8<UInt16>(repeating: 0x00FF), half = SIMD8<UInt16>(repeating: 0x0080)
        let addV = unsafeBitCast(SIMD4<UInt32>(repeating: add.littleEndian), to: SIMD16<UInt8>.self)
        @inline(__always) func four(_ v16: SIMD16<UInt8>) -> SIMD16<UInt8> {
            let v = unsafeBitCast(v16, to: SIMD8<UInt16>.self)
            var even = (v & lo8) &* invV &+ half
            even = (even &+ (even &>> 8)) &>> 8
            var odd = (v &>> 8) &* invV &+ half
            odd = (odd &+ (odd &>> 8)) &>> 8
            return unsafeBitCast(even | (odd &<< 8), to: SIMD16<UInt8>.self) &+ addV
        }
        var i = 0
        // Single pixels up to a 16-byte boundary (when the row allows one), then aligned
        // blocks of eight pixels, then four, then single pixels.
        if Int(bitPattern: raw) & 3 == 0 {
            while i < count && Int(bitPattern: raw + 4 &* i) & 15 != 0 {
                one(i)
                i &+= 1
            }
            while i &+ 8 <= count {
                let a = raw.load(fromByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
                let b = raw.load(fromByteOffset: 4 &* i &+ 16, as: SIMD16<UInt8>.self)
                raw.storeBytes(of: four(a), toByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
                raw.storeBytes(of: four(b), toByteOffset: 4 &* i &+ 16, as: SIMD16<UInt8>.self)
                i &+= 8
            }
        }
        while i &+ 4 <= count {
            let v = raw.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: four(v), toByteOffset: 4 &* i, as: SIMD16<UInt8>.self)
            i &+= 4
        }
        while i < count {
            one(i)
            i &+= 1
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
