/// Turns polylines (and dashes) into ONE outline: closed contours appended to ``path``, all
/// wound the same way, which the caller fills once with the nonzero rule
/// (``ShapeScratch/fill(clip:sink:exact:)``, exact where pieces overlap), so every pixel's
/// coverage is accumulated once.
///
/// **The outline.** An open polyline is one contour: its left side walked forward, the end
/// cap, its left side walked backward (the right side) and the start cap. A closed one is two
/// contours: the left side forward and the right side backward. As a chain of edges, this
/// contour is the sum of the boundaries of every segment's rectangle, every join's outer piece
/// (the ROUND sector between the two segments' normals, the MITER triangle, or nothing for
/// BEVEL) and the caps, all wound alike: their shared cut lines cancel. So its winding number
/// is at least 1 exactly on the union of those pieces, which is the stroke (for ROUND joins
/// and caps, every point within half the width of the path: a point's nearest point on the
/// path is inside a segment, in its rectangle, or a vertex, in the cone between the normals on
/// the outer side, which the sector covers).
///
/// A ROUND join turning by less than the arc step (`θ`, every join of a finely sampled pen
/// curve) is one vertex, where the two sides' tangents meet: its piece is the MITER triangle,
/// which holds the sector and exceeds it by `h²(tan(θ/2) - θ/2) ≈ h²θ³/24` (`h` the half
/// width), half of what the chord between the normals' ends would leave out
/// (`h²(θ - sin θ)/2 ≈ h²θ³/12`), with one edge fewer.
///
/// **Inner corners.** Walked through the vertex (end of the incoming side, the vertex, start
/// of the outgoing side), an inner corner leaves the two rectangles' overlap counted twice,
/// which the nonzero rule still fills once but which would over-cover pixels along the inner
/// edge. So when the two inner edges cross at a point X lying within both segments (the
/// incoming one minus what its previous inner corner on the same side already took), the side
/// goes through X instead: that removes exactly the overlap (its kites never overlap on one
/// segment), the inner edge is simple and its pixels exact. Tight turns on short segments keep
/// the vertex route; there, and where the stroke really overlaps itself, the fill's second pass
/// (``OverlapCells``) gives the pixels the exact area of the union.
///
/// Cost guard: every segment charges the rows its edges walk inside the visible rows (its
/// vertical extent widened by the width, clipped) to ``budget``; when it runs out the stroker
/// sets ``failed`` and the caller draws nothing.
struct PolylineStroker {
    let scratch: ShapeScratch
    /// The outline being built. The caller swaps the scratch path in and out (a path owned
    /// by a local value is appended to without exclusivity checks).
    var path = ContourPath()
    let halfWidth: Double
    let cap: LineCap
    let join: LineJoin
    /// Miter limit, `>= 1`.
    let miterLimit: Double
    /// Rows of edge walking still allowed.
    var budget: Int
    private(set) var failed = false
    /// The visible rows (plane y range) the budget counts.
    private let rowsMin: Double, rowsMax: Double
    /// Largest chord angle of a join or cap arc (``PolygonFlattener/angleStep(radius:)``).
    private let arcStep: Double
    /// `cos(arcStep)`: a turn with a larger cosine needs no arc vertex.
    private let arcStepCosine: Double
    /// How far from the polyline's points its outline's vertices may lie: the half width
    /// times the miter limit (MITER joins) or 1.5 (arc vertices on the balanced radius, square
    /// caps), plus a pixel for rounding.
    private let vertexReach: Double
    /// Whether every vertex of the polyline being stroked lies within the path's cull
    /// rectangle (its points' box widened by ``vertexReach`` does), so that they are appended
    /// without culling tests (``ContourPath/appendWithin(_:_:)``).
    private(set) var within = false

