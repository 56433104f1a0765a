/// Stage 2 of the pipeline (flatten): turns a ``CapsuleHull`` or a caller polygon into one
/// closed polygon (the last vertex implicitly joins the first), in plane coordinates.
///
/// Circular arcs become chords; interior arc vertices sit on a slightly larger radius `R` so the
/// polygon alternates outside/inside the true circle. Arc end points (tangent points of a
/// capsule) are exact so the straight sides are.
///
/// A hull whose circles lie inside the cull rectangle (the usual brush segment) is flattened
/// without trigonometry: full steps by rotating a unit vector (one `acos` per radius for the
/// step), then one shorter chord to the exact end point; its vertices sit on the radius that
/// gives each chord the area of its sector (no coverage bias), within `maxDeviation` of the
/// circle. Otherwise (culling) chords follow `angleStep(radius:)`, with a sagitta of at most
/// `2 * culledDeviation` and vertices on the balanced radius (within `culledDeviation` of the
/// circle), and parts of an arc whose (conservative) bounding box misses the `cull` rectangle
/// are replaced by one chord. That is exact inside the rectangle (the region between the chord and
/// the arc lies inside that bounding box), and makes huge circles cost in proportion to the
/// visible part of their boundary, not to their size.
///
/// Storage is two growable coordinate buffers reused between calls (no allocation once warm).
final class PolygonFlattener {
    /// Maximum distance between the polygon and the true circle, pixels, for visible circles
    /// (area-preserving vertices: no coverage bias).
    static let maxDeviation = 0.0075
    /// The same for arcs flattened with culling (balanced vertices, a slight inward bias over
    /// long visible boundaries, so a finer tolerance).
    static let culledDeviation = 0.001
    /// Lower bound on the vertex count of a full circle (tiny discs).
    static let minVerticesPerCircle = 12
    /// The same for visible circles, whose small discs (a thin pen) need the extra vertices
    /// to stay within the coverage tolerance.
    static let minVisibleVerticesPerCircle = 20

    /// Vertex coordinates `0..<count` (valid until the next `reset`/`append`).
    private(set) var xs: UnsafeMutablePointer<Double>
    private(set) var ys: UnsafeMutablePointer<Double>
    private(set) var count = 0
    private var capacity = 1024

    private var cullMinX = 0.0, cullMinY = 0.0, cullMaxX = 0.0, cullMaxY = 0.0

    init() {
        xs = .allocate(capacity: capacity)
        ys = .allocate(capacity: capacity)
    }

    deinit {
        xs.deallocate()
        ys.deallocate()
    }

    /// Empties the polygon and sets the rectangle (plane coordinates) outside which arc detail
    /// may be dropped; it is widened by a margin internally.
    func reset(cull: PixelRect) {
        count = 0
        let margin = 1.0
        cullMinX = Double(cull.x) - margin
        cullMinY = Double(cull.y) - margin
        cullMaxX = Double(cull.maxX) + margin
        cullMaxY = Double(cull.maxY) + margin
    }

    @inline(__always)
    func append(x: Double, y: Double) {
        if count == capacity { grow() }
        xs[count] = x
        ys[count] = y
        count &+= 1
    }

    /// Doubles the capacity of both coordinate buffers, keeping the vertices.
    private func grow() {
        let bigger = capacity * 2
        let nx = UnsafeMutablePointer<Double>.allocate(capacity: bigger)
        let ny = UnsafeMutablePointer<Double>.allocate(capacity: bigger)
        nx.moveInitialize(from: xs, count: count)
        ny.moveInitialize(from: ys, count: count)
        xs.deallocate()
        ys.deallocate()
        xs = nx
        ys = ny
        capacity = bigger
    }

