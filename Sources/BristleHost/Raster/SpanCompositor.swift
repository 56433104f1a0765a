import CBristleMath

/// Stage 5 of the pipeline (composite): applies rows of 8-bit coverage to pixels.
///
/// All arithmetic is integer on premultiplied 8-bit values, with `div255` an exact
/// round-to-nearest division by 255. For a pixel with coverage `m` (0...255) and paint opacity
/// `o`, the effective coverage is `c = round(m * o)` (exactly `m` when `o == 1`), then
/// - source-over: `dst = div255(S * c) + div255(dst * (255 - div255(Sa * c)))`,
/// - erase:       `dst = div255(dst * (255 - div255(a * c)))`,
/// per channel, `S`/`Sa` being the premultiplied paint colour and `a` its alpha. Full coverage
/// with an opaque paint writes the paint colour exactly; zero coverage leaves pixels
/// byte-identical (they are skipped). Results never exceed the pixel's alpha (premultiplied
/// invariant kept) given premultiplied input.
enum SpanCompositor {
    /// A paint prepared for the integer maths.
    struct Source {
        var r: UInt32, g: UInt32, b: UInt32, a: UInt32
        /// Opacity in 16.16 fixed point, `0...65536`.
        var opacity: UInt32
        var blend: BlendMode

        init(_ paint: Paint) {
            let p = paint.color.premultiplied8
            r = UInt32(p.r); g = UInt32(p.g); b = UInt32(p.b); a = UInt32(p.a)
            let o = paint.opacity.isNaN ? 0 : Swift.min(Swift.max(paint.opacity, 0), 1)
            // `(o * 65536).rounded()` (half away from zero) without a libm call: exact in
            // Double, where adding one half and truncating rounds a non-negative value the same.
            opacity = UInt32(Double(o) * 65536 + 0.5)
            blend = paint.blend
        }

        /// The premultiplied red, green, blue and alpha as 16-bit lanes from the low one up.
        var channelLanes: UInt64 { UInt64(r) | UInt64(g) << 16 | UInt64(b) << 32 | UInt64(a) << 48 }

        /// True when compositing this paint can change no pixel.
        var isNoOp: Bool { opacity == 0 || a == 0 }

        /// Effective 8-bit coverage for mask/coverage value `m`.
        @inline(__always)
        func effective(_ m: UInt8) -> UInt32 { (UInt32(m) &* opacity &+ 32768) >> 16 }
    }

