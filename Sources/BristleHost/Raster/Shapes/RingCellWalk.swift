/// The cell walk of a ring lying inside the accumulator's band: the deposits
/// ``CoverageAccumulator/addInteriorPolygon(xs:ys:count:)`` makes for each of the ring's
/// contours, bit for bit (the same `Double` and `Float` operations on every cell, the edges in
/// the same order), without the tests the ring's shape settles in advance.
///
/// Each contour is convex (``EllipseFlattener``'s mirrored quadrants), so from its topmost
/// vertex to its bottommost the edges go down and from there back up: the walk takes the two
/// from the contour's layout (``EllipseFlattener/extremes(quadrantVertices:reversed:)``) and
/// runs each stretch with its direction fixed (no choice of end points per edge). The
/// vertices lie inside the band (the caller checks the path's bounds), so the general walk's
/// clamps into it change nothing and are left out. Horizontal edges deposit nothing, as there.
enum RingCellWalk {
    /// Adds the closed contour of `count` vertices `(xs[i], ys[i])` (plane coordinates, all
    /// within the band of `acc`, whose plane origin is `(originX, originY)`), as
    /// ``CoverageAccumulator/addInteriorPolygon(xs:ys:count:)`` does. Requires y to be
    /// non-decreasing from vertex `top` to vertex `bottom` and non-increasing from `bottom`
    /// round to `top` (a convex contour's topmost and bottommost vertices).
    static func addContour(xs px: UnsafePointer<Double>, ys py: UnsafePointer<Double>, count n: Int,
                           top: Int, bottom: Int, to acc: CoverageAccumulator, originX: Int, originY: Int) {
        guard n >= 2 else { return }
        let walk = Walk(cells: acc.cells, stride: acc.stride, height: acc.height,
                        originX: Double(originX), originY: Double(originY))
        // The edges ending at the vertices after the top up to the bottom go down, the others
        // up (or are level).
        let firstDown = bottom < top
        let first = (firstDown ? bottom : top) &+ 1, second = (firstDown ? top : bottom) &+ 1
        if firstDown {
            walk.edges(px, py, from: 0, to: first, previous: n &- 1, Down.self)
            walk.edges(px, py, from: first, to: second, previous: first &- 1, Up.self)
            walk.edges(px, py, from: second, to: n, previous: second &- 1, Down.self)
        } else {
            walk.edges(px, py, from: 0, to: first, previous: n &- 1, Up.self)
            walk.edges(px, py, from: first, to: second, previous: first &- 1, Down.self)
            walk.edges(px, py, from: second, to: n, previous: second &- 1, Up.self)
        }
    }

    /// Adds every contour of `path` (convex, its vertices anywhere) to the band of `acc`, whose
    /// plane origin is `(originX, originY)`, as ``ContourPath/addEdges(to:)`` does: an edge
    /// with both ends inside the band (and not both on its right side, which that walk drops)
    /// by the ring walk, any other by ``CoverageAccumulator/addEdge(_:_:_:_:)`` with its
    /// clipping, in the path's order. Each contour's topmost and bottommost vertex are found
    /// by a pass over it (culling leaves a convex contour convex, not the mirrored layout).
    static func addClipped(_ path: ContourPath, to acc: CoverageAccumulator, originX: Int, originY: Int) {
        guard let px = path.xs.baseAddress, let py = path.ys.baseAddress else { return }
        let walk = Walk(cells: acc.cells, stride: acc.stride, height: acc.height,
                        originX: Double(originX), originY: Double(originY))
        let starts = path.starts, count = path.count
        for c in 0..<starts.count {
            let s = starts[c], n = (c &+ 1 < starts.count ? starts[c &+ 1] : count) &- s
            guard n >= 2 else { continue }
            let xs = px + s, ys = py + s
            var top = 0, bottom = 0
            var i = 1
            while i < n {
                if ys[i] < ys[top] { top = i }
                if ys[i] > ys[bottom] { bottom = i }
                i &+= 1
            }
            let firstDown = bottom < top
            let first = (firstDown ? bottom : top) &+ 1, second = (firstDown ? top : bottom) &+ 1
            if firstDown {
                walk.clippedEdges(xs, ys, from: 0, to: first, previous: n &- 1, Down.self, acc)
                walk.clippedEdges(xs, ys, from: first, to: second, previous: first &- 1, Up.self, acc)
                walk.clippedEdges(xs, ys, from: second, to: n, previous: second &- 1, Down.self, acc)
            } else {
                walk.clippedEdges(xs, ys, from: 0, to: first, previous: n &- 1, Up.self, acc)
                walk.clippedEdges(xs, ys, from: first, to: second, previous: first &- 1, Down.self, acc)
                walk.clippedEdges(xs, ys, from: second, to: n, previous: second &- 1, Up.self, acc)
            }
        }
    }