    /// `rows` is the range of plane y the fill will cover (for the cost guard).
    init(scratch: ShapeScratch, style: ResolvedStroke, rows: (min: Double, max: Double), budget: Int) {
        self.scratch = scratch
        halfWidth = style.width / 2
        cap = style.cap
        join = style.join
        miterLimit = style.miterLimit
        rowsMin = rows.min
        rowsMax = rows.max
        self.budget = budget
        arcStep = PolygonFlattener.angleStep(radius: style.width / 2)
        arcStepCosine = RasterMath.cosine(arcStep)
        vertexReach = style.width / 2 * Swift.max(style.join == .miter ? style.miterLimit : 1, 1.5) + 1
    }

    /// Appends a vertex of the outline to ``path``.
    @inline(__always)
    private mutating func put(_ x: Double, _ y: Double) {
        if within { path.appendWithin(x, y) } else { path.append(x, y) }
    }

    /// The rows from `y0 - halfWidth` to `y1 + halfWidth` that are visible, as charged to
    /// ``budget`` (0 when none is). The visible rows are finite and the points sane, so the
    /// count is a truncation without range checks.
    @inline(__always)
    private func rows(_ y0: Double, _ y1: Double) -> Int {
        // Single min/max instructions (the points are sane: no NaN; signed zeros count alike).
        let lo = CoverageAccumulator.larger(Swift.min(y0, y1) - halfWidth, rowsMin)
        let hi = Swift.min(CoverageAccumulator.larger(y0, y1) + halfWidth, rowsMax)
        return hi >= lo ? CoverageAccumulator.truncated(hi - lo) &+ 2 : 0
    }

    /// Appends the outline of the `n >= 1` points (plane coordinates, no two consecutive ones
    /// equal, and for a closed path the last differs from the first). A single point is a dot
    /// whose square cap is aligned with `dotDirection` (a unit vector).
    mutating func stroke(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                         count n: Int, closed: Bool, dotDirection: (Double, Double)) {
        guard n >= 1, !failed else { return }
        if n == 1 {
            dot(xs[0], ys[0], dotDirection)
            return
        }
        if closed && n == 2 {
            // There and back: the segment with the join's shape at both ends.
            stroke(xs, ys, count: 2, closed: false, caps: join == .round ? .round : .butt)
        } else {
            stroke(xs, ys, count: n, closed: closed, caps: cap)
        }
    }

    /// ``stroke(_:_:count:closed:dotDirection:)`` for `n >= 2` points with the given caps.
    private mutating func stroke(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                                 count n: Int, closed: Bool, caps: LineCap) {
        let segments = closed ? n : n - 1
        // Per segment: unit direction and length.
        let geometry = scratch.doubleBuffer(3 * segments)
        var minX = xs[0], minY = ys[0], maxX = xs[0], maxY = ys[0]
        var charged = 0  // at most 2^20 segments of at most 2^31 rows: no overflow
        for i in 0..<segments {
            let j = i + 1 == n ? 0 : i + 1
            let dx = xs[j] - xs[i], dy = ys[j] - ys[i]
            let l = (dx * dx + dy * dy).squareRoot()
            geometry[3 * i] = dx / l
            geometry[3 * i + 1] = dy / l
            geometry[3 * i + 2] = l
            charged &+= rows(ys[i], ys[j])
            // Single min/max instructions, as ``ContourPath/append(_:_:)``'s box.
            minX = Swift.min(minX, xs[j]); maxX = CoverageAccumulator.larger(xs[j], maxX)
            minY = Swift.min(minY, ys[j]); maxY = CoverageAccumulator.larger(ys[j], maxY)
        }
        budget -= charged
        if budget < 0 {
            failed = true
            return
        }
        let r = vertexReach
        within = path.boxWithinCull(minX: minX - r, minY: minY - r, maxX: maxX + r, maxY: maxY + r)
        if within { path.openContour() }
        let line = Line(xs: xs.baseAddress!, ys: ys.baseAddress!, geometry: UnsafePointer(geometry),
                        points: n, closed: closed)
        side(line, forward: true)
        if closed {
            path.close()
        } else {
            let l = segments - 1
            capEnd(caps, xs[n - 1], ys[n - 1], geometry[3 * l], geometry[3 * l + 1])
        }
        side(line, forward: false)
        if !closed {
            capEnd(caps, xs[0], ys[0], -geometry[0], -geometry[1])
        }
        path.close()
    }

