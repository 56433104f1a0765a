@testable import BristleHost
import Foundation
import Testing

/// The exact fill of a stroke's outline (``OverlapCells``) against an independent exact
/// reference: the nonzero area of the same outline in every pixel, computed from the outline's
/// edges alone (``NonzeroTruth``), where the pieces of the outline overlap: self-crossings,
/// U-turns, tight turns on short segments, dash seams, inner-join swallowtails and edges on
/// pixel boundaries. The trouble cells' areas (before 8-bit rounding) must be within 1e-6;
/// every pixel's 8-bit coverage within its rounding of the exact area.
@Suite struct ExactStrokeFillTests {
    /// Draws into a mask with `draw`, then compares with the exact nonzero area of the outline
    /// the stroker built (left in the scratch path), on every row or on `rows` alone. `slack`:
    /// what a pixel's area may be off beyond its 8-bit rounding (the accumulator's
    /// single-precision sums along the row). Returns the trouble cells' count.
    @discardableResult
    private func check(_ label: String, width: Int = 40, height: Int = 40, rows: Set<Int>? = nil,
                       slack: Double = 2e-6, _ draw: (Rasterizer, ShapeTarget) -> PixelRect) -> Int {
        let mask = ShapeMask(width, height)
        let r = Rasterizer()
        // A stroke drawn before leaves its marks in the fill's storage (never cleared): the
        // checked one must not see them.
        let before = ShapeMask(width, height)
        _ = r.drawPolyline([(2.5, 3.5), (37.5, 36.2), (36.1, 2.9), (3.3, 35.7), (20.2, 1.5)],
                           style: StrokeStyle(width: 6, cap: .round, join: .round, dashes: [9, 2]),
                           target: .mask(before.plane))
        _ = draw(r, .mask(mask.plane))
        let s = r.shapeScratch
        let truth = NonzeroTruth(path: s.path)
        // Trouble cells: the exact areas before rounding.
        let cells = s.overlaps.troubleCells
        var maxCell = 0.0, sumCell = 0.0
        for (i, c) in cells.enumerated() where c.x < width && c.y < height && rows?.contains(c.y) != false {
            let e = abs(s.overlaps.areas[i] - truth.area(c.x, c.y))
            maxCell = max(maxCell, e)
            sumCell += e
        }
        // Every pixel: the 8-bit coverage against the exact area.
        var maxPixel = 0.0, sumPixel = 0.0, counted = 0
        let values = mask.values
        for y in 0..<height where rows?.contains(y) != false {
            for x in 0..<width {
                let t = truth.area(x, y)
                let m = Double(values[y * width + x])
                guard t > 0 || m > 0 else { continue }
                let e = abs(m - 255 * t)
                maxPixel = max(maxPixel, e)
                sumPixel += e
                counted += 1
            }
        }
        let meanCell = cells.isEmpty ? 0 : sumCell / Double(cells.count)
        print("\(label): \(cells.count) trouble cells, area error max \(maxCell) mean \(meanCell); "
              + "8-bit error max \(maxPixel)/255 mean \(sumPixel / Double(max(counted, 1)))/255 over \(counted) px")
        #expect(counted > 0, "\(label): nothing drawn")
        #expect(maxCell <= 1e-6, "\(label): trouble cell area off by \(maxCell)")
        #expect(maxPixel <= 0.5 + 255 * slack, "\(label): a pixel off its exact area by \(maxPixel)/255")
        return cells.count
    }

    private func points(_ p: [(Double, Double)]) -> [(x: Double, y: Double)] { p.map { (x: $0.0, y: $0.1) } }

    @Test func twoCrossingStrokes() {
        let n = check("crossing strokes") { r, t in
            r.drawPolyline(points([(4.3, 5.1), (34.6, 33.2), (33.9, 6.4), (5.2, 32.7)]),
                           style: StrokeStyle(width: 3.4, cap: .butt, join: .miter), target: t)
        }
        #expect(n > 0, "the crossings are not trouble")
    }

    @Test func uTurn() {
        check("U-turn") { r, t in
            r.drawPolyline(points([(4.4, 10.3), (33.7, 11.1), (5.1, 12.2)]),
                           style: StrokeStyle(width: 4.2, cap: .round, join: .round), target: t)
        }
        check("U-turn, miter") { r, t in
            r.drawPolyline(points([(4.4, 20.3), (33.7, 21.1), (5.1, 22.2)]),
                           style: StrokeStyle(width: 2.6, cap: .square, join: .miter), target: t)
        }
    }