    /// A stretch's direction, a type so that each direction's walk is compiled apart (no test
    /// of it per edge).
    private protocol Direction { static var down: Bool { get } }
    private enum Down: Direction { static var down: Bool { true } }
    private enum Up: Direction { static var down: Bool { false } }

    /// The band's cells and geometry, read once per path.
    private struct Walk {
        let cells: UnsafeMutablePointer<Float>
        let stride: Int
        let height: Int
        let originX: Double, originY: Double

        /// The edges ending at vertices `from ..< to` (the first from vertex `previous`), all
        /// going down (`D` is ``Down``) or all up, or level. Out of line: one copy of the walk
        /// per direction, the cell code inlined into it (inlined three times, two were left as
        /// calls per edge).
        @inline(never)
        func edges<D: Direction>(_ px: UnsafePointer<Double>, _ py: UnsafePointer<Double>, from: Int, to: Int,
                                 previous: Int, _: D.Type) {
            guard from < to else { return }
            var ax = px[previous] - originX, ay = py[previous] - originY
            let down = D.down, dir: Double = down ? 1 : -1
            var i = from
            while i < to {
                let bx = px[i] - originX, by = py[i] - originY
                if ay != by {
                    edge(down ? ax : bx, down ? ay : by, down ? bx : ax, down ? by : ay, dir)
                }
                ax = bx
                ay = by
                i &+= 1
            }
        }

        /// ``edges(_:_:from:to:previous:_:)`` for a contour that may reach outside the band
        /// (`acc`'s): edges with an end outside it, or both ends on its right side, go through
        /// the accumulator's clipping walk (plane coordinates).
        @inline(never)
        func clippedEdges<D: Direction>(_ px: UnsafePointer<Double>, _ py: UnsafePointer<Double>, from: Int,
                                        to: Int, previous: Int, _: D.Type, _ acc: CoverageAccumulator) {
            guard from < to else { return }
            let w = Double(acc.width), h = Double(height)
            @inline(__always) func inside(_ x: Double, _ y: Double) -> Bool {
                x >= 0 && x <= w && y >= 0 && y <= h
            }
            var ax = px[previous] - originX, ay = py[previous] - originY
            var aIn = inside(ax, ay)
            let down = D.down, dir: Double = down ? 1 : -1
            var i = from
            while i < to {
                let bx = px[i] - originX, by = py[i] - originY
                let bIn = inside(bx, by)
                if aIn && bIn && (ax < w || bx < w) {
                    if ay != by {
                        edge(down ? ax : bx, down ? ay : by, down ? bx : ax, down ? by : ay, dir)
                    }
                } else {
                    let p = i == from ? previous : i &- 1
                    acc.addEdge(px[p], py[p], px[i], py[i])
                }
                ax = bx
                ay = by
                aIn = bIn
                i &+= 1
            }
        }

        /// The accumulator's deposits for an edge from (x0, y0) down to (x1, y1) inside the
        /// band (`y0 < y1`); `dir` +1 for an edge going down in the contour, -1 for one going up.
        @inline(__always)
        func edge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Double) {
            var none = NoCellObserver()
            CoverageAccumulator.accumulate(x0, y0, x1, y1, dir, cells: cells, stride: stride, height: height, &none)
        }
    }
}
