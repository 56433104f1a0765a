/// Up to ``capacity`` consecutive pixels of one solid paint, each at its own effective
/// coverage, prepared for rows that repeat them: a stroked rectangle's side (an edge pixel, a
/// run and an edge pixel) is the same on every row between its y edges. Each pixel keeps the
/// constants of its ``SolidRun``, laid out four pixels to a vector, so a row is one vector blend
/// per four pixels instead of a call per run.
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

    /// The strip whose pixel `i` (0 ..< `count`, `count` in 1...capacity) is blended as
    /// `run(i)` blends it.
    init(count: Int, run: (Int) -> SolidRun) {
        precondition(count >= 1 && count <= Self.capacity)
        self.count = count
        var pixelInv = InlineArray<16, UInt16>(repeating: 255)
        var pixelAdd = InlineArray<16, UInt32>(repeating: 0)
        for i in 0..<count {
            let r = run(i)
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

    /// Blends the strip onto the `count` RGBA pixels starting at `p` (any alignment).
    @inline(__always)
    func apply(_ p: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(p)
        let lo8 = SIMD8<UInt16>(repeating: 0x00FF), half = SIMD8<UInt16>(repeating: 0x0080)
        // div255 of `v + 128` in 16-bit lanes: `(t + (t >> 8)) >> 8` (t <= 65153, no overflow).
        @inline(__always) func div255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> { (t &+ (t &>> 8)) &>> 8 }
        @inline(__always) func blend(_ v16: SIMD16<UInt8>, _ w: SIMD8<UInt16>, _ a: SIMD16<UInt8>) -> SIMD16<UInt8> {
            let v = unsafeBitCast(v16, to: SIMD8<UInt16>.self)
            let even = div255((v & lo8) &* w &+ half)
            let odd = div255((v &>> 8) &* w &+ half)
            return unsafeBitCast(even | (odd &<< 8), to: SIMD16<UInt8>.self) &+ a
        }
        @inline(__always) func load(_ o: Int) -> SIMD16<UInt8> {
            raw.loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self)
        }
        @inline(__always) func two(_ o: Int, _ w: SIMD8<UInt16>, _ a: SIMD16<UInt8>) -> UInt64 {
            let d = raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            let v = unsafeBitCast(SIMD2<UInt64>(d, 0), to: SIMD16<UInt8>.self)
            return unsafeBitCast(blend(v, w, a), to: SIMD2<UInt64>.self)[0]
        }
        switch vectors {
        case 0:
            if count == 1 {
                let d = raw.loadUnaligned(as: UInt32.self)
                let v = unsafeBitCast(SIMD4<UInt32>(d, 0, 0, 0), to: SIMD16<UInt8>.self)
                raw.storeBytes(of: unsafeBitCast(blend(v, w0, a0), to: SIMD4<UInt32>.self)[0], as: UInt32.self)
                return
            }
            let x = two(0, w0, a0), y = two(o1, w1, a1)
            raw.storeBytes(of: x, as: UInt64.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: UInt64.self)
        case 1:
            raw.storeBytes(of: blend(load(0), w0, a0), as: SIMD16<UInt8>.self)
        case 2:
            let x = blend(load(0), w0, a0), y = blend(load(o1), w1, a1)
            raw.storeBytes(of: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: SIMD16<UInt8>.self)
        case 3:
            let x = blend(load(0), w0, a0), y = blend(load(o1), w1, a1), z = blend(load(o2), w2, a2)
            raw.storeBytes(of: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: z, toByteOffset: o2, as: SIMD16<UInt8>.self)
        default:
            let x = blend(load(0), w0, a0), y = blend(load(o1), w1, a1), z = blend(load(o2), w2, a2)
            let u = blend(load(o3), w3, a3)
            raw.storeBytes(of: x, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: y, toByteOffset: o1, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: z, toByteOffset: o2, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: u, toByteOffset: o3, as: SIMD16<UInt8>.self)
        }
    }
}