    /// Exact `round(v / 255)` for `v` in `0...65535`.
    @inline(__always)
    static func div255(_ v: UInt32) -> UInt32 {
        let t = v &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Blends one pixel: reads `src[0..<4]`, writes `dst[0..<4]` (may alias) with effective
    /// coverage `c` in `1...255`.
    @inline(__always)
    static func blendPixel(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>,
                           _ c: UInt32, _ s: Source) {
        switch s.blend {
        case .sourceOver:
            if c == 255 && s.a == 255 {
                dst[0] = UInt8(truncatingIfNeeded: s.r)
                dst[1] = UInt8(truncatingIfNeeded: s.g)
                dst[2] = UInt8(truncatingIfNeeded: s.b)
                dst[3] = 255
                return
            }
            let inv = 255 &- div255(s.a &* c)
            let r = div255(s.r &* c) &+ div255(UInt32(src[0]) &* inv)
            let g = div255(s.g &* c) &+ div255(UInt32(src[1]) &* inv)
            let b = div255(s.b &* c) &+ div255(UInt32(src[2]) &* inv)
            let a = div255(s.a &* c) &+ div255(UInt32(src[3]) &* inv)
            dst[0] = UInt8(truncatingIfNeeded: r)
            dst[1] = UInt8(truncatingIfNeeded: g)
            dst[2] = UInt8(truncatingIfNeeded: b)
            dst[3] = UInt8(truncatingIfNeeded: a)
        case .erase:
            let inv = 255 &- div255(s.a &* c)
            dst[0] = UInt8(truncatingIfNeeded: div255(UInt32(src[0]) &* inv))
            dst[1] = UInt8(truncatingIfNeeded: div255(UInt32(src[1]) &* inv))
            dst[2] = UInt8(truncatingIfNeeded: div255(UInt32(src[2]) &* inv))
            dst[3] = UInt8(truncatingIfNeeded: div255(UInt32(src[3]) &* inv))
        }
    }

    /// Composites `count` pixels of coverage `cov` onto RGBA pixels `pixels` (in place),
    /// skipping zero coverage.
    static func blendRow(_ pixels: UnsafeMutablePointer<UInt8>, coverage cov: UnsafePointer<UInt8>,
                         count: Int, source s: Source) {
        if s.blend == .sourceOver && s.opacity == 65536 {
            overRow(pixels, coverage: cov, count: count, source: s)
            return
        }
        var x = 0
        while x < count {
            let m = cov[x]
            if m != 0 {
                let c = s.effective(m)
                if c != 0 {
                    let p = pixels + 4 &* x
                    blendPixel(UnsafePointer(p), p, c, s)
                }
            }
            x += 1
        }
    }

    /// `blendRow` for source-over at full opacity (the effective coverage is the coverage
    /// itself), one ``OverPixel`` at a time.
    @inline(__always)
    static func overRow(_ pixels: UnsafeMutablePointer<UInt8>, coverage cov: UnsafePointer<UInt8>,
                        count: Int, source s: Source) {
        let over = OverPixel(s)
        let words = UnsafeMutableRawPointer(pixels)
        var x = 0
        while x < count {
            let m = UInt32(cov[x])
            if m != 0 { over.apply(words + 4 &* x, m) }
            x &+= 1
        }
    }

    /// Source-over of one paint at full opacity on a pixel as one 32-bit word: full coverage
    /// with an opaque paint stores the colour; otherwise red/blue and green/alpha are blended
    /// as two 16-bit lanes each (``div255Pair(_:)``), or, with the paint's ``OverTable``, all
    /// four channels as 16-bit lanes of one 64-bit word (``div255Quad(_:)``), giving exactly
    /// the per-channel formula.
    struct OverPixel {
        let solid: UInt32
        let opaque: Bool
        let a: UInt32
        let srcRB: UInt32
        let srcGA: UInt32
        /// The paint's ``OverTable`` entries, when the caller has them.
        let table: UnsafePointer<UInt64>?

        @inline(__always)
        init(_ s: Source, table: UnsafePointer<UInt64>? = nil) {
            solid = UInt32(littleEndian: s.r | s.g << 8 | s.b << 16 | s.a << 24)
            opaque = s.a == 255
            a = s.a
            srcRB = s.r | s.b << 16
            srcGA = s.g | s.a << 16
            self.table = table
        }

        /// Blends coverage `m` (1...255) into the pixel at `p`.
        @inline(__always)
        func apply(_ p: UnsafeMutableRawPointer, _ m: UInt32) {
            apply(from: UnsafeRawPointer(p), to: p, m)
        }

        /// Writes to `p` the pixel at `q` (may be `p`) blended with coverage `m` (0...255; 0
        /// copies it) through the ``OverTable``, which must be present, with no test of `m`: the
        /// same bytes as ``apply(from:to:_:)`` (an opaque paint's entry 255 is its colour).
        @inline(__always)
        func applyTable(from q: UnsafeRawPointer, to p: UnsafeMutableRawPointer, _ m: UInt32) {
            let d = UInt32(littleEndian: q.loadUnaligned(as: UInt32.self))
            let e = table.unsafelyUnwrapped + 2 &* Int(m)
            let out = e[0] &+ SpanCompositor.div255Quad(SpanCompositor.lanes(d) &* e[1])
            p.storeBytes(of: UInt32(littleEndian: SpanCompositor.pixel(out)), as: UInt32.self)
        }

        /// Writes to `p` the pixel at `q` (may be `p`) blended with coverage `m` (0...255).
        @inline(__always)
        func apply(from q: UnsafeRawPointer, to p: UnsafeMutableRawPointer, _ m: UInt32) {
            if m == 255 && opaque {
                p.storeBytes(of: solid, as: UInt32.self)
                return
            }
            if table != nil {
                applyTable(from: q, to: p, m)
                return
            }
            let d = UInt32(littleEndian: q.loadUnaligned(as: UInt32.self))
            let sRB = SpanCompositor.div255Pair(srcRB &* m)
            let sGA = SpanCompositor.div255Pair(srcGA &* m)
            let inv = 255 &- SpanCompositor.div255(a &* m)
            let rb = sRB &+ SpanCompositor.div255Pair((d & 0x00FF_00FF) &* inv)
            let ga = sGA &+ SpanCompositor.div255Pair(((d >> 8) & 0x00FF_00FF) &* inv)
            p.storeBytes(of: UInt32(littleEndian: rb | ga << 8), as: UInt32.self)
        }
    }

    /// The four bytes of pixel word `v` (red, green, blue, alpha from the low byte up) as
    /// 16-bit lanes of one word: red in bits 0-7, blue 16-23, green 32-39, alpha 48-55.
    @inline(__always)
    static func lanes(_ v: UInt32) -> UInt64 {
        let w = UInt64(v)
        return (w & 0x00FF_00FF) | (w & 0xFF00_FF00) << 24
    }

    /// The pixel word of ``lanes(_:)``'s layout: the low byte of each lane back in place. A
    /// lane that overflowed into its bit 8 spills onto the next channel's bit 0 exactly as the
    /// two-lane `rb | ga << 8` packing does.
    @inline(__always)
    static func pixel(_ v: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: v | v >> 24)
    }

