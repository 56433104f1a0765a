/// A set of closed polygons (contours) in plane coordinates, filled together with the nonzero
/// rule: the shape description the general fill path (``ShapeScratch/fill(clip:sink:exact:)``)
/// accumulates. Storage is reused between calls (no allocation once warm).
///
/// The vertices live in buffers the path owns through a reference (appending is a store, no
/// array uniqueness check): a copy shares them, so only one copy (the owner's) may be changed.
///
/// **Culling**: given a cull rectangle, a vertex is dropped when it and its two neighbours in
/// the contour all lie beyond the same side of the rectangle (a run of them collapses to one
/// chord). The removed loop lies wholly in that outside half-plane, so it winds no point of the
/// rectangle: coverage inside is unchanged while huge shapes keep only their visible detail.
struct ContourPath {
    /// Owns the vertex buffers (freed with it).
    private final class Buffers {
        let x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>

        init(capacity: Int) {
            x = .allocate(capacity: capacity)
            y = .allocate(capacity: capacity)
        }

        deinit {
            x.deallocate()
            y.deallocate()
        }
    }

    private var buffers: Buffers?
    private var px: UnsafeMutablePointer<Double>?, py: UnsafeMutablePointer<Double>?
    private var capacity = 0
    /// Number of vertices.
    private(set) var count = 0
    /// The vertices' x (the first ``count``).
    var xs: UnsafeBufferPointer<Double> { UnsafeBufferPointer(start: px, count: count) }
    /// The vertices' y.
    var ys: UnsafeBufferPointer<Double> { UnsafeBufferPointer(start: py, count: count) }
    /// Index of the first vertex of each contour; a contour runs to the next start.
    private(set) var starts: [Int] = []
    /// The last of ``starts`` (-1 when there is none): read per vertex without the array.
    private var lastStart = -1
    private(set) var minX = Double.infinity, minY = Double.infinity
    private(set) var maxX = -Double.infinity, maxY = -Double.infinity
    private var cullMinX = -Double.infinity, cullMinY = -Double.infinity
    private var cullMaxX = Double.infinity, cullMaxY = Double.infinity
    private var lastCode: UInt8 = 0, previousCode: UInt8 = 0
    /// The radius of the last arc and its angle step (see ``appendArc(cx:cy:r:start:sweep:)``).
    private var arcRadius = -1.0, arcAngleStep = 0.0

    /// An empty path; allocates nothing until vertices are appended.
    init() {}

    /// Reserves room for `vertices` vertices (and a few contours).
    mutating func reserve(_ vertices: Int) {
        if vertices > capacity { grow(to: vertices) }
        starts.reserveCapacity(16)
    }

    /// Moves the vertices into buffers of at least `needed` vertices.
    private mutating func grow(to needed: Int) {
        let c = Swift.max(needed, 2 * capacity, 64)
        let b = Buffers(capacity: c)
        if let px, let py {
            b.x.update(from: px, count: count)
            b.y.update(from: py, count: count)
        }
        buffers = b
        px = b.x
        py = b.y
        capacity = c
    }

    /// Empties the path; `cull` (widened by one pixel) enables culling, nil disables it.
    mutating func reset(cull: PixelRect?) {
        count = 0
        starts.removeAll(keepingCapacity: true)
        lastStart = -1
        lastCode = 0
        previousCode = 0
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        if let cull {
            cullMinX = Double(cull.x) - 1; cullMinY = Double(cull.y) - 1
            cullMaxX = Double(cull.maxX) + 1; cullMaxY = Double(cull.maxY) + 1
        } else {
            cullMinX = -.infinity; cullMinY = -.infinity; cullMaxX = .infinity; cullMaxY = .infinity
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Calls `body` with the vertices' x and y.
    func withPoints<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) -> R) -> R {
        body(xs, ys)
    }

