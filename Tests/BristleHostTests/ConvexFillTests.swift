@testable import BristleHost
import Testing

/// Polygon fills (`drawPolyline` with no style: `mask_polyline` / `draw_polyline` with a NULL
/// style) send convex polygons through ``ConvexScanner``. The convexity test must accept every
/// convex polygon and refuse everything else, and the convex path must give the general
/// path's coverage.
@Suite struct ConvexFillTests {
    private func path(_ points: [(Double, Double)]) -> ContourPath {
        var p = ContourPath()
        p.reset(cull: nil)
        for (x, y) in points { p.append(x, y) }
        return p
    }

    @Test func convexPolygonsInEitherOrientationAreConvex() {
        let shapes: [[(Double, Double)]] = [
            [(0, 0), (10, 0), (10, 10), (0, 10)],
            [(3.25, 4.5), (20.73, 2.1), (12.5, 27.9)],
            [(0, 0), (5, 0), (10, 0), (10, 10), (0, 10)],        // a straight turn
            [(0, 0), (10, 0), (10, 10), (10, 10), (0, 10)],      // a repeated point
            [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)],        // the first point repeated last
        ]
        for s in shapes {
            #expect(path(s).isConvex, "\(s)")
            #expect(path(s.reversed()).isConvex, "\(s) reversed")
        }
    }

    @Test func otherPolygonsAreNotConvex() {
        let shapes: [[(Double, Double)]] = [
            [(0, 0), (10, 0), (5, 3), (10, 10), (0, 10)],                    // concave
            [(0, 0), (20, 0), (4, 12), (10, -6), (16, 12)],                  // a pentagram: winds twice
            [(0, 0), (10, 10), (10, 0), (0, 10)],                            // a bow tie
            [(0, 0), (10, 0)],                                               // no area
            [(0, 0), (10, 0), (20, 0)],                                      // collinear
            [(0, 0), (10, .nan), (0, 10)],
        ]
        for s in shapes {
            #expect(!path(s).isConvex, "\(s)")
            #expect(!path(s.reversed()).isConvex, "\(s) reversed")
        }
        var two = path([(0, 0), (10, 0), (10, 10)])
        two.close()
        for (x, y) in [(20.0, 20.0), (30.0, 20.0), (30.0, 30.0)] { two.append(x, y) }
        #expect(!two.isConvex, "two contours")
    }

    /// Hulls of random points (the marker's nib sweeps are such hulls), clipped or not, filled
    /// through the convex path and through the general accumulator: the same coverage, within
    /// one level where the two sum the same areas in another order.
    @Test func theConvexPathGivesTheGeneralPathsCoverage() {
        var random = SplitMix(seed: 11)
        let scratch = ShapeScratch()
        var worst = 0
        for round in 0..<300 {
            let n = 3 + Int(random.next() % 8)
            let spread = round % 3 == 0 ? 80.0 : 25.0
            let points = (0..<n).map { _ in (random.unit() * spread - 10, random.unit() * spread - 10) }
            let hull = Self.hull(points)
            guard hull.count >= 3 else { continue }
            let convex = ShapeMask(48, 40), general = ShapeMask(48, 40)
            scratch.path = path(hull)
            #expect(scratch.path.isConvex)
            let a = ConvexScanner.fill(scratch.path, clip: convex.plane.bounds, sink: .mask(convex.plane), scratch: scratch)
            let b = scratch.fill(clip: general.plane.bounds, sink: .mask(general.plane))
            #expect(a == b, "dirty rects \(a) \(b) for \(hull)")
            for (p, q) in zip(convex.values, general.values) { worst = max(worst, abs(Int(p) - Int(q))) }
        }
        #expect(worst <= 1, "largest difference \(worst)")
    }

    /// The polygon service uses the convex path: a hull drawn through `drawPolyline` with no
    /// style equals ``ConvexScanner``'s fill byte for byte.
    @Test func thePolygonServiceFillsAConvexPolygonWithTheConvexScanner() {
        let hull: [(x: Double, y: Double)] = [(4.3, 2.2), (30.1, 6.7), (26.5, 31.2), (8.8, 27.4), (1.5, 14.9)]
        let service = ShapeMask(40, 40), scanner = ShapeMask(40, 40)
        _ = Rasterizer().drawPolyline(hull, style: nil, target: .mask(service.plane))
        let scratch = ShapeScratch()
        scratch.path = path(hull.map { ($0.x, $0.y) })
        _ = ConvexScanner.fill(scratch.path, clip: scanner.plane.bounds, sink: .mask(scanner.plane), scratch: scratch)
        #expect(service.values == scanner.values)
        #expect(service.values.contains(255) && service.values.contains { $0 > 0 && $0 < 255 })
    }

    /// Andrew's monotone chain (counter-clockwise in y-up terms), without collinear points.
    static func hull(_ points: [(Double, Double)]) -> [(Double, Double)] {
        let s = points.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        func cross(_ o: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
            (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
        }
        func chain(_ list: [(Double, Double)]) -> [(Double, Double)] {
            var out: [(Double, Double)] = []
            for p in list {
                while out.count >= 2, cross(out[out.count - 2], out[out.count - 1], p) <= 0 { out.removeLast() }
                out.append(p)
            }
            return out
        }
        return Array(chain(s).dropLast()) + Array(chain(s.reversed()).dropLast())
    }
}

/// A small seeded generator for the tests above.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
