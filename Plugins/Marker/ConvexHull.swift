/// The convex hull of a few points, and its runs of inside subsamples, for the marker's sweeps.
enum ConvexHull {
    /// The hull's corners in counter-clockwise order (y down: clockwise on screen), without
    /// collinear points (Andrew's monotone chain). Fewer than 3 corners means no area.
    static func of(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count >= 3 else { return sorted }
        func chain(_ list: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
            var out: [(x: Double, y: Double)] = []
            for p in list {
                while out.count >= 2, cross(out[out.count - 2], out[out.count - 1], p) <= 0 { out.removeLast() }
                out.append(p)
            }
            return out
        }
        let lower = chain(sorted), upper = chain(sorted.reversed())
        return Array(lower.dropLast()) + Array(upper.dropLast())
    }

    /// The subsample columns `k` (at x = (k + 0.5) / 4) within `columns` whose points at height
    /// `y` lie inside the hull or on its boundary, or nil when there are none.
    ///
    /// A point is inside when every edge (a, b) has `cross(a, b, p) >= 0`. Along a row that value is monotone
    /// in x for each edge (in floating point too: x - a.x, the product by the edge's dy and the
    /// subtraction from a constant all keep the order), so each edge accepts a prefix or a
    /// suffix of the columns, and the hull's run is their intersection. Each edge's end is
    /// estimated from where the edge crosses the row, then settled with that edge's own test.
    static func run(_ edges: [Edge], y: Double, columns: ClosedRange<Int>) -> ClosedRange<Int>? {
        var first = columns.lowerBound, last = columns.upperBound
        for e in edges {
            // cross(a, b, p) written out with the same operations, so the same bits.
            let dyRow = y - e.ay, t = e.dx * dyRow
            @inline(__always) func accepts(_ k: Int) -> Bool { t - e.dy * ((Double(k) + 0.5) / 4 - e.ax) >= 0 }
            if e.dy > 0 {
                // Accepted left of the crossing; binding only if it refuses the last column.
                if accepts(last) { continue }
                var k = estimate(e.ax + e.dx * dyRow / e.dy, first - 1, last)
                while k >= first, !accepts(k) { k -= 1 }
                while k < last, accepts(k + 1) { k += 1 }
                last = k
            } else if e.dy < 0 {
                // Accepted right of the crossing; binding only if it refuses the first column.
                if accepts(first) { continue }
                var k = estimate(e.ax + e.dx * dyRow / e.dy, first - 1, last) + 1
                while k <= last, !accepts(k) { k += 1 }
                while k > first, accepts(k - 1) { k -= 1 }
                first = k
            } else if !accepts(first) {
                return nil  // a horizontal edge gives every column the same answer
            }
            if first > last { return nil }
        }
        return first...last
    }

    /// One edge (a, b) of a hull, as ``run(_:y:columns:)`` uses it.
    struct Edge {
        let ax: Double, ay: Double, dx: Double, dy: Double
    }

    /// The edges of `hull`, each corner to the next.
    static func edges(of hull: [(x: Double, y: Double)]) -> [Edge] {
        hull.indices.map { i in
            let a = hull[i], b = hull[(i + 1) % hull.count]
            return Edge(ax: a.x, ay: a.y, dx: b.x - a.x, dy: b.y - a.y)
        }
    }

    /// The column just left of where the row crosses an edge at `x`, clamped to `low...high`.
    @inline(__always)
    private static func estimate(_ x: Double, _ low: Int, _ high: Int) -> Int {
        let k = (x * 4 - 0.5).rounded(.down)
        return k.isNaN ? low : Int(max(Double(low), min(Double(high), k)))
    }

    /// The z component of (b - a) x (c - a).
    private static func cross(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