    /// Starts a new contour (the previous one closes implicitly).
    mutating func close() {
        if lastStart == count { return }
        starts.append(count)
        lastStart = count
        lastCode = 0
        previousCode = 0
    }

    /// Starts the first contour (out of line: once per path, and ``append(_:_:)`` stays
    /// small enough to be inlined everywhere).
    @inline(never)
    private mutating func startFirstContour() {
        starts.append(0)
        lastStart = 0
    }

    /// Appends a vertex to the current contour (starting one if there is none).
    @inline(__always)
    mutating func append(_ x: Double, _ y: Double) {
        if lastStart < 0 { startFirstContour() }
        var code: UInt8 = 0
        if x < cullMinX { code |= 1 } else if x > cullMaxX { code |= 2 }
        if y < cullMinY { code |= 4 } else if y > cullMaxY { code |= 8 }
        // The buffers exist below (a vertex is stored, or room was just made), so they are
        // used without the nil test.
        if code & lastCode & previousCode != 0, count &- lastStart >= 2 {
            px.unsafelyUnwrapped[count &- 1] = x
            py.unsafelyUnwrapped[count &- 1] = y
        } else {
            if count == capacity { grow(to: count &+ 1) }
            px.unsafelyUnwrapped[count] = x
            py.unsafelyUnwrapped[count] = y
            count &+= 1
            previousCode = lastCode
        }
        lastCode = code
        // Single min/max instructions (`Swift.max`'s rule for equal values takes more; the
        // only equal values it tells apart are signed zeros, which the box rounds alike).
        minX = Swift.min(minX, x); maxX = CoverageAccumulator.larger(x, maxX)
        minY = Swift.min(minY, y); maxY = CoverageAccumulator.larger(y, maxY)
    }

    /// Starts the first contour if there is none (what ``append(_:_:)`` does before its
    /// first vertex), so that ``appendWithin(_:_:)`` may follow.
    mutating func openContour() {
        if lastStart < 0 { startFirstContour() }
    }

    /// ``append(_:_:)`` for a vertex that lies within the cull rectangle, appended to a current
    /// contour (one exists) whose vertices all lie within it: nothing would be culled, so
    /// there is no culling test (the codes of the contour's last two vertices stay 0).
    @inline(__always)
    mutating func appendWithin(_ x: Double, _ y: Double) {
        if count == capacity { grow(to: count &+ 1) }
        px.unsafelyUnwrapped[count] = x
        py.unsafelyUnwrapped[count] = y
        count &+= 1
        minX = Swift.min(minX, x); maxX = CoverageAccumulator.larger(x, maxX)
        minY = Swift.min(minY, y); maxY = CoverageAccumulator.larger(y, maxY)
    }

    /// Vertices appended through pointers by a loop that keeps the path's count and box in
    /// registers (``writer(room:)``, ``finish(_:)``): what ``appendWithin(_:_:)`` does, with
    /// the room checked once per run instead of per vertex.
    struct Writer {
        fileprivate let x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>
        fileprivate var count: Int
        fileprivate var minX: Double, minY: Double, maxX: Double, maxY: Double

        /// Appends a vertex (at most the room the writer was made with, in all).
        @inline(__always)
        mutating func put(_ px: Double, _ py: Double) {
            x[count] = px
            y[count] = py
            count &+= 1
            minX = Swift.min(minX, px); maxX = CoverageAccumulator.larger(px, maxX)
            minY = Swift.min(minY, py); maxY = CoverageAccumulator.larger(py, maxY)
        }
    }

