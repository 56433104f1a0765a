/// Flattens axis-aligned ellipses, and their parallel (offset) curves, into polygons.
///
/// Point `p(θ) = (cx + rx cos θ, cy + ry sin θ)`, outward unit normal `n(θ)`; the offset curve
/// at signed distance `o` is `p + o n`. The parameter step is adaptive: a chord of a curve
/// with curvature `k` and length `L` has sagitta `k L² / 8`; for the offset curve that is
/// `(rx ry / |p'|) (1 + o κ) Δ² / 8`, held at ``tolerance``. Every vertex is pushed outwards by
/// half its local sagitta so the polygon straddles the curve: the largest distance between
/// them is about `tolerance / 2` (0.002 px, a coverage error below 0.5/255).
///
/// The curve and the step are symmetric about both axes, so one quadrant is computed and
/// mirrored into the other three (a quarter of the trigonometry). Vertices go through
/// ``ContourPath/append(_:_:)``, so with a cull rectangle a huge ellipse keeps only its
/// visible detail, and the step loop leaps over parameter ranges whose four mirrored arcs
/// cannot reach the cull rectangle (a point moves at most ``reach`` per radian), so an
/// ellipse of radius 1e7 around or across the canvas costs about what one of radius 1e3
/// does. Quadrant storage is reused (no allocation once warm).
struct EllipseFlattener {
    /// Bound on each chord's sagitta, pixels.
    static let tolerance = 0.004
    /// Largest parameter step (a tiny ellipse still gets 32 vertices).
    static let maxStep = Double.pi / 16
    /// Smallest parameter step (bounds the work for absurd sizes).
    static let minStep = 2e-6
    /// Steps between two exact sines and cosines: the rotations between them drift by a few
    /// ulps (below 1e-14 in the vertex's direction).
    static let anchorSteps = 16

    /// The quadrant's vertices, stored through pointers (no array checks per vertex); the
    /// storage grows on demand and is shared by copies (only the owner's copy appends).
    private final class Quadrant {
        var x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>
        var capacity = 512
        var count = 0

        init() {
            x = .allocate(capacity: capacity)
            y = .allocate(capacity: capacity)
        }

        deinit {
            x.deallocate()
            y.deallocate()
        }

        /// Doubles the capacity, keeping the vertices.
        func grow() {
            let c = 2 * capacity
            let nx = UnsafeMutablePointer<Double>.allocate(capacity: c), ny = UnsafeMutablePointer<Double>.allocate(capacity: c)
            nx.update(from: x, count: count)
            ny.update(from: y, count: count)
            x.deallocate()
            y.deallocate()
            x = nx
            y = ny
            capacity = c
        }
    }

    private let quadrantStorage = Quadrant()

    /// The parameter steps the last ``append(to:cx:cy:rx:ry:offset:reversed:quadrant:)`` took
    /// in its quadrant: its cost, which the culling leaps keep near what the visible arcs need.
    var quadrantSteps: Int { quadrantStorage.count }

    init() {}

    /// The first quadrant's parameter range `from ..< to` of the boundary of the ellipse's
    /// inner parallel body at distance `h` (the points whose disc of radius `h` lies inside
    /// the ellipse: convex, symmetric about both axes), or nil when that body is empty
    /// (`h >= min(rx, ry)`). Requires `rx, ry > 0`, `h >= 0`.
    ///
    /// Where `h` is at most the smallest radius of curvature (`min² / max`) the boundary is
    /// the whole inner offset curve: `(0, π/2)`. Beyond it the offset folds into swallowtails
    /// around the major axis's ends, and the boundary is the offset trimmed where it first
    /// reaches the major axis: with `a >= b` along x, the inner offset's
    /// `y(θ) = sin θ (b - h a / |p'(θ)|)` has the sign of `|p'| - h a / b`, and `|p'|² =
    /// b² + (a² - b²) sin² θ` grows from `b²` at θ = 0 to `a²` at π/2, so it is zero once, at
    /// `sin² θ0 = ((h a / b)² - b²) / (a² - b²)`, and positive above: the range is `(θ0, π/2)`.
    /// The cusps lie on the evolute, whose first-quadrant part has `y <= 0`, so the branch
    /// walked from π/2 meets the axis before its cusp: `1 + offset κ > 0` on the range. With
    /// the major axis along y, symmetrically `(0, θ1)`, θ1 where x first reaches 0.
    static func innerQuadrant(rx: Double, ry: Double, halfWidth h: Double) -> (from: Double, to: Double)? {
        let quarter = 0.5 * Double.pi
        guard h < Swift.min(rx, ry) else { return nil }
        if rx >= ry {
            guard h > ry * ry / rx else { return (0, quarter) }
            let q = h * rx / ry
            let s2 = Swift.min((q - ry) * (q + ry) / ((rx - ry) * (rx + ry)), 1)
            let from = RasterMath.arcTangent(s2.squareRoot(), (1 - s2).squareRoot())
            return from < quarter ? (from, quarter) : nil
        }
        guard h > rx * rx / ry else { return (0, quarter) }
        let q = h * ry / rx
        let c2 = Swift.min((q - rx) * (q + rx) / ((ry - rx) * (ry + rx)), 1)
        let to = RasterMath.arcTangent((1 - c2).squareRoot(), c2.squareRoot())
        return to > 0 ? (0, to) : nil
    }

