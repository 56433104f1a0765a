import CBristleMath
import Testing
@testable import BristleHost

// The windowed resolve (the cell walk records each row's two windows, ``RowWindows``; the
// resolve reads only them) against the general resolve that reads every cell, pixel for pixel:
// random capsules at extreme sub-pixel positions, tiny and wide, inside, near and across the
// canvas edges, as ``Rasterizer`` draws them (the interior walk or the clipping one), and a few
// non-convex polygons.

@Suite("RowWindows: the windowed resolve") struct RowWindowsTests {
    static let width = 41, height = 29

    /// A coordinate near the canvas (margin 12 px beyond each side) with an extreme fraction
    /// half the time: on a pixel edge, a hair either side of it, or the centre.
    static func coordinate(_ rng: inout SplitMix64, size: Int) -> Double {
        let whole = (Double(size) + 24) * rng.unit() - 12
        let fractions = [0, 1e-9, -1e-9, 0x1p-40, 0.5, 1 - 0x1p-30, 0.25]
        guard rng.next() & 1 == 0 else { return whole }
        return whole.rounded(.down) + fractions[Int(rng.next() % UInt64(fractions.count))]
    }

    /// A diameter: tiny (below a thousandth of a pixel), thin, ordinary or wider than the canvas.
    static func diameter(_ rng: inout SplitMix64) -> Double {
        switch rng.next() % 4 {
        case 0: return 1e-3 * rng.unit() + 1e-6
        case 1: return 0.5 * rng.unit()
        case 2: return 2 + 18 * rng.unit()
        default: return 60 * rng.unit()
        }
    }

    /// The rows of `polygon` resolved both ways over `box` (one band of ``Rasterizer``'s render,
    /// `interior` choosing the walk), compared: the mask written with max from zero and
    /// the pixels composited over grey by the windowed resolves against the general resolve's
    /// coverage, the columns they return, and the cells left zero.
    static func compare(_ flattener: PolygonFlattener, box: PixelRect, interior: Bool, _ what: String) {
        let acc = CoverageAccumulator(), spans = CoverageSpans()
        let x0 = Int(box.x), y0 = Int(box.y), w = Int(box.width), h = Int(box.height)
        /// Accumulates the polygon afresh, recording its windows when `windowed`.
        @discardableResult func walk(windowed: Bool) -> RowWindows? {
            acc.begin(originX: x0, originY: y0, width: w, height: h)
            let windows = windowed ? acc.rowWindows() : nil
            let (xs, ys, n) = (UnsafePointer(flattener.xs), UnsafePointer(flattener.ys), flattener.count)
            switch (windows, interior) {
            case (var o?, true): acc.addInteriorPolygon(xs: xs, ys: ys, count: n, observer: &o)
            case (var o?, false): acc.addPolygon(xs: xs, ys: ys, count: n, observer: &o)
            case (nil, true): acc.addInteriorPolygon(xs: xs, ys: ys, count: n)
            case (nil, false): acc.addPolygon(xs: xs, ys: ys, count: n)
            }
            return windows
        }
        walk(windowed: false)
        var expected: [[UInt8]] = [], columns: [(lo: Int, hi: Int)] = []
        for r in 0..<h {
            let span = spans.resolve(row: r, of: acc, rule: .nonZero)
            expected.append(Array(UnsafeBufferPointer(start: spans.coverage, count: w)))
            columns.append(span.lo < span.hi ? span : (w, 0))
        }
        let source = SpanCompositor.Source(Paint(color: RGBAColor(red: 0.2, green: 0.6, blue: 0.9)))
        let table = OverTable()
        let over = SpanCompositor.OverPixel(source, table: table.prepare(source))
        let grey: UInt32 = 0xFF80_8080
        // Max into a mask holding earlier values (a pattern below 255), the row's end its room.
        let maskWindows = walk(windowed: true)!
        var failures = 0
        for r in 0..<h where failures < 3 {
            let before = (0..<w).map { UInt8(($0 &* 37 &+ r &* 11) % 97) }
            var mask = before
            let span = mask.withUnsafeMutableBufferPointer {
                CoverageSpans.resolveMax(rows: 1, cells: acc.row(r), cellStride: acc.stride, width: w,
                                         bounds: maskWindows.bounds + 4 &* r, into: $0.baseAddress!,
                                         maskStride: w, room: w)
            }
            let want = zip(expected[r], before).map { Swift.max($0, $1) }
            let got = span.lo < span.hi ? (span.lo, span.hi) : (w, 0)
            let zeroed = (0..<(w + 2)).allSatisfy { acc.row(r)[$0] == 0 }
            if mask != want || got != columns[r] || !zeroed {
                failures += 1
                Issue.record("\(what), mask row \(r): \(mask) != \(want) or \(got) != \(columns[r]) or cells left")
            }
        }
        // The whole band at once (rows padded by 3 pixels, which stay grey), with its box: the
        // SSE2 resolve ``Rasterizer`` runs, the plain C one, and the SSE2 one over whole rows
        // (no windows: ``Rasterizer/denseWidth``).
        let stride = w + 3
        var wantImage = [UInt32](repeating: grey, count: stride * h)
        for r in 0..<h {
            for x in 0..<w where expected[r][x] != 0 {
                withUnsafeMutableBytes(of: &wantImage[r * stride + x]) { over.apply($0.baseAddress!, UInt32(expected[r][x])) }
            }
        }
        let covered = (0..<h).filter { columns[$0].lo < columns[$0].hi }
        let wantBox = covered.isEmpty ? [] : [covered.map { columns[$0].lo }.min()!, covered.map { columns[$0].hi }.max()!,
                                              covered.first!, covered.last!]
        for (plain, whole) in [(false, false), (true, false), (false, true)] where failures < 3 {
            let bandWindows = walk(windowed: !whole)
            var image = [UInt32](repeating: grey, count: stride * h)
            let box = image.withUnsafeMutableBytes {
                let pixels = $0.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if plain {
                    let b = CBristleResolveOver_rowsPlain(h, acc.row(0), acc.stride, w, bandWindows?.bounds, pixels,
                                                          4 * stride, source.channelLanes)
                    return (lo: b.lo, hi: b.hi, first: b.first, last: b.last)
                }
                return CoverageSpans.resolveOver(rows: h, cells: acc.row(0), cellStride: acc.stride, width: w,
                                                 bounds: bandWindows?.bounds, onto: pixels, pixelStride: 4 * stride,
                                                 colour: source.channelLanes)
            }
            let gotBox = box.first <= box.last ? [box.lo, box.hi, box.first, box.last] : []
            let zeroed = (0..<(h * (w + 2))).allSatisfy { acc.row(0)[$0] == 0 }
            if image != wantImage || gotBox != wantBox || !zeroed {
                failures += 1
                Issue.record("\(what), band of \(h) rows\(plain ? " (plain C)" : "")\(whole ? " (whole rows)" : ""): box \(gotBox) against \(wantBox), pixels \(image == wantImage), cells zeroed \(zeroed)")
            }
        }
    }

