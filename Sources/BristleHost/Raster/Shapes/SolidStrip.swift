import CBristleMath

/// Up to ``capacity`` consecutive pixels of one solid paint, each at its own effective
/// coverage, prepared for rows that repeat them: a stroked rectangle's side (an edge pixel, a
/// run and an edge pixel) is the same on every row between its y edges. Each pixel keeps the
/// constants of its ``SolidRun``, laid out four pixels to a vector, so a row is one vector blend
/// per four pixels instead of a call per run, and a group of rows one loop.
///
/// Applying it is bit-identical to applying each pixel's ``SolidRun`` (the same exact `div255`):
/// a store pixel (opaque paint, full coverage) has weight 0 and adds the colour; a pixel of zero
/// coverage has weight 255 and adds nothing, which leaves it unchanged.
/// The vectors overlap where the count is not a multiple of four; every vector is computed from
/// the original pixels before any is stored, so a pixel in two of them gets the same value twice.
struct SolidStrip {
    /// Most pixels in a strip.
    static let capacity = 16

    /// Pixels in the strip (1...capacity).
    let count: Int
    /// Per vector j (pixels from byte offset `o_j`, four of them, or two per half for counts
    /// below four), the destination weights in eight 16-bit lanes (two per pixel) and the
    /// premultiplied source to add, one byte per channel.
    private var w0 = SIMD8<UInt16>.zero, w1 = SIMD8<UInt16>.zero
    private var w2 = SIMD8<UInt16>.zero, w3 = SIMD8<UInt16>.zero
    private var a0 = SIMD16<UInt8>.zero, a1 = SIMD16<UInt8>.zero
    private var a2 = SIMD16<UInt8>.zero, a3 = SIMD16<UInt8>.zero
    private var o1 = 0, o2 = 0, o3 = 0
    /// Vectors in use (counts of four and more; 0 below four).
    private var vectors = 0
    /// 257, the multiplier of the vector div255, stored so the optimiser keeps the high-half
    /// multiply instead of rewriting it into shifts and adds (as ``SolidRun`` does).
    private let div255Multiplier = SIMD8<UInt16>(repeating: 257)

    /// How many rows ahead ``apply(rows:of:offset:)`` prefetches before each row: a side's
    /// row is some 25 instructions, so its lines must be asked for well ahead (with loads
    /// instead of prefetches, 3 rows measured 0.93x as fast in CPU time as 8, and 12 rows
    /// 0.98x; with prefetches 4 rows 0.95x, 16 and 24 rows within noise of 8).
    static let lookahead = 8

    /// The strip whose pixel `i` (0 ..< `count`, `count` in 1...capacity) is blended as the
    /// ``SolidRun`` of paint `source` at 8-bit coverage `coverage[i]` blends it.
    init(count: Int, source: SpanCompositor.Source, coverage: InlineArray<16, UInt8>) {
        precondition(count >= 1 && count <= Self.capacity)
        self.count = count
        var pixelInv = InlineArray<16, UInt16>(repeating: 255)
        var pixelAdd = InlineArray<16, UInt32>(repeating: 0)
        // A side is a few runs of equal coverage: each run's constants are computed once.
        var m = coverage[0], r = SolidRun(source: source, c: source.effective(m))
        for i in 0..<count {
            if coverage[i] != m {
                m = coverage[i]
                r = SolidRun(source: source, c: source.effective(m))
            }
            pixelInv[i] = UInt16(truncatingIfNeeded: r.inv)
            pixelAdd[i] = r.add
        }
        func vector(from first: Int) -> (SIMD8<UInt16>, SIMD16<UInt8>) {
            var w = SIMD8<UInt16>.zero
            var a = SIMD4<UInt32>.zero
            for p in 0..<4 {
                w[2 * p] = pixelInv[first + p]
                w[2 * p + 1] = pixelInv[first + p]
                a[p] = pixelAdd[first + p].littleEndian
            }
            return (w, unsafeBitCast(a, to: SIMD16<UInt8>.self))
        }
        // Vector starts: 0, 4, 8, ... while four pixels fit, then count - 4 (overlapping)
        // when pixels are left; below four pixels, pairs at 0 and count - 2.
        var starts = InlineArray<4, Int>(repeating: 0), n = 0
        if count >= 4 {
            var first = 0
            while first + 4 <= count {
                starts[n] = first
                n += 1
                first += 4
            }
            if first < count {
                starts[n] = count - 4
                n += 1
            }
            vectors = n
        } else {
            starts[1] = Swift.max(count - 2, 0)
            n = 2
        }
        (w0, a0) = vector(from: starts[0])
        (w1, a1) = vector(from: starts[1])
        o1 = 4 * starts[1]
        if n > 2 {
            (w2, a2) = vector(from: starts[2])
            o2 = 4 * starts[2]
        }
        if n > 3 {
            (w3, a3) = vector(from: starts[3])
            o3 = 4 * starts[3]
        }
    }

