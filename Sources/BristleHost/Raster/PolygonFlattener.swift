/// Stage 2 of the pipeline (flatten): turns a ``CapsuleHull`` or a caller polygon into one
/// closed polygon (the last vertex implicitly joins the first), in plane coordinates.
///
/// Circular arcs become chords with `angleStep(radius:)` chosen so the chord sagitta is at most
/// `2 * maxDeviation` pixels; interior arc vertices sit on a slightly larger radius `R` so the
/// polygon alternates outside/inside the true circle, and its distance from the true boundary
/// is at most `maxDeviation` (a coverage error of at most `maxDeviation` per pixel, with almost
/// no bias). Arc end points (tangent points of a capsule) are exact so the straight sides are.
///
/// Culling: parts of an arc whose (conservative) bounding box misses the `cull` rectangle are
/// replaced by one chord. That is exact inside the rectangle (the region between the chord and
/// the arc lies inside that bounding box), and makes huge circles cost in proportion to the
/// visible part of their boundary, not to their size.
///
/// Storage is reused between calls (no allocation once warm).
struct PolygonFlattener {
    /// Maximum distance between the polygon and the true circle, pixels.
    static let maxDeviation = 0.001
    /// Lower bound on the vertex count of a full circle (tiny discs).
    static let minVerticesPerCircle = 12

    private(set) var xs: [Double] = []
    private(set) var ys: [Double] = []

    private var cullMinX = 0.0, cullMinY = 0.0, cullMaxX = 0.0, cullMaxY = 0.0

    init() {
        xs.reserveCapacity(1024)
        ys.reserveCapacity(1024)
    }

    var count: Int { xs.count }

    /// Empties the polygon and sets the rectangle (plane coordinates) outside which arc detail
    /// may be dropped; it is widened by a margin internally.
    mutating func reset(cull: PixelRect) {
        xs.removeAll(keepingCapacity: true)
        ys.removeAll(keepingCapacity: true)
        let margin = 1.0
        cullMinX = Double(cull.x) - margin
        cullMinY = Double(cull.y) - margin
        cullMaxX = Double(cull.maxX) + margin
        cullMaxY = Double(cull.maxY) + margin
    }

    @inline(__always)
    mutating func append(x: Double, y: Double) {
        xs.append(x)
        ys.append(y)
    }

    /// Appends the whole boundary of `hull`.
    mutating func append(_ hull: CapsuleHull) {
        if hull.isDisc {
            appendCircle(cx: hull.x0, cy: hull.y0, r: hull.r0)
            return
        }
        let a = hull.tangentAngle, dir = hull.direction
        appendArc(cx: hull.x1, cy: hull.y1, r: hull.r1, start: dir - a, sweep: 2 * a)
        appendArc(cx: hull.x0, cy: hull.y0, r: hull.r0, start: dir + a, sweep: 2 * .pi - 2 * a)
    }

    /// The chord angle for a circle of radius `r` (before rounding to a whole count).
    @inline(__always)
    static func angleStep(radius r: Double) -> Double {
        let maxStep = 2 * Double.pi / Double(minVerticesPerCircle)
        let sagitta = 2 * maxDeviation
        guard r > sagitta else { return maxStep }
        return Swift.min(maxStep, 2 * RasterMath.arcCosine(1 - sagitta / r))
    }

    /// Vertex radius `R` for chords of angle `step` so the polygon straddles radius `r`.
    @inline(__always)
    static func balancedRadius(_ r: Double, step: Double) -> Double {
        2 * r / (1 + RasterMath.cosine(step * 0.5))
    }

    /// A full circle: `n` vertices, all on the balanced radius.
    mutating func appendCircle(cx: Double, cy: Double, r: Double) {
        let n = Swift.max(Self.minVerticesPerCircle,
                          Int((2 * Double.pi / Self.angleStep(radius: r)).rounded(.up)))
        let step = 2 * Double.pi / Double(n)
        let radius = Self.balancedRadius(r, step: step)
        let arc = Arc(cx: cx, cy: cy, endRadius: radius, radius: radius,
                      start: 0, step: step, count: n, exactEnds: false)
        append(x: arc.x(0), y: arc.y(0))
        emit(arc, from: 0, to: n)
        // Vertex n duplicates vertex 0; the polygon closes implicitly.
        xs.removeLast()
        ys.removeLast()
    }

    /// An arc from angle `start` through `start + sweep` (both end points exactly on radius
    /// `r`, included). A zero radius yields the single point (cx, cy).
    mutating func appendArc(cx: Double, cy: Double, r: Double, start: Double, sweep: Double) {
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
    private mutating func emit(_ arc: Arc, from i0: Int, to i1: Int) {
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