    @Test("random capsules resolve through their windows exactly as through every cell")
    func capsules() {
        var rng = SplitMix64(seed: 13)
        let canvas = PixelRect(x: 0, y: 0, width: Int32(Self.width), height: Int32(Self.height))
        let flattener = PolygonFlattener()
        var drawn = 0, interiors = 0
        for k in 0..<3000 {
            let s = TaperedSegment(x0: Self.coordinate(&rng, size: Self.width),
                                   y0: Self.coordinate(&rng, size: Self.height),
                                   x1: Self.coordinate(&rng, size: Self.width),
                                   y1: Self.coordinate(&rng, size: Self.height),
                                   width0: Self.diameter(&rng), width1: Self.diameter(&rng))
            // Short segments and discs half the time.
            let seg = rng.next() & 1 == 0 ? s : TaperedSegment(x0: s.x0, y0: s.y0, x1: s.x0 + 2 * rng.unit() - 1,
                                                               y1: s.y0 + 2 * rng.unit() - 1,
                                                               width0: s.width0, width1: s.width1)
            guard let hull = CapsuleHull(seg) else { continue }
            let box = PixelRect.covering(minX: hull.minX, minY: hull.minY, maxX: hull.maxX, maxY: hull.maxY,
                                         clip: canvas)
            guard !box.isEmpty else { continue }
            flattener.reset(cull: box)
            flattener.append(hull)
            // As ``Rasterizer``'s draw decides it.
            let interior = hull.minX >= 0 && hull.minY >= 0 && hull.maxX <= Double(Self.width)
                && hull.maxY <= Double(Self.height)
            if interior || k % 3 != 0 {
                Self.compare(flattener, box: box, interior: interior, "capsule \(k) \(seg)")
            } else {
                // As a box taller than one band is drawn: bands of 7 rows, each clipping the polygon.
                var top = Int(box.y)
                while top < Int(box.maxY) {
                    let rows = Swift.min(7, Int(box.maxY) - top)
                    let band = PixelRect(x: box.x, y: Int32(top), width: box.width, height: Int32(rows))
                    Self.compare(flattener, box: band, interior: false, "capsule \(k) \(seg), band at \(top)")
                    top += rows
                }
            }
            drawn += 1
            if interior { interiors += 1 }
        }
        // Both walks are exercised, most shapes drawn.
        #expect(drawn > 2000 && interiors > 200 && drawn - interiors > 1000, "\(drawn) drawn, \(interiors) interior")
    }

    @Test("non-convex polygons: the windows hold every written cell; the middle may hold more")
    func polygons() {
        let canvas = PixelRect(x: 0, y: 0, width: Int32(Self.width), height: Int32(Self.height))
        let shapes: [[(Double, Double)]] = [
            // A comb, a star crossing itself, and one reaching past the canvas on the left.
            [(1.5, 1.5), (39.5, 1.5), (39.5, 27.5), (30.25, 27.5), (30.25, 8), (20.75, 8), (20.75, 27.5),
             (10.5, 27.5), (10.5, 8), (5, 8), (5, 27.5), (1.5, 27.5)],
            [(20.3, 0.7), (26.1, 27.9), (3.2, 10.4), (38.8, 10.6), (14.4, 28.2)],
            [(-8.5, 3.3), (30.1, 0.2), (12.5, 14.5), (35.9, 28.7), (-3.1, 20.4)],
        ]
        let flattener = PolygonFlattener()
        for (k, points) in shapes.enumerated() {
            flattener.reset(cull: canvas)
            for p in points { flattener.append(x: p.0, y: p.1) }
            Self.compare(flattener, box: canvas, interior: false, "polygon \(k)")
        }
    }
}