    /// Appends the closed curve at offset `offset` (positive outwards) as a new contour,
    /// clockwise on screen (θ increasing), or the other way round when `reversed`.
    /// Requires `rx, ry > 0` and `1 + offset * κ > 0` along the curve (no cusps).
    ///
    /// `quadrant`: the first quadrant's part walked, mirrored into the others (default the
    /// whole quadrant). A range starting after 0 starts on the x axis (the vertex at `from`
    /// has y = 0 exactly), one ending before π/2 ends on the y axis (x = 0); those corner
    /// vertices are not pushed. With ``innerQuadrant(rx:ry:halfWidth:)`` and `offset = -h`
    /// that is the boundary of the inner parallel body (a convex contour).
    mutating func append(to path: inout ContourPath, cx: Double, cy: Double, rx: Double,
                         ry: Double, offset: Double = 0, reversed: Bool = false,
                         quadrant: (from: Double, to: Double) = (0, 0.5 * Double.pi)) {
        var walk = Walk(quadrantStorage, path, cx: cx, cy: cy, rx: rx, ry: ry, offset: offset,
                        quadrant: quadrant)
        while true {
            let vertex = walk.vertex()
            if walk.theta >= walk.quarter { break }
            walk.advance(to: Self.next(walk, after: vertex, path: &path, cx: cx, cy: cy))
        }
        Self.mirror(quadrantStorage, into: &path, cx: cx, cy: cy, reversed: reversed, within: walk.within)
    }

    /// Appends a ring's two contours: this flattener's at offset `h` (outwards, clockwise on
    /// screen), then `inner`'s at `-h` over `innerQuadrant`, reversed: what
    /// ``append(to:cx:cy:rx:ry:offset:reversed:quadrant:)`` appends for each, the same
    /// vertices, with the two quadrants' step loops interleaved (each vertex's square roots
    /// and divisions wait on the step before it; the two walks' chains overlap). Out of line:
    /// inlined into a large caller, the steps were left as calls.
    @inline(never)
    mutating func appendRing(inner: EllipseFlattener, to path: inout ContourPath, cx: Double, cy: Double,
                             rx: Double, ry: Double, halfWidth h: Double,
                             innerQuadrant: (from: Double, to: Double)) {
        var a = Walk(quadrantStorage, path, cx: cx, cy: cy, rx: rx, ry: ry, offset: h,
                     quadrant: (0, 0.5 * Double.pi))
        var b = Walk(inner.quadrantStorage, path, cx: cx, cy: cy, rx: rx, ry: ry, offset: -h,
                     quadrant: innerQuadrant)
        var aDone = false, bDone = false
        while !aDone || !bDone {
            if !aDone {
                let vertex = a.vertex()
                aDone = a.theta >= a.quarter
                if !aDone { a.advance(to: Self.next(a, after: vertex, path: &path, cx: cx, cy: cy)) }
            }
            if !bDone {
                let vertex = b.vertex()
                bDone = b.theta >= b.quarter
                if !bDone { b.advance(to: Self.next(b, after: vertex, path: &path, cx: cx, cy: cy)) }
            }
        }
        Self.mirror(quadrantStorage, into: &path, cx: cx, cy: cy, reversed: false, within: a.within)
        Self.mirror(inner.quadrantStorage, into: &path, cx: cx, cy: cy, reversed: true, within: b.within)
    }

    /// The parameter after the walk's vertex `v` (relative to the centre `(cx, cy)`, with its
    /// curvature's step): one step on, or (when some vertex may be culled) a leap over the
    /// range whose four mirrored arcs cannot reach `path`'s cull rectangle; at most the
    /// quadrant's end. `path` is only read (inout: no copy of it).
    @inline(__always)
    private static func next(_ w: Walk, after v: (x: Double, y: Double, step: Double), path: inout ContourPath,
                             cx: Double, cy: Double) -> Double {
        if w.within { return Swift.min(w.theta + v.step, w.quarter) }
        let x = v.x, y = v.y
        let gap = Swift.min(
            Swift.min(path.distanceBeyondCull(cx + x, cy + y), path.distanceBeyondCull(cx - x, cy + y)),
            Swift.min(path.distanceBeyondCull(cx - x, cy - y), path.distanceBeyondCull(cx + x, cy - y)))
        return Swift.min(w.theta + Swift.max(v.step, gap / w.reach), w.quarter)
    }