    @Test func spiralOfSegmentsShorterThanTheWidth() {
        let spiral = (0..<70).map { i -> (Double, Double) in
            let a = Double(i) * 0.35
            let rad = 2.5 + 0.55 * a
            return (20.2 + rad * cos(a), 19.7 + rad * sin(a))
        }
        for (w, join) in [(2.5, LineJoin.round), (3.5, .miter), (1.2, .bevel), (0.6, .round)] {
            check("spiral w=\(w) \(join)") { r, t in
                r.drawPolyline(points(spiral), style: StrokeStyle(width: w, cap: .round, join: join), target: t)
            }
        }
    }

    @Test func dashedClosedRectangleSeam() {
        let n = check("dashed rectangle") { r, t in
            r.drawRect(x: 5.5, y: 6.25, width: 27, height: 21.5,
                       style: StrokeStyle(width: 3, join: .miter, dashes: [7, 3], dashPhase: 2), target: t)
        }
        #expect(n > 0, "the seam is not trouble")
        check("dashed closed polyline") { r, t in
            r.drawPolyline(points([(6.3, 7.1), (31.8, 9.4), (27.2, 30.6), (8.9, 26.2)]), closed: true,
                           style: StrokeStyle(width: 2.5, cap: .butt, join: .round, dashes: [5, 2.5, 1, 2.5]),
                           target: t)
        }
    }

    @Test func figureEight() {
        let eight = (0..<48).map { i -> (Double, Double) in
            let a = Double(i) / 48 * 2 * Double.pi
            return (20.1 + 15 * sin(a), 19.8 + 8 * sin(a) * cos(a))
        }
        check("figure eight") { r, t in
            r.drawPolyline(points(eight), closed: true, style: StrokeStyle(width: 3.3, join: .round), target: t)
        }
    }

    /// Thin ellipses' outlines (the ellipse brush's sheet's) stroked as closed polylines wider
    /// than their smallest radius of curvature (as a dashed ellipse is): the stroker's inner
    /// side folds over itself at both ends. (A solid stroke of the ellipse itself is a ring:
    /// ``ShapeAccuracyTests``.)
    @Test func thinEllipsesWithThickStrokes() {
        func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> [(x: Double, y: Double)] {
            var xs: [Double] = [], ys: [Double] = []
            _ = EllipseFlattener.polyline(into: &xs, &ys, cx: cx, cy: cy, rx: rx, ry: ry, limit: 1 << 20)
            return zip(xs, ys).map { (x: $0, y: $1) }
        }
        check("thin ellipse") { r, t in
            r.drawPolyline(ellipse(20.3, 20.1, 16.2, 0.9), closed: true,
                           style: StrokeStyle(width: 5, cap: .round, join: .round), target: t)
        }
        check("flat ellipse") { r, t in
            r.drawPolyline(ellipse(19.6, 20.4, 2.2, 15.3), closed: true,
                           style: StrokeStyle(width: 6.5, cap: .round, join: .round), target: t)
        }
    }

    @Test func innerJoinSwallowtails() {
        let zigzag = (0..<16).map { i -> (Double, Double) in (5.3 + 1.9 * Double(i), i % 2 == 0 ? 12.1 : 15.4) }
        check("swallowtails, miter") { r, t in
            r.drawPolyline(points(zigzag), style: StrokeStyle(width: 5, cap: .butt, join: .miter), target: t)
        }
        let sharp = [(4.2, 30.1), (20.3, 34.6), (6.1, 32.9), (21.7, 27.4), (9.8, 36.2)]
        check("swallowtails, bevel") { r, t in
            r.drawPolyline(points(sharp), style: StrokeStyle(width: 4.4, cap: .square, join: .bevel), target: t)
        }
    }

