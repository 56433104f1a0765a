/// Exact, analytic coverage of a filled axis-aligned ellipse, row by row.
///
/// In the ellipse's unit coordinates `u = (x - cx) / rx`, `v = (y - cy) / ry` the shape is the
/// unit disc, and the area of the disc inside a pixel is
/// `F(u1, v1) - F(u0, v1) - F(u1, v0) + F(u0, v0)` (times `rx ry`), where `F(u, v)` is the
/// signed area of the disc in the rectangle between (0, 0) and (u, v): odd in each argument,
/// and for `a = min(|u|, 1)`, `b = min(|v|, 1)`, `w = sqrt(1 - b²)`:
/// `f(a, b) = a b` when `a <= w` (the corner is inside the disc), else
/// `b w + S(a) - S(w)` with `S(t) = (t sqrt(1 - t²) - acos t) / 2` (the area under the circle
/// from 0 to t, up to a constant). `S` of every column line is computed once per ellipse and
/// `w`, `S(w)` once per row line, so a boundary pixel costs a few multiplies.
///
/// For the band of row `y` (clipped to the ellipse's y extent) the ellipse's half width runs
/// between `wMin` and `wMax`; columns wholly within `cx ± wMin` are covered for the band's whole
/// height (a constant run, like ``ConvexScanner``), and only the two windows between `wMin` and
/// `wMax` get exact areas. Coverage is quantised to 8 bits rounding to nearest, like
/// ``CoverageSpans``. Radii above ``maxRadius`` go through the polygon path instead, where the
/// difference of large `F` values would lose precision.
enum EllipseCoverage {
    /// Largest radius drawn analytically (at this size the rounding error of a pixel's area
    /// is still below 1e-5 pixel).
    static let maxRadius: Double = 65536

    /// `S(t)` above, for `t` in `0...1`.
    @inline(__always)
    private static func underCircle(_ t: Double) -> Double {
        0.5 * (t * Swift.max(0, 1 - t * t).squareRoot() - RasterMath.arcCosine(t))
    }

    /// One column or row line of the grid in unit coordinates: the clamped magnitude, its
    /// sign, and the signed `S` (columns) or the row terms.
    private struct RowLine {
        /// `sign(v) * b`.
        var value: Double
        /// `sqrt(1 - b²)`, where the line meets the circle.
        var meet: Double
        /// `sign(v)`.
        var sign: Double
        /// `value * meet - sign * S(meet)`.
        var term: Double

        init(_ v: Double) {
            let b = Swift.min(abs(v), 1)
            sign = v < 0 ? -1 : 1
            value = sign * b
            meet = Swift.max(0, 1 - b * b).squareRoot()
            term = value * meet - sign * EllipseCoverage.underCircle(meet)
        }

        /// `F(u, v)` for the column with clamped magnitude `a`, sign `sx` and signed `S` `sa`.
        @inline(__always)
        func area(_ a: Double, _ sx: Double, _ sa: Double) -> Double {
            a <= meet ? sx * a * value : sx * term + sign * sa
        }
    }