    /// One quadrant's walk over the parameter: ``vertex()`` stores the vertex at ``theta``
    /// into the quadrant storage (emptied at the start), ``advance(to:)`` moves on, until
    /// ``theta`` reaches ``quarter``.
    private struct Walk {
        let q: Quadrant
        let rx: Double, ry: Double, offset: Double
        let from: Double, quarter: Double
        let cornerFirst: Bool, cornerLast: Bool
        /// A bound on the offset curve's speed |d(p + o n)/dθ| <= |p'| + |o| |p'| κ, with
        /// |p'| <= max(rx, ry) and |p'| κ = rx ry / |p'|² <= max / min: doubled for the push.
        let reach: Double
        /// Every vertex lies within max(rx, ry) + |offset| + the push (below 0.01) of the
        /// centre: when that box is within the cull rectangle, no vertex is culled and no step
        /// leaps.
        let within: Bool
        var theta: Double
        /// (sin θ, cos θ): exact (the C library's) at the first and last vertex, after a leap
        /// and every ``anchorSteps`` steps; in between the previous pair rotated by the step.
        var s: Double, c: Double
        var rotated = 0

        init(_ q: Quadrant, _ path: ContourPath, cx: Double, cy: Double, rx: Double, ry: Double,
             offset: Double, quadrant: (from: Double, to: Double)) {
            self.q = q
            q.count = 0
            self.rx = rx
            self.ry = ry
            self.offset = offset
            from = quadrant.from
            quarter = quadrant.to
            theta = quadrant.from
            cornerFirst = quadrant.from > 0
            cornerLast = quarter < 0.5 * Double.pi
            reach = 2 * (Swift.max(rx, ry) + abs(offset) * Swift.max(rx, ry) / Swift.min(rx, ry))
            let extent = Swift.max(rx, ry) + abs(offset) + 1
            within = path.distanceBeyondCull(cx - extent, cy - extent) <= 0
                && path.distanceBeyondCull(cx + extent, cy + extent) <= 0
            (s, c) = RasterMath.sineCosine(theta)
        }

        /// Stores the vertex at ``theta``; returns it (relative to the centre) and the
        /// curvature's parameter step there.
        @inline(__always)
        func vertex() -> (x: Double, y: Double, step: Double) {
            let tx = -rx * s, ty = ry * c
            let speed = (tx * tx + ty * ty).squareRoot()
            let kappa = rx * ry / (speed * speed * speed)
            let k = rx * ry / speed * Swift.max(1 + offset * kappa, 0.05)
            let step = Swift.min(EllipseFlattener.maxStep,
                                 Swift.max(EllipseFlattener.minStep, (8 * EllipseFlattener.tolerance / k).squareRoot()))
            let onXAxis = cornerFirst && theta == from, onYAxis = cornerLast && theta >= quarter
            let push = onXAxis || onYAxis ? offset : offset + k * step * step / 16
            var x = rx * c + push * ty / speed, y = ry * s - push * tx / speed
            if onXAxis { y = 0 }
            if onYAxis { x = 0 }
            if q.count == q.capacity { q.grow() }
            q.x[q.count] = x
            q.y[q.count] = y
            q.count &+= 1
            return (x, y, step)
        }

        /// Moves to the parameter `next` (above ``theta``, at most ``quarter``).
        @inline(__always)
        mutating func advance(to next: Double) {
            let delta = next - theta
            rotated &+= 1
            if next >= quarter || delta > EllipseFlattener.maxStep || rotated == EllipseFlattener.anchorSteps {
                (s, c) = RasterMath.sineCosine(next)
                rotated = 0
            } else {
                let (sd, cd) = RasterMath.smallAngleSineCosine(delta)
                (s, c) = (s * cd + c * sd, c * cd - s * sd)
            }
            theta = next
        }
    }

    /// The topmost and bottommost vertex (y least and greatest, the first of equals not
    /// guaranteed) of a contour appended with a quadrant of `m + 1` vertices (`4 m` in all,
    /// none culled), as ``mirror(_:into:cx:cy:reversed:within:)`` lays them out: k rising in
    /// the first quadrant (y = cy + qy[k]), falling in the second, rising in the third (cy -
    /// qy[k]) and falling in the fourth, so the bottom is vertex m and the top 3 m; reversed,
    /// the same vertices from the fourth quadrant's k = 1 backwards, so the top is m - 1 and
    /// the bottom 3 m - 1. y is monotone from one to the other either way round (qy grows
    /// with k).
    static func extremes(quadrantVertices m: Int, reversed: Bool) -> (top: Int, bottom: Int) {
        reversed ? (m - 1, 3 * m - 1) : (3 * m, m)
    }

