/// Stage 1 of the pipeline (geometry): the exact round shape a dab or segment describes.
///
/// A hull is either a disc (centre 0, radius 0) or the convex hull of two discs whose
/// outer tangent lines exist. For the latter, with `u = (ux, uy)` the unit vector from centre 0
/// to centre 1, `v = (-uy, ux)` (u turned by +90° in atan2 angle), and `k = (r0 - r1) / d`
/// (|k| < 1, `h = sqrt(1 - k²)`), the outward normals of the two tangent lines are
/// `k u - h v` and `k u + h v`. The boundary (in order) is: the arc of disc 1 from normal
/// `k u - h v` to `k u + h v` (angular extent `2 acos k`, through `u`), the tangent line to
/// disc 0, the arc of disc 0 from `k u + h v` on to `k u - h v` (extent `2π - 2 acos k`,
/// through `-u`), and the other tangent line.
///
/// Everything is computed with arithmetic and one square root (no trigonometry), except
/// ``tangentAngle`` for unequal radii (one `acos`).
///
/// Construction validates its input: any non-finite value, negative radius, magnitude above
/// ``Rasterizer/coordinateLimit`` or zero-area result gives `nil` (draw nothing).
struct CapsuleHull {
    var x0: Double
    var y0: Double
    var r0: Double
    var x1: Double
    var y1: Double
    var r1: Double
    /// True when the shape is just the disc (x0, y0, r0); the other fields are then unused.
    var isDisc: Bool
    /// Unit vector from centre 0 to centre 1.
    var ux: Double
    var uy: Double
    /// `(r0 - r1) / d` and `sqrt(1 - k²)`: the tangent normals are `k u ± h v`.
    var k: Double
    var h: Double
    /// Half the angular extent of disc 1's boundary arc, `acos(k)`, in `(0, π)`.
    var tangentAngle: Double

    /// Centre distances below this (pixels) are treated as zero: the shapes differ by less.
    static let degenerateLength = 1e-9

    @inline(__always)
    static func isSane(_ v: Double) -> Bool { v.isFinite && abs(v) <= Rasterizer.coordinateLimit }

    /// A disc; `nil` when invalid or of zero radius.
    init?(discX cx: Double, y cy: Double, radius r: Double) {
        guard Self.isSane(cx), Self.isSane(cy), Self.isSane(r), r > 0 else { return nil }
        self.init(uncheckedDiscX: cx, y: cy, radius: r)
    }

    private init(uncheckedDiscX cx: Double, y cy: Double, radius r: Double) {
        x0 = cx; y0 = cy; r0 = r
        x1 = cx; y1 = cy; r1 = r
        isDisc = true
        ux = 1; uy = 0; k = 0; h = 1
        tangentAngle = .pi / 2
    }

    /// The tapered capsule of a segment (widths are diameters); `nil` when invalid or empty.
    init?(_ s: TaperedSegment) {
        guard Self.isSane(s.x0), Self.isSane(s.y0), Self.isSane(s.x1), Self.isSane(s.y1),
              Self.isSane(s.width0), Self.isSane(s.width1),
              s.width0 >= 0, s.width1 >= 0 else { return nil }
        let ra = s.width0 * 0.5, rb = s.width1 * 0.5
        guard ra > 0 || rb > 0 else { return nil }
        let dx = s.x1 - s.x0, dy = s.y1 - s.y0
        let d = (dx * dx + dy * dy).squareRoot()
        // One disc inside the other (or a zero-length segment): the hull is the larger disc.
        if d <= Self.degenerateLength || d <= abs(ra - rb) {
            if ra >= rb {
                self.init(uncheckedDiscX: s.x0, y: s.y0, radius: ra)
            } else {
                self.init(uncheckedDiscX: s.x1, y: s.y1, radius: rb)
            }
            return
        }
        let kk = Swift.min(1, Swift.max(-1, (ra - rb) / d))
        self.init(uncheckedX0: s.x0, y0: s.y0, r0: ra, x1: s.x1, y1: s.y1, r1: rb,
                  ux: dx / d, uy: dy / d, k: kk)
    }

    private init(uncheckedX0 x0: Double, y0: Double, r0: Double, x1: Double, y1: Double,
                 r1: Double, ux: Double, uy: Double, k: Double) {
        self.x0 = x0; self.y0 = y0; self.r0 = r0
        self.x1 = x1; self.y1 = y1; self.r1 = r1
        isDisc = false
        self.ux = ux
        self.uy = uy
        self.k = k
        h = (1 - k * k).squareRoot()
        tangentAngle = k == 0 ? .pi / 2 : RasterMath.arcCosine(k)
    }

    /// Angle (radians, atan2 convention in pixel coordinates) of the vector centre 0 -> 1.
    var direction: Double { RasterMath.arcTangent(uy, ux) }

    /// The real bounding box of the exact shape.
    var minX: Double { Swift.min(x0 - r0, x1 - r1) }
    var minY: Double { Swift.min(y0 - r0, y1 - r1) }
    var maxX: Double { Swift.max(x0 + r0, x1 + r1) }
    var maxY: Double { Swift.max(y0 + r0, y1 + r1) }
}