    /// Chains of edges that do not all cross a pixel, and chains through a contour's closing
    /// vertex (a dash's start corners, where its first edge, the start cap, meets its last):
    /// a pixel crossed only by one such chain is exact as it is accumulated, so dashes along a
    /// gentle arc of segments shorter than a pixel have no trouble cell at all; dashes folded
    /// round hairpin turns (a dash's start and end in one pixel, the chain round the closing
    /// vertex turning too far) must still be trouble, else their pixels are off by up to 97/255.
    @Test func chainsWithGapsAndThroughClosingVertices() {
        let arc = (0...36).map { i -> (Double, Double) in
            let a = Double.pi + Double(i) * 1.3 / 30
            return (36.2 + 30 * cos(a), 36.1 + 30 * sin(a))
        }
        let gentle = check("dashes along an arc") { r, t in
            r.drawPolyline(points(arc), style: StrokeStyle(width: 4, cap: .butt, join: .round, dashes: [16, 8]),
                           target: t)
        }
        #expect(gentle == 0, "dashes along a gentle arc have \(gentle) trouble cells")
        let hairpins = [(4.2, 8.1), (35.6, 9.3), (4.9, 11.2), (34.8, 13.7), (5.3, 15.1), (36.1, 20.4)]
        for (width, cap) in [(3.1, LineCap.butt), (2.2, .square), (4.6, .round)] {
            let folded = check("dashes round hairpins, w=\(width) \(cap)") { r, t in
                r.drawPolyline(points(hairpins), style: StrokeStyle(width: width, cap: cap, join: .round,
                                                                    dashes: [3.7, 1.9], dashPhase: 0.4),
                               target: t)
            }
            #expect(folded > 0, "the hairpins' folds are not trouble")
        }
    }

    /// Strokes no one chose: 40 seeded random polylines (3 to 12 points, some on pixel
    /// lines, some repeated), widths 0.3 to 9, every cap and join, a third dashed, some closed.
    @Test func seededRandomStrokes() {
        var random = SplitMix64(seed: 0xB815_71E0)
        func coordinate() -> Double {
            let v = 2 + 36 * random.unit()
            return random.unit() < 0.2 ? v.rounded() : v  // some vertices exactly on pixel lines
        }
        var trouble = 0
        for case_ in 0..<40 {
            var p: [(Double, Double)] = []
            for _ in 0..<(3 + Int(random.next() % 10)) {
                p.append(random.unit() < 0.1 && !p.isEmpty ? p[p.count - 1] : (coordinate(), coordinate()))
            }
            let caps: [LineCap] = [.round, .butt, .square], joins: [LineJoin] = [.round, .miter, .bevel]
            let cap = caps[Int(random.next() % 3)], join = joins[Int(random.next() % 3)]
            let width = 0.3 + 8.7 * random.unit()
            let dashes = random.unit() < 0.33 ? [1 + 8 * random.unit(), 0.5 + 4 * random.unit()] : []
            let closed = random.unit() < 0.25
            let style = StrokeStyle(width: width, cap: cap, join: join, miterLimit: 1 + 9 * random.unit(),
                                    dashes: dashes, dashPhase: 10 * random.unit())
            trouble += check("random \(case_): \(p.count) points w=\(width) \(cap) \(join) dashes \(dashes) closed \(closed)") { r, t in
                r.drawPolyline(points(p), closed: closed, style: style, target: t)
            }
        }
        #expect(trouble > 100, "random strokes overlap themselves: \(trouble) trouble cells")
    }

    /// A stroke whose box holds more cells than one band of the exact fill
    /// (``ShapeScratch/exactBandCells``): each band walks only the
    /// edges that reach it (``EdgeBands``), and chains, trouble cells and dash seams on the
    /// bands' sides come out as in one band. Checked on the rows around every band side and
    /// every 157th row (the reference is slow); on rows 1,100 pixels long the accumulator's
    /// single-precision running sums are off by up to 3e-6 of a pixel, hence the slack.
    @Test func strokeOverSeveralBands() {
        let size = 1100
        let bandRows = ShapeScratch.exactBandCells / (size + 2)  // the box is the whole mask
        var rows = Set(stride(from: 0, to: size, by: 157))
        for side in stride(from: bandRows, to: size, by: bandRows) { rows.formUnion((side - 2)...(side + 1)) }
        // Zig-zags across the sides, crossing themselves, dashed with seams, beyond the mask.
        let side = 475.0  // where the zig-zag turns; its long legs cross every band side
        let corners: [(Double, Double)] = [(-20, 30.3), (1120.5, side - 0.7), (6.25, side + 1.5),
                                           (1090.1, 2 * side + 0.5), (10.7, 1095.3), (1110, 12.4),
                                           (540.2, 1130),
                                           // An X in the last band, whose trouble cells ``check`` counts.
                                           (400.3, 1060.2), (700.6, 1095.1), (700.2, 1060.7), (400.9, 1095.4)]
        let zigzag = points(corners)
        let a = check("over \(size / bandRows + 1) bands, round, dashed", width: size, height: size, rows: rows,
                      slack: 1e-5) { r, t in
            r.drawPolyline(zigzag, style: StrokeStyle(width: 9.3, cap: .round, join: .round,
                                                      dashes: [230, 41], dashPhase: 17), target: t)
        }
        let b = check("over \(size / bandRows + 1) bands, miter", width: size, height: size, rows: rows,
                      slack: 1e-5) { r, t in
            r.drawPolyline(zigzag, closed: true, style: StrokeStyle(width: 5.1, cap: .butt, join: .miter),
                           target: t)
        }
        #expect(a > 0 && b > 0, "the crossings are not trouble")
    }