    /// The points and per-segment geometry of the polyline being stroked.
    private struct Line {
        let xs: UnsafePointer<Double>, ys: UnsafePointer<Double>
        /// ux, uy, length per segment (segment i runs from point i to point i + 1, modulo).
        let geometry: UnsafePointer<Double>
        let points: Int
        let closed: Bool
        var segments: Int { closed ? points : points - 1 }

        /// Point `k` of the walk in the given direction.
        @inline(__always) func point(_ k: Int, forward: Bool) -> (Double, Double) {
            let i = forward ? k : (closed ? (points &- k) % points : points &- 1 &- k)
            return (xs[i], ys[i])
        }

        /// Direction and length of segment `k` of the walk (from its point k to point k + 1).
        @inline(__always) func segment(_ k: Int, forward: Bool) -> (Double, Double, Double) {
            if forward { return (geometry[3 &* k], geometry[3 &* k &+ 1], geometry[3 &* k &+ 2]) }
            let i = closed ? (points &- 1 &- k &+ points) % points : points &- 2 &- k
            return (-geometry[3 &* i], -geometry[3 &* i &+ 1], geometry[3 &* i &+ 2])
        }
    }

    /// Appends the left side of the walk (forward: the polyline's left; backward: its right,
    /// from the end to the start), with the joins at its interior vertices (every vertex when
    /// closed). A join whose two segments are exactly opposite is an outer join on the forward
    /// walk and an inner one on the backward walk, so the U-turn gets its join once.
    private mutating func side(_ p: Line, forward: Bool) {
        let h = halfWidth
        let m = p.points, segs = p.segments
        if p.closed {
            // The join at point 0 first: it takes the start of segment 0 and reserves the end
            // of the last segment.
            let (ux, uy, lu) = p.segment(segs - 1, forward: forward)
            let (vx, vy, lv) = p.segment(0, forward: forward)
            let (px, py) = p.point(0, forward: forward)
            let first = joinAt(px, py, (ux, uy), (vx, vy), availableIn: lu, availableOut: lv, tieInner: forward)
            var trim = first
            for k in 1..<m {
                let (ax, ay, la) = p.segment(k - 1, forward: forward)
                let (bx, by, lb) = p.segment(k, forward: forward)
                let (qx, qy) = p.point(k, forward: forward)
                trim = joinAt(qx, qy, (ax, ay), (bx, by), availableIn: la - trim,
                              availableOut: k == m - 1 ? lb - first : lb, tieInner: forward)
            }
            return
        }
        let (sx, sy) = p.point(0, forward: forward)
        let (u0x, u0y, l0) = p.segment(0, forward: forward)
        put(sx - h * u0y, sy + h * u0x)
        var trim = 0.0
        var (ax, ay, la) = (u0x, u0y, l0)
        if within {
            // The joins' common cases (an inner corner through its X, a round join of one vertex)
            // written through a writer that keeps the path's count and box in registers; the
            // others go through joinAt with the path up to date. The same vertices as joinAt's.
            var w = path.writer(room: 2 &* m)
            var k = 1
            while k < m &- 1 {
                let (bx, by, lb) = p.segment(k, forward: forward)
                let (qx, qy) = p.point(k, forward: forward)
                let cross = ax * by - ay * bx, dot = ax * bx + ay * by
                let nux = -ay, nuy = ax
                if cross > 0 || (cross == 0 && dot < 0 && forward) {
                    let r = h * cross / (1 + dot)
                    if r <= la - trim && r <= lb {
                        w.put(qx + h * nux - r * ax, qy + h * nuy - r * ay)
                        trim = r
                        (ax, ay, la) = (bx, by, lb)
                        k &+= 1
                        continue
                    }
                } else if !(cross == 0 && dot > 0) && join == .round && dot >= arcStepCosine {
                    let nvx = -by, nvy = bx, d0 = 1 + dot
                    w.put(qx + h * (nux + nvx) / d0, qy + h * (nuy + nvy) / d0)
                    trim = 0
                    (ax, ay, la) = (bx, by, lb)
                    k &+= 1
                    continue
                }
                path.finish(w)
                trim = joinAt(qx, qy, (ax, ay), (bx, by), availableIn: la - trim, availableOut: lb,
                              tieInner: forward)
                w = path.writer(room: 2 &* (m &- k))
                (ax, ay, la) = (bx, by, lb)
                k &+= 1
            }
            path.finish(w)
        } else {
            for k in 1..<(m - 1) {
                let (bx, by, lb) = p.segment(k, forward: forward)
                let (qx, qy) = p.point(k, forward: forward)
                trim = joinAt(qx, qy, (ax, ay), (bx, by), availableIn: la - trim, availableOut: lb,
                              tieInner: forward)
                (ax, ay, la) = (bx, by, lb)
            }
        }
        let (ex, ey) = p.point(m - 1, forward: forward)
        let (ulx, uly, _) = p.segment(segs - 1, forward: forward)
        put(ex - h * uly, ey + h * ulx)
    }

