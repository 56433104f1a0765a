/// The convex hull of a few points, and a point-in-hull test, for the marker's sweeps.
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

    /// True when (x, y) is inside the hull or on its boundary.
    static func contains(_ hull: [(x: Double, y: Double)], x: Double, y: Double) -> Bool {
        for i in hull.indices {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            if cross(a, b, (x, y)) < 0 { return false }
        }
        return true
    }

    /// The subsample columns `k` (at x = (k + 0.5) / 4) within `columns` whose points at height
    /// `y` lie inside the hull or on its boundary, or nil when there are none. Exactly the
    /// columns `contains` accepts: the line's crossing with the hull only seeds the search, and
    /// the run's ends are then moved by `contains` itself (the inside columns are one run, as
    /// the hull is convex).
    static func run(_ hull: [(x: Double, y: Double)], y: Double, columns: ClosedRange<Int>) -> ClosedRange<Int>? {
        var low = Double.infinity, high = -Double.infinity
        for i in hull.indices {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            guard min(a.y, b.y) <= y, y <= max(a.y, b.y) else { continue }
            let x = a.y == b.y ? a.x : a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
            let other = a.y == b.y ? b.x : x
            low = min(low, x, other)
            high = max(high, x, other)
        }
        guard low <= high else { return nil }
        func inside(_ k: Int) -> Bool { contains(hull, x: (Double(k) + 0.5) / 4, y: y) }
        func column(_ x: Double) -> Int { Int(max(Double(columns.lowerBound - 1), min(Double(columns.upperBound + 1), (x * 4 - 0.5).rounded()))) }
        var first = column(low), last = column(high)
        while first > columns.lowerBound, inside(first - 1) { first -= 1 }
        while first <= last, first <= columns.upperBound, !inside(first) { first += 1 }
        while last < columns.upperBound, inside(last + 1) { last += 1 }
        while last >= first, last >= columns.lowerBound, !inside(last) { last -= 1 }
        first = max(first, columns.lowerBound)
        last = min(last, columns.upperBound)
        guard first <= last, inside(first) else { return nil }
        return first...last
    }

    /// The z component of (b - a) x (c - a).
    private static func cross(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