    /// A solid source-over paint at full opacity is composited as the exact fill's rows are
    /// resolved (``CoverageSpans/resolveOverRuns(row:of:bits:shift:minimumRun:onto:over:run:)``;
    /// rows with trouble cells through ``OverlapCells/emit(row:_:_:_:coverage:_:)``): byte for
    /// byte what the coverage of the same fill into a mask, blended pixel by pixel
    /// (``SpanCompositor/blendPixel(_:_:_:_:)``), gives. Wide strokes whose rows have long empty
    /// and long covered stretches, crossing themselves (trouble rows), dashed, clipped by the
    /// canvas, over a background of varying colour, opaque and translucent.
    @Test func solidPaintCompositedAsResolved() {
        let width = 301, height = 127
        let zigzag = points([(-30.5, 10.2), (330.1, 40.7), (-12.3, 70.9), (315.4, 118.2), (150.3, -20.6),
                             (40.2, 140.1), (290.7, 3.3)])
        let styles = [StrokeStyle(width: 23.5, cap: .round, join: .round),
                      StrokeStyle(width: 9.2, cap: .butt, join: .miter),
                      StrokeStyle(width: 14.1, cap: .square, join: .round, dashes: [60, 17], dashPhase: 5)]
        let colors = [RGBAColor(red8: 26, green8: 77, blue8: 204),
                      RGBAColor(red8: 26, green8: 77, blue8: 204, alpha8: 128),
                      RGBAColor(red8: 250, green8: 3, blue8: 90, alpha8: 7)]
        var checked = 0
        for (k, style) in styles.enumerated() {
            for color in colors {
                let paint = Paint(color: color)
                let canvas = ShapeCanvas(width, height, padding: 12)
                for y in 0..<height {
                    for x in 0..<width {
                        let a = UInt8((x * 7 + y * 3) % 256)
                        let pixel = [UInt8(x % 256) / 2, UInt8(y * 2 % 256), 40, 255].map { $0 <= a ? $0 : a }
                        for c in 0..<3 { canvas.bytes[y * canvas.stride + 4 * x + c] = pixel[c] }
                        canvas.bytes[y * canvas.stride + 4 * x + 3] = a
                    }
                }
                let background = canvas.snapshot()
                let r = Rasterizer()
                let rect = r.drawPolyline(zigzag, style: style, target: .paint(canvas.plane, paint))
                let trouble = r.shapeScratch.overlaps.troubleCells.count
                let mask = ShapeMask(width, height)
                _ = Rasterizer().drawPolyline(zigzag, style: style, target: .mask(mask.plane))
                let source = SpanCompositor.Source(paint)
                var expected = background
                for y in 0..<height {
                    for x in 0..<width where mask.bytes[y * width + x] != 0 {
                        let c = source.effective(mask.bytes[y * width + x])
                        expected.withUnsafeMutableBufferPointer { b in
                            let p = b.baseAddress! + y * canvas.stride + 4 * x
                            SpanCompositor.blendPixel(UnsafePointer(p), p, c, source)
                        }
                    }
                }
                let got = canvas.snapshot()
                let differing = zip(got, expected).filter { $0 != $1 }.count
                #expect(differing == 0, "style \(k), colour \(color): \(differing) bytes differ")
                #expect(canvas.paddingIntact, "style \(k): a padding byte changed")
                #expect(trouble > 0, "style \(k): no trouble rows")
                #expect(rect.width > 250 && rect.height > 100, "style \(k): drawn in \(rect)")
                checked += 1
            }
        }
        #expect(checked == 9)
    }

