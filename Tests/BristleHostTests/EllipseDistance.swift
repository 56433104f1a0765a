import Foundation

/// The distance from a point to an axis-aligned ellipse's curve, independent of the
/// rasteriser: the foot of the perpendicular found by bisection on the robust root
/// formulation of D. Eberly ("Distance from a Point to an Ellipse", 2013), to the last bit.
enum EllipseDistance {
    /// Signed distance from (x, y) to the curve of the ellipse centred at the origin with
    /// radii `rx, ry > 0`: negative inside.
    static func signed(_ x: Double, _ y: Double, _ rx: Double, _ ry: Double) -> Double {
        var p0 = abs(x), p1 = abs(y), e0 = rx, e1 = ry
        if e0 < e1 {
            swap(&e0, &e1)
            swap(&p0, &p1)
        }
        let z0 = p0 / e0, z1 = p1 / e1
        let g = z0 * z0 + z1 * z1 - 1
        let d: Double
        if p1 > 0 && p0 > 0 {
            guard g != 0 else { return 0 }
            // The foot is (r0 p0 / (s + r0), p1 / (s + 1)) (scaled by e1²) for the root s of
            // G(s) = (r0 z0 / (s + r0))² + (z1 / (s + 1))² - 1, decreasing on s > -1.
            let r0 = (e0 / e1) * (e0 / e1), n0 = r0 * z0
            var lo = z1 - 1, hi = g < 0 ? 0 : (n0 * n0 + z1 * z1).squareRoot() - 1
            var s = lo
            while true {
                s = 0.5 * (lo + hi)
                guard s != lo && s != hi else { break }
                let a = n0 / (s + r0), b = z1 / (s + 1)
                let v = a * a + b * b - 1
                if v > 0 { lo = s } else if v < 0 { hi = s } else { break }
            }
            // Near the major axis (s near -1) the foot's y from the curve's equation: p1 / (s + 1)
            // would divide by a difference that lost its bits.
            let f0 = r0 * p0 / (s + r0), u = f0 / e0
            let f1 = s + 1 > 0.5 ? p1 / (s + 1) : e1 * Swift.max((1 - u) * (1 + u), 0).squareRoot()
            d = ((f0 - p0) * (f0 - p0) + (f1 - p1) * (f1 - p1)).squareRoot()
        } else if p0 > 0 {
            // On the major axis: the foot leaves the axis when the point is inside far enough
            // from the end (the centre of curvature at the end is at e0 - e1² / e0).
            let numer = e0 * p0, denom = (e0 - e1) * (e0 + e1)
            if numer < denom {
                let q = numer / denom
                let f0 = e0 * q, f1 = e1 * ((1 - q) * (1 + q)).squareRoot()
                d = ((f0 - p0) * (f0 - p0) + f1 * f1).squareRoot()
            } else {
                d = abs(p0 - e0)
            }
        } else {
            d = abs(p1 - e1)  // on the minor axis (or the centre: distance e1)
        }
        return g < 0 ? -d : d
    }
}