    /// Appends the quadrant `q` (θ from its range's start to its end inclusive) mirrored into
    /// the four quadrants around `(cx, cy)` as a new contour (reversed when `reversed`);
    /// `within`: no vertex can be culled.
    private static func mirror(_ q: Quadrant, into path: inout ContourPath, cx: Double, cy: Double,
                               reversed: Bool, within: Bool) {
        // The quadrant holds θ from 0 to π/2 inclusive; mirror it into the four quadrants.
        let m = q.count - 1, qx = q.x, qy = q.y
        path.close()
        if within {
            path.appendWithinCull(count: 4 * m) { xs, ys in
                // Every k in 0...m appears once with each sign, so the bounds come from
                // the quadrant's extremes (rounding keeps cx ± q monotone in q).
                var loX = qx[0], hiX = qx[0], loY = qy[0], hiY = qy[0]
                var i = 0, k = 0
                if reversed {
                    // The same vertices in the opposite order (what reversing the contour gives).
                    k = 1
                    while k <= m { xs[i] = cx + qx[k]; ys[i] = cy - qy[k]; i &+= 1; k &+= 1 }
                    k = m &- 1
                    while k >= 0 { xs[i] = cx - qx[k]; ys[i] = cy - qy[k]; i &+= 1; k &-= 1 }
                    k = 1
                    while k <= m { xs[i] = cx - qx[k]; ys[i] = cy + qy[k]; i &+= 1; k &+= 1 }
                    k = m &- 1
                    while k >= 0 { xs[i] = cx + qx[k]; ys[i] = cy + qy[k]; i &+= 1; k &-= 1 }
                } else {
                    while k < m { xs[i] = cx + qx[k]; ys[i] = cy + qy[k]; i &+= 1; k &+= 1 }
                    while k > 0 { xs[i] = cx - qx[k]; ys[i] = cy + qy[k]; i &+= 1; k &-= 1 }
                    while k < m { xs[i] = cx - qx[k]; ys[i] = cy - qy[k]; i &+= 1; k &+= 1 }
                    while k > 0 { xs[i] = cx + qx[k]; ys[i] = cy - qy[k]; i &+= 1; k &-= 1 }
                }
                for j in 1...m {
                    loX = Swift.min(loX, qx[j]); hiX = Swift.max(hiX, qx[j])
                    loY = Swift.min(loY, qy[j]); hiY = Swift.max(hiY, qy[j])
                }
                return (Swift.min(cx + loX, cx - hiX), Swift.min(cy + loY, cy - hiY),
                        Swift.max(cx + hiX, cx - loX), Swift.max(cy + hiY, cy - loY))
            }
            return
        }
        for k in 0..<m { path.append(cx + qx[k], cy + qy[k]) }
        for k in stride(from: m, to: 0, by: -1) { path.append(cx - qx[k], cy + qy[k]) }
        for k in 0..<m { path.append(cx - qx[k], cy - qy[k]) }
        for k in stride(from: m, to: 0, by: -1) { path.append(cx + qx[k], cy - qy[k]) }
        if reversed { path.reverseLastContour() }
    }

    /// Calls `body` with the last appended contour's quadrant: the vertices `(qx[k], qy[k])`
    /// relative to its centre for θ over the quadrant's range (k in `0...m`, `m = qx.count - 1`), which
    /// it mirrors into the other three quadrants; `qy` grows and `qx` shrinks with k.
    func withQuadrant<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) -> R) -> R {
        let q = quadrantStorage
        return body(UnsafeBufferPointer(start: q.x, count: q.count), UnsafeBufferPointer(start: q.y, count: q.count))
    }

    /// The ellipse itself (no push, no offset) as the points of a closed polyline for the
    /// stroker, at most `limit` points; returns false when the ellipse would need more.
    static func polyline(into xs: inout [Double], _ ys: inout [Double], cx: Double, cy: Double,
                         rx: Double, ry: Double, limit: Int) -> Bool {
        xs.removeAll(keepingCapacity: true)
        ys.removeAll(keepingCapacity: true)
        var theta = 0.0
        while theta < 2 * Double.pi {
            guard xs.count < limit else { return false }
            let c = RasterMath.cosine(theta), s = RasterMath.sine(theta)
            let tx = -rx * s, ty = ry * c
            let speed = Swift.max((tx * tx + ty * ty).squareRoot(), 1e-300)
            let k = rx * ry / speed
            xs.append(cx + rx * c)
            ys.append(cy + ry * s)
            theta += Swift.min(maxStep, Swift.max(minStep, (8 * tolerance / Swift.max(k, 1e-300)).squareRoot()))
        }
        return true
    }
}