    /// The stroker appends a polyline's vertices without culling tests when its points' box,
    /// widened by as far as the outline reaches, lies within the path's cull rectangle
    /// (``ContourPath/appendWithin(_:_:)``): the same outline, vertex for vertex, contour for
    /// contour and box for box, as through ``ContourPath/append(_:_:)`` with the tests, here
    /// with the cull rectangle shrunk to the outline's own box (so nothing is culled either and
    /// the points' widened box is not within it). Every join and cap, open and closed, dashed.
    @Test func outlineAppendedWithoutCullingTestsIsTheSame() {
        let xs: [Double] = [10.5, 60.2, 25.7, 90.1, 91.3, 40.8, 12.2]
        let ys: [Double] = [12.3, 20.9, 70.4, 64.2, 15.5, 40.1, 88.6]
        var compared = 0
        for join in [LineJoin.round, .miter, .bevel] {
            for cap in [LineCap.round, .butt, .square] {
                for closed in [false, true] {
                    let style = ResolvedStroke(StrokeStyle(width: 14.5, cap: cap, join: join, miterLimit: 1.5))!
                    func outline(cull: PixelRect) -> (path: ContourPath, appendedWithin: Bool) {
                        var stroker = PolylineStroker(scratch: ShapeScratch(), style: style, rows: (-1e6, 1e6),
                                                      budget: 1 << 40)
                        stroker.path.reset(cull: cull)
                        xs.withUnsafeBufferPointer { x in
                            ys.withUnsafeBufferPointer { y in
                                stroker.stroke(x, y, count: xs.count, closed: closed, dotDirection: (1, 0))
                            }
                        }
                        return (stroker.path, stroker.within)
                    }
                    let wide = outline(cull: PixelRect(x: -500, y: -500, width: 1000, height: 1000))
                    let within = wide.path
                    let narrow = outline(cull: PixelRect.covering(minX: within.minX, minY: within.minY,
                                                                  maxX: within.maxX, maxY: within.maxY,
                                                                  clip: PixelRect(x: -500, y: -500, width: 1000, height: 1000)))
                    let tight = narrow.path
                    let label = "\(join) \(cap) closed \(closed)"
                    // The two ways compared: without culling tests (appendWithin) under the wide
                    // cull, with them (append) under the outline's own box.
                    #expect(wide.appendedWithin && !narrow.appendedWithin, "\(label): appendWithin taken \(wide.appendedWithin), \(narrow.appendedWithin)")
                    #expect(within.count > 12, "\(label): \(within.count) vertices")
                    #expect(Array(within.xs) == Array(tight.xs) && Array(within.ys) == Array(tight.ys), "\(label): vertices differ")
                    #expect(within.starts == tight.starts, "\(label): contours differ")
                    #expect([within.minX, within.minY, within.maxX, within.maxY] == [tight.minX, tight.minY, tight.maxX, tight.maxY],
                            "\(label): boxes differ")
                    compared += 1
                }
            }
        }
        #expect(compared == 18)
    }

    /// The stroker's cost guard charges each segment the visible rows its edges walk, its
    /// vertical extent widened by the half width on each side, plus 2, and fails (draws
    /// nothing) past ``PolylineStroker/budget``: exactly at the budget it still strokes.
    @Test func strokerChargesTheVisibleRowsOfEverySegment() {
        let style = ResolvedStroke(StrokeStyle(width: 10, cap: .round, join: .round))!
        let xs: [Double] = [3, 7.5, 2], ys: [Double] = [0.25, 100.5, 60]
        // Rows 0 ..< 80 visible: segment 1 walks -4.75 ... 105.5 -> 0 ... 80 (80 + 2), segment
        // 2 walks 55 ... 105.5 -> 55 ... 80 (25 + 2).
        for (budget, fails) in [(109, false), (108, true)] {
            var stroker = PolylineStroker(scratch: ShapeScratch(), style: style, rows: (0, 80), budget: budget)
            stroker.path.reset(cull: nil)
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    stroker.stroke(x, y, count: 3, closed: false, dotDirection: (1, 0))
                }
            }
            #expect(stroker.failed == fails && (stroker.path.count == 0) == fails,
                    "budget \(budget): failed \(stroker.failed), \(stroker.path.count) vertices")
        }
    }

    @Test func edgesOnPixelBoundaries() {
        check("integer rectangle, round joins") { r, t in
            r.drawRect(x: 6, y: 6, width: 24, height: 20, style: StrokeStyle(width: 2, join: .round), target: t)
        }
        check("integer dashed rectangle") { r, t in
            r.drawRect(x: 6, y: 6, width: 24, height: 20,
                       style: StrokeStyle(width: 4, join: .bevel, dashes: [4, 2]), target: t)
        }
        check("integer crossing axis lines") { r, t in
            r.drawPolyline(points([(5, 10), (30, 10), (30, 30), (12, 30), (12, 4)]),
                           style: StrokeStyle(width: 2, cap: .square, join: .miter), target: t)
        }
    }
}