    /// Appends the whole boundary of `hull`.
    func append(_ hull: CapsuleHull) {
        let big0 = hull.r0 * 1.03 + Self.maxDeviation, big1 = hull.r1 * 1.03 + Self.maxDeviation
        let inside = hull.x0 - big0 >= cullMinX && hull.x0 + big0 <= cullMaxX
            && hull.y0 - big0 >= cullMinY && hull.y0 + big0 <= cullMaxY
            && hull.x1 - big1 >= cullMinX && hull.x1 + big1 <= cullMaxX
            && hull.y1 - big1 >= cullMinY && hull.y1 + big1 <= cullMaxY
        if inside {
            appendVisible(hull)
            return
        }
        if hull.isDisc {
            appendCircle(cx: hull.x0, cy: hull.y0, r: hull.r0)
            return
        }
        let a = hull.tangentAngle, dir = hull.direction
        appendArc(cx: hull.x1, cy: hull.y1, r: hull.r1, start: dir - a, sweep: 2 * a)
        appendArc(cx: hull.x0, cy: hull.y0, r: hull.r0, start: dir + a, sweep: 2 * .pi - 2 * a)
    }

    /// The radius of ``lastStep`` (-1, no radius, before the first).
    private var lastStepRadius = -1.0
    /// The rotation step of the last radius one was computed for.
    private var lastStep = RotationStep(radius: 1)

    /// `RotationStep(radius: r)`, computed once while the radius stays the same: the segments
    /// of a stroke share their joints, so each starts with the radius the one before ended with
    /// (an `acos`, two square roots and a division saved per segment of a tapered stroke).
    @inline(__always)
    private func rotationStep(radius r: Double) -> RotationStep {
        if r == lastStepRadius { return lastStep }
        let step = RotationStep(radius: r)
        lastStepRadius = r
        lastStep = step
        return step
    }

    /// The trigonometry-free flattening of a hull whose circles are entirely visible.
    private func appendVisible(_ hull: CapsuleHull) {
        if hull.isDisc {
            let step = rotationStep(radius: hull.r0)
            appendRotatedArc(cx: hull.x0, cy: hull.y0, r: hull.r0, step: step, fromX: 1, fromY: 0,
                             toX: 1, toY: 0, sweep: 2 * .pi, closing: true)
            return
        }
        // Tangent normals k u - h v (start of disc 1's arc) and k u + h v (its end), v = (-uy, ux).
        let ax = hull.k * hull.ux + hull.h * hull.uy, ay = hull.k * hull.uy - hull.h * hull.ux
        let bx = hull.k * hull.ux - hull.h * hull.uy, by = hull.k * hull.uy + hull.h * hull.ux
        let sweep1 = 2 * hull.tangentAngle
        // Disc 0's step first: it is usually the previous segment's disc 1.
        let step0 = rotationStep(radius: hull.r0)
        let step1 = hull.r0 == hull.r1 ? step0 : rotationStep(radius: hull.r1)
        appendRotatedArc(cx: hull.x1, cy: hull.y1, r: hull.r1, step: step1, fromX: ax, fromY: ay,
                         toX: bx, toY: by, sweep: sweep1, closing: false)
        appendRotatedArc(cx: hull.x0, cy: hull.y0, r: hull.r0, step: step0, fromX: bx, fromY: by,
                         toX: ax, toY: ay, sweep: 2 * .pi - sweep1, closing: false)
    }

    /// The chord step for one radius: angle, its cosine and sine, and the vertex radius.
    ///
    /// The vertex radius `R = r sqrt(φ / (sin φ cos φ))` (half step φ) makes each full chord's
    /// triangle exactly as large as the circle's sector: the polygon has the circle's area, so
    /// coverage has no bias even on tiny discs, and its distance from the circle is at most
    /// two thirds of the chord sagitta (vertices outside, chord middles inside).
    private struct RotationStep {
        var angle: Double
        var cos: Double
        var sin: Double
        var vertexRadius: Double

        @inline(__always)
        init(radius r: Double) {
            // cos(step / 2) = 1 - sagitta / r, bounded by the minimum vertex count.
            let minHalfCos = 0.98768834059513777  // cos(π / minVisibleVerticesPerCircle)
            let sagitta = 1.5 * PolygonFlattener.maxDeviation
            let halfCos = r > sagitta ? Swift.max(1 - sagitta / r, minHalfCos) : minHalfCos
            let halfSin = (1 - halfCos * halfCos).squareRoot()
            let half = RasterMath.arcCosine(halfCos)
            angle = 2 * half
            cos = 2 * halfCos * halfCos - 1
            sin = 2 * halfCos * halfSin
            vertexRadius = halfSin > 0 ? r * (half / (halfSin * halfCos)).squareRoot() : r
        }
    }