    /// Appends the left side's vertices at the joint (px, py) between unit directions `u` (in)
    /// and `v` (out), and returns how much of the outgoing segment's start an inner corner
    /// took (0 when it went through the vertex or the corner is outer). `availableIn` /
    /// `availableOut` are the lengths of the two segments still free on this side.
    @inline(__always)
    private mutating func joinAt(_ px: Double, _ py: Double, _ u: (Double, Double), _ v: (Double, Double),
                                 availableIn: Double, availableOut: Double, tieInner: Bool) -> Double {
        let h = halfWidth
        let cross = u.0 * v.1 - u.1 * v.0, dot = u.0 * v.0 + u.1 * v.1
        // Left normals.
        let nux = -u.1, nuy = u.0, nvx = -v.1, nvy = v.0
        let d0 = 1 + dot
        if cross > 0 || (cross == 0 && dot < 0 && tieInner) {
            // Turning left: the left side is inside the turn. X is h tan(φ/2) back from the
            // vertex along each inner edge; |sin φ| / (1 + cos φ) = tan(φ/2).
            let r = h * cross / d0
            if r <= availableIn && r <= availableOut {
                put(px + h * nux - r * u.0, py + h * nuy - r * u.1)
                return r
            }
            throughVertex(px, py, nux, nuy, nvx, nvy)
            return 0
        }
        if cross == 0 && dot > 0 {
            put(px + h * nux, py + h * nuy)  // straight on
            return 0
        }
        // Turning right (or a U-turn): the left side is outside; the join fills the gap.
        if join == .round && dot >= arcStepCosine {
            // Turning by less than the arc step: the tangents' meeting point (no angle needed).
            put(px + h * (nux + nvx) / d0, py + h * (nuy + nvy) / d0)
        } else {
            outerJoin(px, py, u, v, cross: cross, dot: dot)
        }
        return 0
    }

    /// ``joinAt(_:_:_:_:availableIn:availableOut:tieInner:)``'s inner corner walked through the
    /// vertex, between the left normals `nu` and `nv` (out of line: tight turns on short
    /// segments only).
    @inline(never)
    private mutating func throughVertex(_ px: Double, _ py: Double, _ nux: Double, _ nuy: Double,
                                        _ nvx: Double, _ nvy: Double) {
        let h = halfWidth
        put(px + h * nux, py + h * nuy)
        put(px, py)
        put(px + h * nvx, py + h * nvy)
    }

