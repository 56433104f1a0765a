/// The coverage profile of a dab with hardness below 1.
///
/// With `t = d / radius` for a pixel centre at distance `d` from the dab's centre and
/// `t0 = max(0, min(hardness, 1 - 1 / radius))`, the coverage is 1 for `t <= t0`, 0 for
/// `t >= 1`, and in between the smoothstep `s(u) = u² (3 - 2u)` of `u = (1 - t) / (1 - t0)`.
/// The ramp is therefore at least one pixel wide, so a nearly hard dab stays anti-aliased;
/// hardness 1 is drawn as the exact-area disc instead (see ``Rasterizer/drawDab``).
enum SoftDab {
    /// The profile value (0 ... 1) at normalised distance `t`.
    @inline(__always)
    static func profile(_ t: Double, inner t0: Double) -> Double {
        if t <= t0 { return 1 }
        if t >= 1 { return 0 }
        let u = (1 - t) / (1 - t0)
        return u * u * (3 - 2 * u)
    }

    /// Draws the dab row by row into `sink` (clipped to `clip`); returns the written rect.
    static func draw(cx: Double, cy: Double, radius r: Double, hardness: Double, clip: PixelRect,
                     sink: CoverageSink, scratch: ShapeScratch) -> PixelRect {
        let box = PixelRect.covering(minX: cx - r, minY: cy - r, maxX: cx + r, maxY: cy + r, clip: clip)
        guard !box.isEmpty else { return .empty }
        let t0 = Swift.max(0, Swift.min(hardness, 1 - 1 / r))
        let x0 = Int(box.x), w = Int(box.width)
        let line = scratch.lineBuffer(w)
        let inv = 1 / r
        var dirty = DirtyBox()
        for y in Int(box.y)..<Int(box.maxY) {
            let dy = (Double(y) + 0.5 - cy) * inv
            var lo = w, hi = 0
            for i in 0..<w {
                let dx = (Double(x0 + i) + 0.5 - cx) * inv
                let q = UInt8(profile((dx * dx + dy * dy).squareRoot(), inner: t0) * 255 + 0.5)
                line[i] = q
                if q != 0 {
                    if lo == w { lo = i }
                    hi = i + 1
                }
            }
            guard lo < hi else { continue }
            sink.row(y, x0 + lo, UnsafePointer(line + lo), hi - lo)
            dirty.add(row: y, lo: x0 + lo, hi: x0 + hi)
        }
        return dirty.rect
    }
}