    /// Appends an arc of radius `r` from unit direction `from` to unit direction `to`, turning
    /// by `sweep` radians (increasing atan2 angle): the exact start point, full steps on the
    /// area-preserving vertex radius, then the exact end point (left out when `closing`, where it repeats the
    /// start of a full circle).
    @inline(__always)
    private func appendRotatedArc(cx: Double, cy: Double, r: Double, step: RotationStep,
                                  fromX: Double, fromY: Double, toX: Double, toY: Double,
                                  sweep: Double, closing: Bool) {
        append(x: cx + r * fromX, y: cy + r * fromY)
        // Full steps strictly before the end; the last chord is at most one step long. The
        // ceiling inline (`sweep / step.angle` is finite and at most 2π over the step of a visible
        // circle): `rounded(.up)` called `ceil` through the PLT, an indirect branch, twice a segment.
        let steps = Swift.max(0, CoverageAccumulator.ceiling(sweep / step.angle) &- 1)
        let needed = count + steps + 1
        while needed > capacity { grow() }
        var c = fromX, s = fromY
        let rr = step.vertexRadius
        var i = 0
        var n = count
        while i < steps {
            let nc = c * step.cos - s * step.sin
            s = s * step.cos + c * step.sin
            c = nc
            xs[n] = cx + rr * c
            ys[n] = cy + rr * s
            n &+= 1
            i &+= 1
        }
        count = n
        if !closing { append(x: cx + r * toX, y: cy + r * toY) }
    }

    /// The chord angle for a circle of radius `r` (before rounding to a whole count).
    @inline(__always)
    static func angleStep(radius r: Double) -> Double {
        let maxStep = 2 * Double.pi / Double(minVerticesPerCircle)
        let sagitta = 2 * culledDeviation
        guard r > sagitta else { return maxStep }
        return Swift.min(maxStep, 2 * RasterMath.arcCosine(1 - sagitta / r))
    }

    /// Vertex radius `R` for chords of angle `step` so the polygon straddles radius `r`.
    @inline(__always)
    static func balancedRadius(_ r: Double, step: Double) -> Double {
        2 * r / (1 + RasterMath.cosine(step * 0.5))
    }

    /// A full circle: `n` vertices, all on the balanced radius.
    func appendCircle(cx: Double, cy: Double, r: Double) {
        let n = Swift.max(Self.minVerticesPerCircle,
                          Int((2 * Double.pi / Self.angleStep(radius: r)).rounded(.up)))
        let step = 2 * Double.pi / Double(n)
        let radius = Self.balancedRadius(r, step: step)
        let arc = Arc(cx: cx, cy: cy, endRadius: radius, radius: radius,
                      start: 0, step: step, count: n, exactEnds: false)
        append(x: arc.x(0), y: arc.y(0))
        emit(arc, from: 0, to: n)
        // Vertex n duplicates vertex 0; the polygon closes implicitly.
        count -= 1
    }

    /// An arc from angle `start` through `start + sweep` (both end points exactly on radius
    /// `r`, included). A zero radius yields the single point (cx, cy).
    func appendArc(cx: Double, cy: Double, r: Double, start: Double, sweep: Double) {
        if r <= 0 {
            append(x: cx, y: cy)
            return
        }
        let n = Swift.max(1, Int((sweep / Self.angleStep(radius: r)).rounded(.up)))
        let step = sweep / Double(n)
        let arc = Arc(cx: cx, cy: cy, endRadius: r, radius: Self.balancedRadius(r, step: step),
                      start: start, step: step, count: n, exactEnds: true)
        append(x: arc.x(0), y: arc.y(0))
        emit(arc, from: 0, to: n)
    }