    /// ``joinAt(_:_:_:_:availableIn:availableOut:tieInner:)``'s outer join other than a round
    /// one of a single vertex (out of line: rare on smooth polylines, and the common cases stay
    /// small enough to be inlined into ``side(_:forward:)``).
    @inline(never)
    private mutating func outerJoin(_ px: Double, _ py: Double, _ u: (Double, Double), _ v: (Double, Double),
                                    cross: Double, dot: Double) {
        let h = halfWidth
        let nux = -u.1, nuy = u.0, nvx = -v.1, nvy = v.0
        switch join {
        case .round:
            arc(px, py, nux, nuy, nvx, nvy, angle: RasterMath.arcTangent(abs(cross), dot))
            return
        case .miter:
            let d0 = 1 + dot
            put(px + h * nux, py + h * nuy)
            if d0 > 1e-12 && 2 / d0 <= miterLimit * miterLimit {
                put(px + h * (nux + nvx) / d0, py + h * (nuy + nvy) / d0)
            }
        case .bevel:
            put(px + h * nux, py + h * nuy)
        }
        put(px + h * nvx, py + h * nvy)
    }

    /// The cap at the end (px, py) of a walk arriving with direction `u`, from the left
    /// side's last vertex to the right side's first (the butt cap adds no vertex).
    private mutating func capEnd(_ cap: LineCap, _ px: Double, _ py: Double, _ ux: Double, _ uy: Double) {
        let h = halfWidth
        let nx = -uy, ny = ux
        switch cap {
        case .butt:
            break
        case .square:
            put(px + h * (nx + ux), py + h * (ny + uy))
            put(px + h * (ux - nx), py + h * (uy - ny))
        case .round:
            arc(px, py, nx, ny, -nx, -ny, angle: Double.pi)
        }
    }

    /// Appends the arc of radius ``halfWidth`` around (px, py) turning clockwise on screen
    /// (negative angles) by `angle` in `[0, π]` from the unit vector `a` to the unit vector
    /// `b`: both ends exactly on the circle, interior vertices on the balanced radius of
    /// ``PolygonFlattener``, found by rotating `a` (no trigonometry for a single chord).
    @inline(__always)
    private mutating func arc(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double,
                              _ bx: Double, _ by: Double, angle: Double) {
        let h = halfWidth
        put(px + h * ax, py + h * ay)
        if angle > arcStep {
            let n = Int((angle / arcStep).rounded(.up))
            let step = angle / Double(n)
            let rb = PolygonFlattener.balancedRadius(h, step: step)
            let c = RasterMath.cosine(step), s = RasterMath.sine(step)
            var x = ax, y = ay
            for _ in 1..<n {
                (x, y) = (x * c + y * s, y * c - x * s)
                put(px + rb * x, py + rb * y)
            }
        }
        put(px + h * bx, py + h * by)
    }

    /// A single point: a disc (ROUND), a square aligned with `d` (SQUARE) or nothing (BUTT).
    private mutating func dot(_ x: Double, _ y: Double, _ d: (Double, Double)) {
        let h = halfWidth
        budget -= rows(y, y)
        if budget < 0 {
            failed = true
            return
        }
        switch cap {
        case .butt: return
        case .round:
            path.appendArc(cx: x, cy: y, r: h, start: 0, sweep: 2 * Double.pi)
        case .square:
            let (ux, uy) = d, nx = -uy, ny = ux
            path.append(x - ux * h - nx * h, y - uy * h - ny * h)
            path.append(x + ux * h - nx * h, y + uy * h - ny * h)
            path.append(x + ux * h + nx * h, y + uy * h + ny * h)
            path.append(x - ux * h + nx * h, y - uy * h + ny * h)
        }
        path.close()
    }
}

/// A validated stroke style: finite width > 0, miter limit >= 1.
struct ResolvedStroke {
    var width: Double
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double

    /// nil when the width is not a finite number in `(0, coordinateLimit]`.
    init?(_ style: StrokeStyle) {
        guard style.width.isFinite, style.width > 0, style.width <= Rasterizer.coordinateLimit else { return nil }
        width = style.width
        cap = style.cap
        join = style.join
        miterLimit = style.miterLimit >= 1 ? Swift.min(style.miterLimit, 1e6) : 1
    }
}
