import Testing
@testable import BristleHost

// The interior cell walk (``CoverageAccumulator/addInteriorPolygon(xs:ys:count:observer:)``,
// which walks the edges in runs of one direction) against the general clipping walk
// (``CoverageAccumulator/addPolygon(xs:ys:count:observer:)``), cell for cell and bit for bit,
// with the ``RowWindows`` both record: random capsules lying inside their box at extreme sub-pixel
// positions, tiny and wide, touching the band's sides, and non-convex polygons with level edges
// and many turns.

@Suite("CoverageAccumulator: the interior walk") struct InteriorWalkTests {
    /// A coordinate in `[lo, hi]` with an extreme fraction half the time: on a pixel edge, a
    /// hair either side of it, or the centre.
    static func coordinate(_ rng: inout SplitMix64, _ lo: Double, _ hi: Double) -> Double {
        let whole = lo + (hi - lo) * rng.unit()
        let fractions = [0, 1e-9, -1e-9, 0x1p-40, 0.5, 1 - 0x1p-30, 0.25]
        guard rng.next() & 1 == 0 else { return whole }
        let v = whole.rounded(.down) + fractions[Int(rng.next() % UInt64(fractions.count))]
        return Swift.min(Swift.max(v, lo), hi)
    }

    /// The cells (as bit patterns) and the windows record the polygon leaves in a band over
    /// `box`, walked by the interior walk (`interior`) or the general one, observed or not.
    static func walk(_ xs: [Double], _ ys: [Double], box: PixelRect, interior: Bool,
                     observed: Bool) -> (cells: [UInt32], windows: [Int]) {
        let acc = CoverageAccumulator()
        let w = Int(box.width), h = Int(box.height)
        acc.begin(originX: Int(box.x), originY: Int(box.y), width: w, height: h)
        var windows = acc.rowWindows()
        xs.withUnsafeBufferPointer { px in
            ys.withUnsafeBufferPointer { py in
                let (x, y, n) = (px.baseAddress!, py.baseAddress!, xs.count)
                switch (interior, observed) {
                case (true, true): acc.addInteriorPolygon(xs: x, ys: y, count: n, observer: &windows)
                case (true, false): acc.addInteriorPolygon(xs: x, ys: y, count: n)
                case (false, true): acc.addPolygon(xs: x, ys: y, count: n, observer: &windows)
                case (false, false): acc.addPolygon(xs: x, ys: y, count: n)
                }
            }
        }
        let cells = (0..<((w + 2) * h)).map { acc.cells[$0].bitPattern }
        let record = observed ? Array(UnsafeBufferPointer(start: windows.bounds, count: 4 * h)) : []
        return (cells, record)
    }

    /// Compares the two walks of one polygon; returns whether they agree.
    @discardableResult
    static func compare(_ xs: [Double], _ ys: [Double], box: PixelRect, _ what: String) -> Bool {
        for observed in [false, true] {
            let general = walk(xs, ys, box: box, interior: false, observed: observed)
            let inner = walk(xs, ys, box: box, interior: true, observed: observed)
            if general.cells != inner.cells {
                let first = general.cells.indices.first { general.cells[$0] != inner.cells[$0] }!
                let got = Float(bitPattern: inner.cells[first]), want = Float(bitPattern: general.cells[first])
                Issue.record("\(what) (observed \(observed)): cell \(first) \(got) != \(want)")
                return false
            }
            if general.windows != inner.windows {
                Issue.record("\(what): windows \(inner.windows) != \(general.windows)")
                return false
            }
        }
        return true
    }

    @Test("random capsules inside their box: the same cells, bit for bit, and the same windows")
    func capsules() {
        var rng = SplitMix64(seed: 1307)
        let flattener = PolygonFlattener()
        var compared = 0, failures = 0
        for k in 0..<3000 where failures < 3 {
            // Tiny (a thousandth of a pixel), thin, ordinary and wide pens.
            let diameters = [1e-3 * rng.unit() + 1e-6, 0.5 * rng.unit(), 2 + 18 * rng.unit(), 60 * rng.unit()]
            let w0 = diameters[Int(rng.next() % 4)], w1 = rng.next() & 1 == 0 ? w0 : diameters[Int(rng.next() % 4)]
            let x0 = Self.coordinate(&rng, -50, 150), y0 = Self.coordinate(&rng, -50, 150)
            // Long segments, short ones and discs.
            let reach = [0.0, 1, 80][Int(rng.next() % 3)]
            let x1 = x0 + reach * (2 * rng.unit() - 1), y1 = y0 + reach * (2 * rng.unit() - 1)
            let seg = TaperedSegment(x0: x0, y0: y0, x1: x1, y1: y1, width0: w0, width1: w1)
            guard let hull = CapsuleHull(seg) else { continue }
            // The box the rasteriser draws it in (one band): the shape lies inside it.
            let box = PixelRect.covering(minX: hull.minX, minY: hull.minY, maxX: hull.maxX, maxY: hull.maxY,
                                         clip: PixelRect(x: -100, y: -100, width: 400, height: 400))
            guard !box.isEmpty else { continue }
            flattener.reset(cull: box)
            flattener.append(hull)
            let xs = Array(UnsafeBufferPointer(start: flattener.xs, count: flattener.count))
            let ys = Array(UnsafeBufferPointer(start: flattener.ys, count: flattener.count))
            // Only polygons inside the box: the interior walk's contract.
            guard xs.allSatisfy({ $0 >= Double(box.x) && $0 <= Double(box.maxX) }),
                  ys.allSatisfy({ $0 >= Double(box.y) && $0 <= Double(box.maxY) }) else { continue }
            if !Self.compare(xs, ys, box: box, "capsule \(k) \(seg)") { failures += 1 }
            compared += 1
        }
        #expect(compared > 2000, "\(compared) capsules compared")
    }

    /// Forty teeth from near the band's top to near its bottom, closed along the bottom.
    static let zigzag: [(Double, Double)] = {
        var points: [(Double, Double)] = []
        for i in 0..<40 {
            let y: Double = i % 2 == 0 ? -1.75 + 0.01 * Double(i) : 26.5 - 0x1p-30
            points.append((3.5 + Double(i), y))
        }
        return points + [(43.5, 26.9), (3.1, 26.9)]
    }()

    @Test("non-convex polygons with level edges and many turns: the same cells and windows")
    func polygons() {
        let box = PixelRect(x: 3, y: -2, width: 41, height: 29)
        let shapes: [[(Double, Double)]] = [
            // A comb (level edges, vertices on the band's top, bottom and left side; an edge along
            // the right side writes only the cells past the last pixel, which the general walk
            // drops), a zigzag, a star crossing itself.
            [(3, -2), (43.75, -2), (43.75, 27), (33.25, 27), (33.25, 6), (23.75, 6), (23.75, 27), (13.5, 27),
             (13.5, 6), (8, 6), (8, 27), (3, 27)],
            Self.zigzag,
            [(23.3, -1.3), (29.1, 25.9), (6.2, 8.4), (41.8, 8.6), (17.4, 26.2)],
        ]
        for (k, points) in shapes.enumerated() {
            #expect(Self.compare(points.map(\.0), points.map(\.1), box: box, "polygon \(k)"))
        }
    }
}
