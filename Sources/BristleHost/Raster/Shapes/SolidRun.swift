/// One solid paint at one effective coverage, prepared for runs of pixels: the per-pixel
/// constants of ``SpanCompositor``'s formulas computed once, so a shape that paints many runs
/// with the same coverage (a rectangle's rows, an ellipse's interiors) pays for them once.
///
/// Applying it is bit-identical to ``SpanCompositor/blendPixel(_:_:_:_:)`` with coverage `c`:
/// source-over `dst = div255(S * c) + div255(dst * inv)`, erase `dst = div255(dst * inv)`,
/// with `inv = 255 - div255(Sa * c)`; an opaque paint at full coverage stores the colour.
/// `div255(v)` is `(t + (t >> 8)) >> 8` with `t = v + 128`, which equals `(t * 257) >> 16` for
/// `t < 65536`; the vector loop uses the latter (one high-half multiply per eight channels).
struct SolidRun {
    /// `255 - div255(Sa * c)`, the factor applied to every destination channel.
    let inv: UInt32
    /// The premultiplied source at coverage `c`, one byte per channel (little-endian RGBA).
    let add: UInt32
    /// True when the run is a plain store of ``add`` (opaque paint, full coverage).
    let isStore: Bool
    /// True when applying the run changes nothing (zero effective coverage).
    let isNoOp: Bool
    /// ``inv`` in eight 16-bit lanes.
    private let invV: SIMD8<UInt16>
    /// ``add`` repeated over four pixels.
    private let addV: SIMD16<UInt8>
    /// 257, the multiplier of the vector div255. Stored (not a literal at the use) so the
    /// optimiser does not rewrite the multiply into shifts and adds, which would hide the
    /// high-half multiply (`pmulhuw`) it otherwise selects.
    private let div255Multiplier = SIMD8<UInt16>(repeating: 257)

    /// The run for paint `s` at effective coverage `c` (0...255, see
    /// ``SpanCompositor/Source/effective(_:)``).
    init(source s: SpanCompositor.Source, c: UInt32) {
        isNoOp = c == 0
        let sa = SpanCompositor.div255(s.a &* c)
        inv = 255 &- sa
        switch s.blend {
        case .sourceOver:
            isStore = c == 255 && s.a == 255
            add = SpanCompositor.div255(s.r &* c) | SpanCompositor.div255(s.g &* c) << 8
                | SpanCompositor.div255(s.b &* c) << 16 | sa << 24
        case .erase:
            isStore = false
            add = 0
        }
        invV = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: inv))
        addV = unsafeBitCast(SIMD4<UInt32>(repeating: add.littleEndian), to: SIMD16<UInt8>.self)
    }

    /// Applies the run to `count` RGBA pixels starting at `p` (any alignment).
    @inline(__always)
    func apply(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        guard !isNoOp, count > 0 else { return }
        let raw = UnsafeMutableRawPointer(p)
        if isStore {
            let v = add.littleEndian
            for i in 0..<count { raw.storeBytes(of: v, toByteOffset: 4 &* i, as: UInt32.self) }
            return
        }
        if count == 1 {
            pixel(raw)
            return
        }
        blend(raw, count: count)
    }

    /// Blends the single pixel at `raw` (scalar: two channels per 32-bit lane, the same
    /// exact div255).
    @inline(__always)
    private func pixel(_ raw: UnsafeMutableRawPointer) {
        let d = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
        var rb = (d & 0x00FF_00FF) &* inv &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ga = ((d >> 8) & 0x00FF_00FF) &* inv &+ 0x0080_0080
        ga = ((ga &+ ((ga >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        raw.storeBytes(of: ((rb | ga << 8) &+ add).littleEndian, as: UInt32.self)
    }

    /// The vector loop of ``apply(_:count:)`` for `count >= 2` blended pixels.
    @inline(never)
    private func blend(_ raw: UnsafeMutableRawPointer, count: Int) {
        // Four pixels per 16 bytes seen as eight 16-bit lanes: even and odd bytes apart, each
        // `mulhi(d * inv + 128, 257)` (exact div255, products below 65536), then packed.
        let lo8 = SIMD8<UInt16>(repeating: 0x00FF), half = SIMD8<UInt16>(repeating: 0x0080)
        let m257 = SIMD8<UInt32>(truncatingIfNeeded: div255Multiplier)
        @inline(__always) func div255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
            SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: t) &* m257) &>> 16)
        }
        @inline(__always) func four(_ v16: SIMD16<UInt8>) -> SIMD16<UInt8> {
            let v = unsafeBitCast(v16, to: SIMD8<UInt16>.self)
            let even = div255((v & lo8) &* invV &+ half)
            let odd = div255((v &>> 8) &* invV &+ half)
            return unsafeBitCast(even | (odd &<< 8), to: SIMD16<UInt8>.self) &+ addV
        }
        @inline(__always) func two(_ d: UInt64) -> UInt64 {
            let v = unsafeBitCast(SIMD2<UInt64>(d, 0), to: SIMD16<UInt8>.self)
            return unsafeBitCast(four(v), to: SIMD2<UInt64>.self)[0]
        }
        if count < 4 {
            // Two overlapping pairs (one for two pixels), both from the original pixels, so a
            // pixel in both gets the same value twice.
            let last = 4 &* (count &- 2)
            let a = two(raw.loadUnaligned(as: UInt64.self))
            let b = two(raw.loadUnaligned(fromByteOffset: last, as: UInt64.self))
            raw.storeBytes(of: a, as: UInt64.self)
            raw.storeBytes(of: b, toByteOffset: last, as: UInt64.self)
            return
        }
        // The last four pixels are blended first, from the original pixels, and stored after
        // the blocks of sixteen, eight and four; they overlap the blocks' last pixels, which
        // then receive the same values again. No single-pixel tail.
        let last = 4 &* (count &- 4)
        let tail = four(raw.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self))
        @inline(__always) func block(_ offset: Int) {
            let v = raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: four(v), toByteOffset: offset, as: SIMD16<UInt8>.self)
        }
        var i = 0
        while i &+ 16 <= count {
            block(4 &* i)
            block(4 &* i &+ 16)
            block(4 &* i &+ 32)
            block(4 &* i &+ 48)
            i &+= 16
        }
        if i &+ 8 <= count {
            block(4 &* i)
            block(4 &* i &+ 16)
            i &+= 8
        }
        if i &+ 4 <= count { block(4 &* i) }
        raw.storeBytes(of: tail, toByteOffset: last, as: SIMD16<UInt8>.self)
    }
}
