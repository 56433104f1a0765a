/// The convex hull of a few points: the marker's sweep from one nib to the next.
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

    /// The z component of (b - a) x (c - a).
    private static func cross(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