    /// Blends the strip onto the `count` RGBA pixels from byte `offset` of each row of `rows`
    /// of `plane` (any alignment), row after row: the vector count is chosen once, so a row
    /// is only its prefetches, loads, blends and stores. Each row's cache lines are asked for
    /// ``lookahead`` rows before it is blended (rows are far apart in memory and the hardware
    /// prefetches within a row only).
    func apply(rows: Range<Int>, of plane: RGBAPlane, offset: Int) {
        let first = UnsafeMutableRawPointer(plane.row(rows.lowerBound) + offset)
        // One loop per vector count, each its own function (small enough for the optimiser
        // to keep every vector operation inline).
        switch vectors {
        case 0 where count == 1: applyOne(first, rows.count, plane.strideBytes)
        case 0: applyPairs(first, rows.count, plane.strideBytes)
        case 1: apply1(first, rows.count, plane.strideBytes)
        case 2: apply2(first, rows.count, plane.strideBytes)
        case 3: apply3(first, rows.count, plane.strideBytes)
        default: apply4(first, rows.count, plane.strideBytes)
        }
    }

    /// Four pixels `v16` blended with weights `w` and source `a`.
    @inline(__always)
    private func blend(_ v16: SIMD16<UInt8>, _ w: SIMD8<UInt16>, _ a: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let lo8 = SIMD8<UInt16>(repeating: 0x00FF), half = SIMD8<UInt16>(repeating: 0x0080)
        // div255 of `t = v * w + 128` (t <= 65153): the high half of `t * 257` (one `pmulhuw`).
        // Both are widened to 32-bit lanes by interleaving zeros, not by the generic SIMD
        // conversion, whose one shared specialisation the optimiser emits with another file's
        // code, out of reach of inlining here.
        @inline(__always) func widened(_ t: SIMD8<UInt16>) -> SIMD8<UInt32> {
            var wide = SIMD16<UInt16>.zero
            wide.evenHalf = t
            return unsafeBitCast(wide, to: SIMD8<UInt32>.self)
        }
        let m257 = widened(div255Multiplier)
        @inline(__always) func div255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
            unsafeBitCast(widened(t) &* m257, to: SIMD16<UInt16>.self).oddHalf
        }
        let v = unsafeBitCast(v16, to: SIMD8<UInt16>.self)
        let even = div255((v & lo8) &* w &+ half)
        let odd = div255((v &>> 8) &* w &+ half)
        return unsafeBitCast(even | (odd &<< 8), to: SIMD16<UInt8>.self) &+ a
    }

    @inline(__always)
    private func load(_ raw: UnsafeMutableRawPointer, _ o: Int) -> SIMD16<UInt8> {
        raw.loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self)
    }

    /// Two pixels at byte `o` of `raw` blended with weights `w` and source `a` (their halves).
    @inline(__always)
    private func two(_ raw: UnsafeMutableRawPointer, _ o: Int, _ w: SIMD8<UInt16>, _ a: SIMD16<UInt8>) -> UInt64 {
        let d = raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)
        let v = unsafeBitCast(SIMD2<UInt64>(d, 0), to: SIMD16<UInt8>.self)
        return unsafeBitCast(blend(v, w, a), to: SIMD2<UInt64>.self)[0]
    }

    /// Runs `row` on `rows` rows from `p`, `stride` bytes apart, first prefetching for write
    /// the strip's first and last byte ``lookahead`` rows further down (a strip may straddle
    /// two cache lines; past the last row the prefetches reach the rows below, never fault and
    /// are not waited for), and before the first row the first ``lookahead`` rows' lines.
    /// Inlined into each loop below with its `row`.
    @inline(__always)
    private func walk(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int,
                      _ row: (UnsafeMutableRawPointer) -> Void) {
        var raw = p, ahead = p
        let end = 4 &* count &- 1
        // The first rows' lines, which no earlier row asked for.
        for _ in 0..<Self.lookahead {
            CBristleMath_prefetchForWrite(ahead)
            CBristleMath_prefetchForWrite(ahead + end)
            ahead += stride
        }
        for _ in 0..<rows {
            CBristleMath_prefetchForWrite(ahead)
            CBristleMath_prefetchForWrite(ahead + end)
            ahead += stride
            row(raw)
            raw += stride
        }
    }

    // The loops of apply(rows:of:offset:), one per vector count: a single pixel, two
    // halves (two or three pixels), then one to four vectors.

    @inline(never)
    private func applyOne(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int) {
        let (w0, a0) = (self.w0, self.a0)
        walk(p, rows, stride) { raw in
            let d = raw.loadUnaligned(as: UInt32.self)
            let v = unsafeBitCast(SIMD4<UInt32>(d, 0, 0, 0), to: SIMD16<UInt8>.self)
            raw.storeBytes(of: unsafeBitCast(blend(v, w0, a0), to: SIMD4<UInt32>.self)[0], as: UInt32.self)
        }
    }

    @inline(never)
    private func applyPairs(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int) {
        let (w0, a0, w1, a1, o1) = (self.w0, self.a0, self.w1, self.a1, self.o1)
        walk(p, rows, stride) { raw in
            let x = two(raw, 0, w0, a0), y = two(raw, o1, w1, a1)
            raw.storeBytes(of: x, as: UInt64.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: UInt64.self)
        }
    }

    @inline(never)
    private func apply1(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int) {
        let (w0, a0) = (self.w0, self.a0)
        walk(p, rows, stride) { raw in
            raw.storeBytes(of: blend(load(raw, 0), w0, a0), as: SIMD16<UInt8>.self)
        }
    }

    @inline(never)
    private func apply2(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int) {
        let (w0, a0, w1, a1, o1) = (self.w0, self.a0, self.w1, self.a1, self.o1)
        walk(p, rows, stride) { raw in
            let x = blend(load(raw, 0), w0, a0), y = blend(load(raw, o1), w1, a1)
            raw.storeBytes(of: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: SIMD16<UInt8>.self)
        }
    }

    @inline(never)
    private func apply3(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int) {
        let (w0, a0, w1, a1, o1) = (self.w0, self.a0, self.w1, self.a1, self.o1)
        let (w2, a2, o2) = (self.w2, self.a2, self.o2)
        walk(p, rows, stride) { raw in
            let x = blend(load(raw, 0), w0, a0), y = blend(load(raw, o1), w1, a1)
            let z = blend(load(raw, o2), w2, a2)
            raw.storeBytes(of: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: z, toByteOffset: o2, as: SIMD16<UInt8>.self)
        }
    }

    @inline(never)
    private func apply4(_ p: UnsafeMutableRawPointer, _ rows: Int, _ stride: Int) {
        let (w0, a0, w1, a1, o1) = (self.w0, self.a0, self.w1, self.a1, self.o1)
        let (w2, a2, o2, w3, a3, o3) = (self.w2, self.a2, self.o2, self.w3, self.a3, self.o3)
        walk(p, rows, stride) { raw in
            let x = blend(load(raw, 0), w0, a0), y = blend(load(raw, o1), w1, a1)
            let z = blend(load(raw, o2), w2, a2), u = blend(load(raw, o3), w3, a3)
            raw.storeBytes(of: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: z, toByteOffset: o2, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: u, toByteOffset: o3, as: SIMD16<UInt8>.self)
        }
    }
}