    /// One arc's flattening parameters: vertex `i` is at angle `start + i * step`, on `radius`
    /// except vertices 0 and `count` which are on `endRadius` when `exactEnds`.
    private struct Arc {
        var cx: Double, cy: Double
        var endRadius: Double
        var radius: Double
        var start: Double, step: Double
        var count: Int
        var exactEnds: Bool
        /// cos/sin of `step`, for generating runs of vertices by rotation.
        var stepCos: Double, stepSin: Double

        init(cx: Double, cy: Double, endRadius: Double, radius: Double, start: Double,
             step: Double, count: Int, exactEnds: Bool) {
            self.cx = cx; self.cy = cy
            self.endRadius = endRadius; self.radius = radius
            self.start = start; self.step = step
            self.count = count; self.exactEnds = exactEnds
            stepCos = RasterMath.cosine(step)
            stepSin = RasterMath.sine(step)
        }

        @inline(__always) func radius(_ i: Int) -> Double {
            exactEnds && (i == 0 || i == count) ? endRadius : radius
        }
        @inline(__always) func x(_ i: Int) -> Double {
            cx + radius(i) * RasterMath.cosine(start + Double(i) * step)
        }
        @inline(__always) func y(_ i: Int) -> Double {
            cy + radius(i) * RasterMath.sine(start + Double(i) * step)
        }
    }

    /// Appends vertices `i0 + 1 ... i1` of `arc` (vertex `i0` is already in the polygon),
    /// collapsing runs whose bounding box misses the cull rectangle into a single chord.
    private func emit(_ arc: Arc, from i0: Int, to i1: Int) {
        let big = Swift.max(arc.radius, arc.endRadius)
        let insideCull = arc.cx - big >= cullMinX && arc.cx + big <= cullMaxX
            && arc.cy - big >= cullMinY && arc.cy + big <= cullMaxY
        if i1 - i0 > 4 && !insideCull {
            let sweep = Double(i1 - i0) * arc.step
            var loX: Double, hiX: Double, loY: Double, hiY: Double
            if sweep >= Double.pi {
                loX = arc.cx - big; hiX = arc.cx + big
                loY = arc.cy - big; hiY = arc.cy + big
            } else {
                let a0 = arc.start + Double(i0) * arc.step, a1 = arc.start + Double(i1) * arc.step
                let ax = arc.cx + big * RasterMath.cosine(a0), ay = arc.cy + big * RasterMath.sine(a0)
                let bx = arc.cx + big * RasterMath.cosine(a1), by = arc.cy + big * RasterMath.sine(a1)
                // The arc lies within its sagitta of the chord; vertices on the smaller radius
                // lie within |R - r| of the bigger one.
                let pad = big * (1 - RasterMath.cosine(sweep * 0.5)) + abs(arc.radius - arc.endRadius)
                loX = Swift.min(ax, bx) - pad; hiX = Swift.max(ax, bx) + pad
                loY = Swift.min(ay, by) - pad; hiY = Swift.max(ay, by) + pad
            }
            if hiX < cullMinX || loX > cullMaxX || hiY < cullMinY || loY > cullMaxY {
                append(x: arc.x(i1), y: arc.y(i1))
                return
            }
            let mid = i0 + (i1 - i0) / 2
            emit(arc, from: i0, to: mid)
            emit(arc, from: mid, to: i1)
            return
        }
        // A run of vertices: exact trig for the first, then rotation by the step angle
        // (runs are short, or the whole circle is inside the cull box, so drift stays far
        // below 1e-9 px).
        let a = arc.start + Double(i0 + 1) * arc.step
        var c = RasterMath.cosine(a), sn = RasterMath.sine(a)
        var i = i0 + 1
        while i <= i1 {
            let rad = arc.radius(i)
            append(x: arc.cx + rad * c, y: arc.cy + rad * sn)
            let nc = c * arc.stepCos - sn * arc.stepSin
            sn = sn * arc.stepCos + c * arc.stepSin
            c = nc
            i += 1
        }
    }
}