/// The exact area where the winding number of a set of closed contours is not zero, per
/// pixel, from the edges alone: the pixel is cut into slabs at every edge end, every crossing
/// of two edges and every crossing of an edge with the pixel's top or bottom line; inside a
/// slab the nonzero length of a vertical line is linear, so the slab's area is that length at
/// its middle times its width. The length at the middle is the sum of the intervals between
/// consecutive edges whose middle point has a non-zero winding number, counted by casting a
/// ray through every edge. Shares nothing with the rasteriser but the outline.
struct NonzeroTruth {
    private var edges: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    init(path: ContourPath) {
        let n = path.count
        var c = 0
        while c < path.starts.count {
            let s = path.starts[c], e = c + 1 < path.starts.count ? path.starts[c + 1] : n
            if e - s >= 2 {
                for i in s..<e {
                    let j = i == s ? e - 1 : i - 1
                    edges.append((path.xs[j], path.ys[j], path.xs[i], path.ys[i]))
                }
            }
            c += 1
        }
    }

    /// Winding number at (x, y) (downward edges count +1 to their right).
    private func winding(_ x: Double, _ y: Double) -> Int {
        var w = 0
        for e in edges where (e.y0 <= y) != (e.y1 <= y) {
            let xe = e.x0 + (y - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0)
            if xe < x { w += e.y1 > e.y0 ? 1 : -1 }
        }
        return w
    }

    /// The nonzero area of pixel (px, py).
    func area(_ px: Int, _ py: Int) -> Double {
        let left = Double(px), right = left + 1, top = Double(py), bottom = top + 1
        let near = edges.filter {
            max($0.x0, $0.x1) >= left && min($0.x0, $0.x1) <= right
                && max($0.y0, $0.y1) >= top && min($0.y0, $0.y1) <= bottom
        }
        if near.isEmpty { return winding(left + 0.5, top + 0.5) != 0 ? 1 : 0 }
        var breaks = [left, right]
        func add(_ x: Double) { if x > left && x < right { breaks.append(x) } }
        for (i, a) in near.enumerated() {
            add(a.x0)
            add(a.x1)
            if a.y0 != a.y1 {
                for y in [top, bottom] where (a.y0 - y) * (a.y1 - y) < 0 {
                    add(a.x0 + (y - a.y0) * (a.x1 - a.x0) / (a.y1 - a.y0))
                }
            }
            for b in near[(i + 1)...] {
                // Intersection of the two segments (parametric).
                let d = (a.x1 - a.x0) * (b.y1 - b.y0) - (a.y1 - a.y0) * (b.x1 - b.x0)
                guard d != 0 else { continue }
                let t = ((b.x0 - a.x0) * (b.y1 - b.y0) - (b.y0 - a.y0) * (b.x1 - b.x0)) / d
                let u = ((b.x0 - a.x0) * (a.y1 - a.y0) - (b.y0 - a.y0) * (a.x1 - a.x0)) / d
                if t > 0 && t < 1 && u > 0 && u < 1 { add(a.x0 + t * (a.x1 - a.x0)) }
            }
        }
        breaks.sort()
        var total = 0.0
        for k in 0..<(breaks.count - 1) {
            let a = breaks[k], b = breaks[k + 1]
            guard b > a else { continue }
            let xm = 0.5 * (a + b)
            var ys = [top, bottom]
            for e in near where min(e.x0, e.x1) < xm && xm < max(e.x0, e.x1) {
                let y = e.y0 + (xm - e.x0) * (e.y1 - e.y0) / (e.x1 - e.x0)
                if y > top && y < bottom { ys.append(y) }
            }
            ys.sort()
            var length = 0.0
            for i in 0..<(ys.count - 1) where ys[i + 1] > ys[i] {
                if winding(xm, 0.5 * (ys[i] + ys[i + 1])) != 0 { length += ys[i + 1] - ys[i] }
            }
            total += length * (b - a)
        }
        return total
    }
}