    /// Fills the ellipse centred at (cx, cy) with radii `rx, ry` in `(0, maxRadius]` inside
    /// `clip`. Returns the rectangle of pixels given non-zero coverage.
    static func fill(cx: Double, cy: Double, rx: Double, ry: Double, clip: PixelRect,
                     sink: CoverageSink, scratch: ShapeScratch) -> PixelRect {
        let box = PixelRect.covering(minX: cx - rx, minY: cy - ry, maxX: cx + rx, maxY: cy + ry,
                                     clip: clip)
        guard !box.isEmpty else { return .empty }
        let gx0 = Int(box.x), gx1 = Int(box.maxX)
        // Column lines gx0...gx1: magnitude, sign and signed S, three doubles each.
        let columns = scratch.doubleBuffer(3 * (gx1 - gx0 + 1))
        for i in gx0...gx1 {
            let u = (Double(i) - cx) / rx
            let a = Swift.min(abs(u), 1), s: Double = u < 0 ? -1 : 1
            let k = 3 * (i - gx0)
            columns[k] = a
            columns[k + 1] = s
            columns[k + 2] = s * underCircle(a)
        }
        let line = scratch.lineBuffer(gx1 - gx0)
        let area = rx * ry
        let solid: (plane: RGBAPlane, full: SolidRun)?
        if case .solid(let plane, let source) = sink {
            solid = (plane, SolidRun(source: source, c: source.effective(255)))
        } else {
            solid = nil
        }
        let yTop = cy - ry, yBottom = cy + ry
        var dirty = DirtyBox()
        var touched: UInt8 = 0
        defer { scratch.touched &+= touched }
        let lastRow = Int(box.maxY) - 1
        var upper = RowLine((Double(Int(box.y)) - cy) / ry)
        for y in Int(box.y)..<Int(box.maxY) {
            let lower = RowLine((Double(y + 1) - cy) / ry)
            defer { upper = lower }
            let t = Swift.max(Double(y), yTop), b = Swift.min(Double(y + 1), yBottom)
            guard b > t else { continue }
            func halfWidth(_ yy: Double) -> Double {
                let v = (yy - cy) / ry
                return rx * Swift.max(0, 1 - v * v).squareRoot()
            }
            let wt = halfWidth(t), wb = halfWidth(b)
            let wMax = t <= cy && cy <= b ? rx : Swift.max(wt, wb), wMin = Swift.min(wt, wb)
            let lx0 = Int((cx - wMax).rounded(.down)), lx1 = Int((cx - wMin).rounded(.up))
            let rx0 = Int((cx + wMin).rounded(.down)), rx1 = Int((cx + wMax).rounded(.up))
            let ahead = Swift.min(y + 2, lastRow)
            touched &+= sink.touch(ahead, Swift.min(Swift.max(lx0, gx0), gx1 - 1))
                &+ sink.touch(ahead, Swift.min(Swift.max(rx1 - 1, gx0), gx1 - 1))
            var lo = Int.max, hi = Int.min
            // Exact areas for columns x0..<x1 (clipped to the table).
            func window(_ x0: Int, _ x1: Int) {
                let w0 = Swift.max(x0, gx0), w1 = Swift.min(x1, gx1)
                guard w1 > w0 else { return }
                var k = 3 * (w0 - gx0)
                var prev = lower.area(columns[k], columns[k + 1], columns[k + 2])
                    - upper.area(columns[k], columns[k + 1], columns[k + 2])
                var first = w1, last = w0
                for x in w0..<w1 {
                    k += 3
                    let next = lower.area(columns[k], columns[k + 1], columns[k + 2])
                        - upper.area(columns[k], columns[k + 1], columns[k + 2])
                    let c = (next - prev) * area
                    prev = next
                    let q = UInt8(Swift.min(Swift.max(c, 0), 1) * 255 + 0.5)
                    line[x - w0] = q
                    if q != 0 {
                        if first == w1 { first = x }
                        last = x + 1
                    }
                }
                guard first < last else { return }
                sink.row(y, first, UnsafePointer(line + (first - w0)), last - first)
                lo = Swift.min(lo, first)
                hi = Swift.max(hi, last)
            }
            if lx1 >= rx0 {
                window(lx0, rx1)
            } else {
                window(lx0, lx1)
                let i0 = Swift.max(lx1, gx0), i1 = Swift.min(rx0, gx1)
                let q = UInt8(Swift.min(b - t, 1) * 255 + 0.5)
                if i1 > i0 && q != 0 {
                    if let solid, q == 255 {
                        solid.full.apply(solid.plane.row(y) + 4 &* i0, count: i1 - i0)
                    } else {
                        sink.run(y, i0, i1 - i0, q)
                    }
                    lo = Swift.min(lo, i0)
                    hi = Swift.max(hi, i1)
                }
                window(rx0, rx1)
            }
            dirty.add(row: y, lo: lo, hi: hi)
        }
        return dirty.rect
    }
}