    /// ``div255(_:)`` of four 16-bit lanes at once (each `0...65025`); results in the low byte
    /// of each lane.
    @inline(__always)
    static func div255Quad(_ v: UInt64) -> UInt64 {
        let t = v &+ 0x0080_0080_0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF_00FF_00FF)) >> 8) & 0x00FF_00FF_00FF_00FF
    }

    /// ``div255(_:)`` of two 16-bit lanes at once (bits 0-15 and 16-31, each `0...65025`);
    /// results in bits 0-7 and 16-23.
    @inline(__always)
    static func div255Pair(_ v: UInt32) -> UInt32 {
        let t = v &+ 0x0080_0080
        return ((t &+ ((t >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    }

    /// The size of a ``prepareMaskTable(_:into:)`` table, in words.
    static let maskTableWords = 3 * 256

    /// Fills `table` (``maskTableWords`` words) with per-mask-value constants for compositing
    /// through a mask over a base, opacity included: for mask value `m`, with `c` its
    /// effective coverage, three words `div255(S * c)` for red/blue and green/alpha as 16-bit
    /// lanes and `255 - div255(Sa * c)`, the destination's weight (source-over: `S` the
    /// premultiplied colour; erase: `S` zero). A pixel then blends as
    /// `e0 + div255Pair(d_rb * e2)`, `e1 + div255Pair(d_ga * e2)`: exactly the per-channel
    /// formula, with two multiplies.
    static func prepareMaskTable(_ s: Source, into table: UnsafeMutablePointer<UInt32>) {
        let rb = s.blend == .sourceOver ? s.r | s.b << 16 : 0
        let ga = s.blend == .sourceOver ? s.g | s.a << 16 : 0
        for m in 0..<256 {
            let c = s.isNoOp ? 0 : s.effective(UInt8(m))
            let e = table + 3 * m
            e[0] = div255Pair(rb &* c)
            e[1] = div255Pair(ga &* c)
            e[2] = 255 &- div255(s.a &* c)
        }
    }

    /// `mask[x] = max(mask[x], cov[x])` for `count` pixels.
    static func maxRow(_ mask: UnsafeMutablePointer<UInt8>, coverage cov: UnsafePointer<UInt8>,
                       count: Int) {
        var x = 0
        while x < count {
            let m = cov[x]
            if m > mask[x] { mask[x] = m }
            x += 1
        }
    }

    /// Source-over at full opacity of `count` pixels read at `from` and written at `to` (the
    /// same pixels or not) through `mask`, with the paint's ``OverTable/prepareQuads(_:)`` table
    /// `quads`, two pixels per step (``RingRows``' short stretches; the mask composite over a
    /// base has ``overMaskRow(_:from:mask:count:source:)``).
    /// Not inlined: inlined into ``RingRows``' row loop it compiled to 20M more instructions
    /// on `ellipse_stroke`.
    @inline(never)
    static func overQuads(_ to: UnsafeMutableRawPointer, from: UnsafeRawPointer, mask: UnsafePointer<UInt8>,
                          count: Int, quads: UnsafePointer<UInt64>) {
        var x = 0
        // Two pixels per step without a branch on the mask: a value of 0 weighs the
        // base pixel by 255 and adds nothing (a copy), 255 under an opaque paint weighs
        // it by 0 and adds the colour. A sum never passes 255 (each lane is at most
        // `div255(Sa * m) + weight = 255`), so no lane spills.
        while x &+ 2 <= count {
            let m0 = 2 &* Int(mask[x]), m1 = 2 &* Int(mask[x &+ 1])
            let add = unsafeBitCast(SIMD2<UInt64>(quads[m0], quads[m1]), to: SIMD8<UInt16>.self)
            let weight = unsafeBitCast(SIMD2<UInt64>(quads[m0 &+ 1], quads[m1 &+ 1]), to: SIMD8<UInt16>.self)
            let d = SIMD8<UInt16>(truncatingIfNeeded: (from + 4 &* x).loadUnaligned(as: SIMD8<UInt8>.self))
            let t = d &* weight &+ 128
            let out = add &+ ((t &+ (t &>> 8)) &>> 8)
            (to + 4 &* x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: out), as: SIMD8<UInt8>.self)
            x &+= 2
        }
        if x < count {
            let m = 2 &* Int(mask[x])
            let d = SIMD4<UInt16>(truncatingIfNeeded: (from + 4 &* x).loadUnaligned(as: SIMD4<UInt8>.self))
            let t = d &* unsafeBitCast(quads[m &+ 1], to: SIMD4<UInt16>.self) &+ 128
            let out = unsafeBitCast(quads[m], to: SIMD4<UInt16>.self) &+ ((t &+ (t &>> 8)) &>> 8)
            (to + 4 &* x).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: out), as: SIMD4<UInt8>.self)
        }
    }

    /// Source-over at full opacity of `count` pixels read at `from` and written at `to` (the
    /// same pixels or not) through `mask`: every pixel written, a copy where the mask is 0, the
    /// colour where it is 255 under an opaque paint, exactly the per-channel formula elsewhere.
    /// Four pixels per step with no branch on the mask's values, the division by 255 as one
    /// 16-bit multiply-high (``CBristleComposite_overMaskRow``, inline C with SSE2 intrinsics:
    /// Swift's SIMD types have no multiply-high and add a mask before every pack).
    @inline(__always)
    static func overMaskRow(_ to: UnsafeMutablePointer<UInt8>, from: UnsafePointer<UInt8>,
                            mask: UnsafePointer<UInt8>, count: Int, source s: Source) {
        CBristleComposite_overMaskRow(to, from, mask, count, s.channelLanes)
    }

    /// Composites through a mask row, reading destination values from `base` (or from the
    /// target itself when `base` is nil) and writing `target`. With a base, every pixel is
    /// written (a copy of the base pixel where the effective coverage is 0) through `maskTable`
    /// (``prepareMaskTable(_:into:)``, required then); without one, zero-coverage pixels are
    /// skipped. Full-opacity source-over over a base has a faster path of its own,
    /// ``overMaskRow(_:from:mask:count:source:)``. Returns the columns `lo..<hi` written
    /// (`lo >= hi` when none).
    static func maskRow(_ target: UnsafeMutablePointer<UInt8>, base: UnsafePointer<UInt8>?,
                        mask: UnsafePointer<UInt8>, count: Int, source s: Source,
                        maskTable: UnsafePointer<UInt32>? = nil) -> (lo: Int, hi: Int) {
        var lo = count, hi = 0
        var x = 0
        if let base {
            guard let maskTable else { preconditionFailure("a mask table is needed over a base") }
            let from = UnsafeRawPointer(base), to = UnsafeMutableRawPointer(target)
            // The last pixel blended: a run of the same base pixel under the same mask value
            // (a wide stroke over an even background) repeats its result without the maths.
            var lastD: UInt32 = 0, lastM: UInt8 = 0, lastOut: UInt32 = 0, haveLast = false
            while x < count {
                let d = (from + 4 &* x).loadUnaligned(as: UInt32.self)
                let m = mask[x]
                if haveLast && d == lastD && m == lastM {
                    (to + 4 &* x).storeBytes(of: lastOut, as: UInt32.self)
                    x &+= 1
                    continue
                }
                let e = maskTable + 3 &* Int(m)
                let inv = e[2]
                var out = d
                if inv == 0 {
                    // Nothing of the destination shows: the paint alone (transparent for erase).
                    out = UInt32(littleEndian: e[0] | e[1] << 8)
                } else if inv != 255 {
                    let w = UInt32(littleEndian: d)
                    let rb = e[0] &+ div255Pair((w & 0x00FF_00FF) &* inv)
                    let ga = e[1] &+ div255Pair(((w >> 8) & 0x00FF_00FF) &* inv)
                    out = UInt32(littleEndian: rb | ga << 8)
                }
                (to + 4 &* x).storeBytes(of: out, as: UInt32.self)
                lastD = d
                lastM = m
                lastOut = out
                haveLast = true
                x &+= 1
            }
            return (0, count)
        }
        if s.isNoOp { return (count, 0) }
        while x < count {
            let m = mask[x]
            if m != 0 {
                let c = s.effective(m)
                if c != 0 {
                    let p = target + 4 &* x
                    blendPixel(UnsafePointer(p), p, c, s)
                    if lo == count { lo = x }
                    hi = x + 1
                }
            }
            x += 1
        }
        return (lo, hi)
    }
}