    /// A writer for up to `room` vertices appended to the current contour on the terms of
    /// ``appendWithin(_:_:)`` (a contour exists; they and its vertices lie within the cull
    /// rectangle). The path is unchanged until ``finish(_:)``, and must not be appended to
    /// in between.
    @inline(__always)
    mutating func writer(room: Int) -> Writer {
        if count &+ room > capacity { grow(to: count &+ room) }
        return Writer(x: px.unsafelyUnwrapped, y: py.unsafelyUnwrapped, count: count,
                      minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// Takes the vertices `w` appended (from ``writer(room:)``).
    @inline(__always)
    mutating func finish(_ w: Writer) {
        count = w.count
        minX = w.minX; minY = w.minY; maxX = w.maxX; maxY = w.maxY
    }

    /// Whether the box `minX...maxX` x `minY...maxY` lies within the cull rectangle (always
    /// without culling): then no vertex inside it is ever culled.
    func boxWithinCull(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        minX >= cullMinX && minY >= cullMinY && maxX <= cullMaxX && maxY <= cullMaxY
    }

    /// Appends `n` vertices to the current contour (which must exist: ``close()`` was called)
    /// that lie within the cull rectangle, as do the contour's vertices before them: `write`
    /// stores them through the two pointers (x and y of the first new vertex) and returns their
    /// bounds `(minX, minY, maxX, maxY)`. What ``append(_:_:)`` does for each, without the
    /// culling tests.
    mutating func appendWithinCull(count n: Int,
                                   _ write: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>)
                                       -> (Double, Double, Double, Double)) {
        if count + n > capacity { grow(to: count + n) }
        let (x0, y0, x1, y1) = write(px! + count, py! + count)
        count += n
        minX = Swift.min(minX, x0); maxX = Swift.max(maxX, x1)
        minY = Swift.min(minY, y0); maxY = Swift.max(maxY, y1)
    }

    /// How far (x, y) lies beyond the cull rectangle: the largest distance past one of its
    /// sides, or a value <= 0 when the point is within it (always <= 0 without culling). A
    /// curve moving at most this far stays beyond that side, so its vertices there are culled.
    @inline(__always)
    func distanceBeyondCull(_ x: Double, _ y: Double) -> Double {
        Swift.max(Swift.max(cullMinX - x, x - cullMaxX), Swift.max(cullMinY - y, y - cullMaxY))
    }

    /// Reverses the vertex order of the last contour (its orientation, hence its winding sign).
    mutating func reverseLastContour() {
        guard let s = starts.last, count - s >= 2, let px, let py else { return }
        var x = UnsafeMutableBufferPointer(start: px + s, count: count - s)
        var y = UnsafeMutableBufferPointer(start: py + s, count: count - s)
        x.reverse()
        y.reverse()
    }

    /// Appends the arc of radius `r` around (cx, cy) from angle `start` through
    /// `start + sweep` (radians, either sign), end points included and exactly on the circle,
    /// interior vertices on the balanced radius of ``PolygonFlattener``. The interior vertices
    /// are found by rotating the start direction by the step (one sine and cosine per arc
    /// instead of per vertex; the drift over an arc is a few ulps); the step of the last
    /// radius is kept, since strokes draw many arcs of one radius.
    mutating func appendArc(cx: Double, cy: Double, r: Double, start: Double, sweep: Double) {
        guard r > 0 else { append(cx, cy); return }
        if r != arcRadius {
            arcRadius = r
            arcAngleStep = PolygonFlattener.angleStep(radius: r)
        }
        let n = Swift.max(1, Int((abs(sweep) / arcAngleStep).rounded(.up)))
        let step = sweep / Double(n)
        append(cx + r * RasterMath.cosine(start), cy + r * RasterMath.sine(start))
        if n > 1 {
            let rb = PolygonFlattener.balancedRadius(r, step: abs(step))
            let cs = RasterMath.cosine(step), sn = RasterMath.sine(step)
            var c = RasterMath.cosine(start + step), s = RasterMath.sine(start + step)
            for i in 1..<n {
                append(cx + rb * c, cy + rb * s)
                if i + 1 < n { (c, s) = (c * cs - s * sn, s * cs + c * sn) }
            }
        }
        let end = start + sweep
        append(cx + r * RasterMath.cosine(end), cy + r * RasterMath.sine(end))
    }

    /// Adds every contour's edges (each closed) to the accumulator's current band.
    func addEdges(to acc: CoverageAccumulator) {
        var none = NoCellObserver()
        addEdges(to: acc, observer: &none)
    }

    /// ``addEdges(to:)`` for a path whose vertices all lie inside the accumulator's band
    /// (``CoverageAccumulator/addInteriorPolygon(xs:ys:count:)``: no clipping; the same
    /// deposits as ``addEdges(to:)`` gives such a path).
    func addInteriorEdges(to acc: CoverageAccumulator) {
        guard let px, let py else { return }
        for c in 0..<starts.count {
            let s = starts[c], e = c + 1 < starts.count ? starts[c + 1] : count
            acc.addInteriorPolygon(xs: px + s, ys: py + s, count: e - s)
        }
    }

    /// The edge numbered `id` by ``addEdges(to:observer:)``: the one ending at vertex
    /// `id - 1`, from the vertex before it (from the contour's last vertex when it is the
    /// contour's first).
    func edge(_ id: UInt32) -> (Double, Double, Double, Double) {
        let v = Int(id) - 1
        var from = v - 1
        // The contour starting at v, if any (binary search).
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        if lo < starts.count && starts[lo] == v {
            from = (lo + 1 < starts.count ? starts[lo + 1] : count) - 1
        }
        return (px![from], py![from], px![v], py![v])
    }

    /// Adds the edges of `runs` (``EdgeBands``: one band's edges, in ascending order) to the
    /// accumulator's band, reporting them to `o` with the numbers ``addEdges(to:observer:)``
    /// gives them.
    func addEdges<O: CellObserver>(_ runs: UnsafeBufferPointer<EdgeBands.Run>, to acc: CoverageAccumulator,
                                   observer o: inout O) {
        guard let px, let py else { return }
        for run in runs {
            let s = starts[run.contour]
            let e = run.contour + 1 < starts.count ? starts[run.contour + 1] : count
            let first = UInt32(s + 1), last = UInt32(e)
            let from = run.lo == s ? e - 1 : run.lo - 1
            var ax = px[from], ay = py[from]
            var i = run.lo
            while i < run.hi {
                let bx = px[i], by = py[i]
                let id = UInt32(truncatingIfNeeded: i &+ 1)
                if o.edge(id, first: first, last: last, ax, ay, bx, by) {
                    acc.addEdge(ax, ay, bx, by, observer: &o)
                } else {
                    acc.addEdge(ax, ay, bx, by, observer: &o.quiet)
                }
                ax = bx
                ay = by
                i &+= 1
            }
        }
    }

    /// ``addEdges(to:)`` reporting the walk to `o`: edges are numbered from 1 contour by
    /// contour, each by its end vertex (the edge ending at vertex `i` is `i + 1`; a contour's
    /// closing edge, from its last vertex to its first, comes first; a contour of one vertex
    /// has no edge but keeps its number).
    func addEdges<O: CellObserver>(to acc: CoverageAccumulator, observer o: inout O) {
        let n = count
        guard n >= 2, let px, let py else { return }
        var id: UInt32 = 1
        for c in 0..<starts.count {
            let s = starts[c], e = c + 1 < starts.count ? starts[c + 1] : n
            guard e - s >= 2 else {
                id &+= UInt32(e - s)
                continue
            }
            let first = id, last = id + UInt32(e - s - 1)
            var ax = px[e - 1], ay = py[e - 1]
            for i in s..<e {
                let bx = px[i], by = py[i]
                if o.edge(id, first: first, last: last, ax, ay, bx, by) {
                    acc.addEdge(ax, ay, bx, by, observer: &o)
                } else {
                    acc.addEdge(ax, ay, bx, by, observer: &o.quiet)
                }
                id &+= 1
                ax = bx
                ay = by
            }
        }
    }
}
