import BristleBench
@testable import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Accuracy of the shape services against analytic coverage (``CrossSectionTruth``: exact
/// cross-sections integrated over 1024 sub-columns per pixel): every pixel within 2/255, mean
/// within 0.5/255, at fractional positions, tiny sizes and partly off the canvas.
@Suite struct ShapeAccuracyTests {
    /// Draws with `draw` on a padded transparent canvas; checks the gates, the dirty rect and
    /// the padding.
    @discardableResult
    private func check(_ label: String, width: Int = 32, height: Int = 32, truth: CrossSectionTruth,
                       samples: Int = 1024, _ draw: (Rasterizer, RGBAPlane) -> PixelRect) -> CoverageError {
        let canvas = ShapeCanvas(width, height, padding: 8)
        let rect = draw(Rasterizer(), canvas.plane)
        let measured = canvas.alphas
        let error = CoverageError(measured: measured, truth: truth.coverage(width: width, height: height,
                                                                          samples: samples))
        #expect(error.withinGates, "\(label): \(error)")
        #expect(canvas.paddingIntact, "\(label): padding written")
        for y in 0..<height {
            for x in 0..<width where measured[y * width + x] != 0 {
                #expect(rect.contains(PixelRect(x: Int32(x), y: Int32(y), width: 1, height: 1)),
                        "\(label): pixel \(x),\(y) outside dirty rect \(rect)")
            }
        }
        return error
    }

    @Test func filledRectanglesAtFractionalPositionsTinyAndClipped() {
        let cases: [(Double, Double, Double, Double)] = [
            (3.25, 4.5, 20.5, 11.73), (10.1, 2.9, 0.6, 0.4), (7.5, 7.5, 0.3, 12), (5.9, 6.2, 0.2, 0.2),
            (-4.3, -2.7, 12.1, 9.9), (25.6, 20.4, 30, 30), (-10, 15.5, 60, 0.5), (12.5, 12.5, -7.25, -9.5),
        ]
        for (x, y, w, h) in cases {
            let x0 = min(x, x + w), x1 = max(x, x + w), y0 = min(y, y + h), y1 = max(y, y + h)
            check("rect \(x),\(y) \(w)x\(h)",
                  truth: .convex([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])) { r, p in
                r.fillRect(x: x, y: y, width: w, height: h, paint: shapeWhite, into: p)
            }
        }
    }

    @Test func miteredRectangleStrokes() {
        for (x, y, w, h, sw) in [(5.3, 6.8, 19.4, 14.1, 3.0), (2.5, 3.25, 8.0, 21.0, 1.3), (-3.7, 20.2, 40.0, 30.0, 5.5)] {
            let o = (x - sw / 2, y - sw / 2, x + w + sw / 2, y + h + sw / 2)
            let hole = (x + sw / 2, y + sw / 2, x + w - sw / 2, y + h - sw / 2)
            check("stroked rect \(x),\(y) \(w)x\(h) w=\(sw)", truth: .ring(outer: o, hole: hole)) { r, p in
                r.strokeRect(x: x, y: y, width: w, height: h, style: StrokeStyle(width: sw, join: .miter),
                             paint: shapeWhite, into: p)
            }
        }
    }

    @Test func filledEllipses() {
        let cases: [(Double, Double, Double, Double)] = [
            (16.3, 15.8, 11.2, 6.7), (16.5, 16.25, 3.1, 9.9), (8.73, 9.1, 0.7, 0.45), (12.2, 13.6, 1.6, 1.6),
            (2.3, 28.9, 9.4, 7.7), (30.1, 4.4, 14.0, 5.2), (16, 16, 40, 25), (15.5, 16.5, 12.0, 0.3),
        ]
        for (cx, cy, rx, ry) in cases {
            check("ellipse \(cx),\(cy) r=\(rx)x\(ry)", truth: .ellipse(cx, cy, rx, ry)) { r, p in
                r.fillEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry, paint: shapeWhite, into: p)
            }
        }
    }

    @Test func hugeEllipseEdgeIsExactAndCheap() {
        // 6e4 x 3e4 is just inside the analytic path's radius limit, the others beyond it.
        for (rx, ry) in [(6e4, 3e4), (4e5, 2e5), (3e7, 1e7)] {
            let cx = 16.3 - rx * 0.6, cy = 15.8 - ry * 0.8  // the boundary crosses the canvas
            check("huge ellipse \(rx)x\(ry)", truth: .ellipse(cx, cy, rx, ry)) { r, p in
                r.fillEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry, paint: shapeWhite, into: p)
            }
        }
        // Cheap: the flattener's steps (its cost) for a radius of 1e7 across or around a 32x32
        // canvas stay near a radius of 1e3's, where stepping every arc finely took 785,000.
        func steps(radius: Double, offsetX: Double) -> Int {
            var path = ContourPath()
            path.reset(cull: PixelRect(x: 0, y: 0, width: 32, height: 32))
            var flattener = EllipseFlattener()
            flattener.append(to: &path, cx: 16 + offsetX, cy: 16, rx: radius, ry: radius)
            return flattener.quadrantSteps
        }
        for offsetX in [0.0, 1.0] {  // 0: the ring around the canvas; 1: its outline across it
            let small = steps(radius: 1e3, offsetX: -offsetX * 1e3), huge = steps(radius: 1e7, offsetX: -offsetX * 1e7)
            #expect(huge <= 4 * small + 64, "radius 1e7 takes \(huge) steps, radius 1e3 \(small)")
        }
    }

    /// Stroked circles of radius up to 1e7 whose outline crosses the canvas, or whose ring
    /// encloses it: the flattener leaps over the arcs that cannot reach the canvas, and the
    /// part that does stays exact.
    @Test func hugeStrokedCirclesAcrossAndAroundTheCanvasAreExact() {
        let a = 0.8  // the canvas sits where the outline is at this angle: the walk approaches it
        for (r, h) in [(1e3, 1.5), (4e5, 2.25), (1e7, 1.5)] {
            let style = StrokeStyle(width: 2 * h)
            let cx = 16.3 - r * cos(a), cy = 15.8 - r * sin(a)
            check("across r=\(r)", truth: .circleRing(cx, cy, r, halfWidth: h)) { rz, p in
                rz.strokeEllipse(centerX: cx, centerY: cy, radiusX: r, radiusY: r, style: style,
                                 paint: shapeWhite, into: p)
            }
            // The canvas lies inside the ring, 40 px from its centre line: nothing is painted.
            let canvas = ShapeCanvas(32, 32, padding: 8)
            _ = Rasterizer().strokeEllipse(centerX: 16 - (r - 40) * cos(a), centerY: 16 - (r - 40) * sin(a),
                                           radiusX: r, radiusY: r, style: style, paint: shapeWhite, into: canvas.plane)
            #expect(canvas.alphas.allSatisfy { $0 == 0 } && canvas.paddingIntact, "around r=\(r): painted")
        }
    }

    /// Stroked ellipses against the distance to the curve (``CrossSectionTruth/strokedEllipse(_:_:_:_:halfWidth:)``):
    /// thin rings, strokes wider than the smallest radius of curvature (the inner side trimmed
    /// of its swallowtails), and wider than the smaller radius (no hole), either axis the
    /// major one, at fractional positions and partly off the canvas.
    @Test func strokedEllipsesCoverThePointsWithinHalfTheWidth() {
        let cases: [(Double, Double, Double, Double, Double)] = [
            (16.3, 15.8, 11.2, 6.7, 2.5),   // ring
            (16.2, 16.1, 13.7, 3.1, 2.6),   // just past the curvature (0.70)
            (16.7, 15.4, 12.5, 4.3, 5.9),   // trimmed, x major
            (15.6, 16.4, 2.9, 12.8, 3.7),   // trimmed, y major
            (16.3, 15.6, 14.2, 0.9, 5.0),   // thin ellipse, trimmed to a sliver
            (15.9, 16.3, 6.1, 9.4, 12.7),   // wider than the smaller radius: no hole
            (3.4, 27.8, 13.3, 5.2, 4.4),    // trimmed, partly off the canvas
        ]
        for (cx, cy, rx, ry, w) in cases {
            let label = "stroked ellipse \(cx),\(cy) r=\(rx)x\(ry) w=\(w)"
            let error = check(label, truth: .strokedEllipse(cx, cy, rx, ry, halfWidth: w / 2), samples: 256) { r, p in
                r.strokeEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry, style: StrokeStyle(width: w),
                                paint: shapeWhite, into: p)
            }
            print("\(label): \(error)")
        }
    }

    /// The geometry of the thick ring (``EllipseFlattener/innerQuadrant(rx:ry:halfWidth:)``):
    /// the trimmed inner offset's points lie at distance h from the ellipse (to 1e-9), its
    /// ends on the axes, the offset just past the trim is nearer than h (the swallowtail cut
    /// off), and random points are inside the flattened ring exactly when their distance to
    /// the ellipse is at most h (away from the boundary by more than the flattening).
    @Test func thickRingIsTheInnerParallelBodyRemoved() {
        var state: UInt64 = 0x9E37
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) * 0x1p-53
        }
        var checkedPoints = 0
        for i in 0..<60 {
            let major = 6 + 40 * unit(), minor = 0.5 + (major - 0.5) * unit()
            let (rx, ry) = i % 2 == 0 ? (major, minor) : (minor, major)
            // h from below the smallest radius of curvature to past the smaller radius.
            let h = minor * minor / major * 0.9 + (minor * 1.1 - minor * minor / major * 0.9) * unit()
            let label = "r=\(rx)x\(ry) h=\(h)"
            guard let q = EllipseFlattener.innerQuadrant(rx: rx, ry: ry, halfWidth: h) else {
                #expect(h >= minor, "\(label): no inner body although h < the smaller radius")
                continue
            }
            #expect(h < minor && q.from < q.to, "\(label): \(q)")
            func offset(_ t: Double) -> (Double, Double) {
                let nx = ry * cos(t), ny = rx * sin(t), l = (nx * nx + ny * ny).squareRoot()
                return (rx * cos(t) - h * nx / l, ry * sin(t) - h * ny / l)
            }
            for j in 0...64 {
                let (x, y) = offset(q.from + (q.to - q.from) * Double(j) / 64)
                let d = EllipseDistance.signed(x, y, rx, ry)
                #expect(abs(d + h) <= 1e-9, "\(label): trimmed offset at distance \(-d)")
            }
            if q.from > 0 {
                #expect(abs(offset(q.from).1) <= 1e-9, "\(label): the start is off the x axis")
                let (x, y) = offset(q.from * 0.98)
                #expect(y < 0 && EllipseDistance.signed(x, y, rx, ry) > -h + 1e-9, "\(label): not a swallowtail")
            }
            if q.to < Double.pi / 2 {
                #expect(abs(offset(q.to).0) <= 1e-9, "\(label): the end is off the y axis")
                let (x, y) = offset(q.to + (Double.pi / 2 - q.to) * 0.02)
                #expect(x < 0 && EllipseDistance.signed(x, y, rx, ry) > -h + 1e-9, "\(label): not a swallowtail")
            }
            // Random points against the flattened outline (nonzero winding of both contours).
            var path = ContourPath()
            path.reset(cull: nil)
            var flattener = EllipseFlattener()
            flattener.append(to: &path, cx: 0, cy: 0, rx: rx, ry: ry, offset: h)
            flattener.append(to: &path, cx: 0, cy: 0, rx: rx, ry: ry, offset: -h, reversed: true, quadrant: q)
            for _ in 0..<400 {
                let x = (2 * unit() - 1) * (rx + h + 1), y = (2 * unit() - 1) * (ry + h + 1)
                let d = EllipseDistance.signed(x, y, rx, ry)
                guard abs(abs(d) - h) > 0.01 else { continue }
                #expect((winding(path, x, y) != 0) == (abs(d) <= h), "\(label): point \(x),\(y) at distance \(d)")
                checkedPoints += 1
            }
        }
        print("thick ring geometry: \(checkedPoints) random points classified")
        #expect(checkedPoints > 20_000)
    }

    /// The nonzero winding number of `path` around (x, y).
    private func winding(_ path: ContourPath, _ x: Double, _ y: Double) -> Int {
        var w = 0
        let xs = path.xs, ys = path.ys
        for (c, start) in path.starts.enumerated() {
            let end = c + 1 < path.starts.count ? path.starts[c + 1] : path.count
            for i in start..<end {
                let j = i + 1 < end ? i + 1 : start
                let (x0, y0, x1, y1) = (xs[i], ys[i], xs[j], ys[j])
                guard (y0 <= y) != (y1 <= y) else { continue }
                let cross = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
                if y1 > y0 { if cross > 0 { w += 1 } } else if cross < 0 { w -= 1 }
            }
        }
        return w
    }

    /// The benchmark's stroked ellipses that are wider than their curvature (`ellipse_stroke`:
    /// 110 of 1,000; the first 6, or all with BRISTLE_ELLIPSE_ALL=1), each alone on a canvas
    /// of its size: the ring is at least as exact as the polyline stroker (miter joins, the
    /// bench's style) it replaced, in the worst pixel and on average over all of them.
    @Test func benchThickEllipsesAreAtLeastAsExactAsTheStroker() {
        let all = ProcessInfo.processInfo.environment["BRISTLE_ELLIPSE_ALL"] == "1"
        let thick = BenchWorkload.shapes(seed: BenchWorkload.ellipseStrokeSeed, rectangles: false).filter {
            $0.strokeWidth / 2 >= 0.999 * min($0.c, $0.d) * min($0.c, $0.d) / max($0.c, $0.d)
        }
        #expect(thick.count == 110)
        compareWithStroker("bench", thick.prefix(all ? thick.count : 6).map { ($0.a, $0.b, $0.c, $0.d, $0.strokeWidth) },
                           style: StrokeStyle(width: 1, cap: .butt, join: .miter, miterLimit: 10))
    }

    /// The ellipse brush's sheet: the 16 shapes of its direction row's `draw_ellipse` calls
    /// (rubber band and final, width 6, round joins as the brush strokes them) that are wider
    /// than their curvature, as for the bench's.
    @Test func sheetThickEllipsesAreAtLeastAsExactAsTheStroker() {
        let shapes: [(Double, Double, Double, Double, Double)] = [
            (135.4075, 128.9135, 0.7655, 1.8475), (91.515, 131.515, 1.414, 1.414), (136.173, 130.7615, 1.531, 3.6955),
            (48.9135, 135.4075, 1.8475, 0.7655), (136.9385, 132.609, 2.2965, 5.543), (92.929, 132.929, 2.828, 2.828),
            (137.7035, 134.457, 3.0615, 7.391), (50.7615, 136.173, 3.6955, 1.531), (138.469, 136.3045, 3.827, 9.2385),
            (139.2345, 138.1525, 4.5925, 11.0865), (140, 140, 5.358, 12.934), (52.609, 136.9385, 5.543, 2.2965),
            (54.457, 137.7035, 7.391, 3.0615), (56.3045, 138.469, 9.2385, 3.827), (58.1525, 139.2345, 11.0865, 4.5925),
            (60, 140, 12.934, 5.358),
        ].map { ($0.0, $0.1, $0.2, $0.3, 6) }
        compareWithStroker("sheet", shapes, style: StrokeStyle(width: 1, cap: .round, join: .round, miterLimit: 10))
    }

    /// Draws each stroked ellipse `(cx, cy, rx, ry, width)` alone (at its fractional position,
    /// on a canvas of its box with a margin) as a ring and through the polyline stroker with
    /// `style` (its width replaced), both against ``CrossSectionTruth/strokedEllipse(_:_:_:_:halfWidth:)``:
    /// the ring within the gates and at least as exact as the stroker over all of them.
    private func compareWithStroker(_ label: String, _ shapes: [(Double, Double, Double, Double, Double)],
                                    style base: StrokeStyle) {
        var ring = CoverageError(measured: [], truth: []), stroker = ring
        for (x, y, rx, ry, w) in shapes {
            let mx = (rx + w / 2 + 2).rounded(.up), my = (ry + w / 2 + 2).rounded(.up)
            let cx = mx + x - x.rounded(.down), cy = my + y - y.rounded(.down)
            let width = Int(2 * mx) + 2, height = Int(2 * my) + 2
            let truth = CrossSectionTruth.strokedEllipse(cx, cy, rx, ry, halfWidth: w / 2)
                .coverage(width: width, height: height, samples: 256)
            var style = base
            style.width = w
            let after = ShapeCanvas(width, height), before = ShapeCanvas(width, height)
            let r = Rasterizer()
            _ = r.strokeEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry, style: style,
                                paint: shapeWhite, into: after.plane)
            var xs: [Double] = [], ys: [Double] = []
            #expect(EllipseFlattener.polyline(into: &xs, &ys, cx: cx, cy: cy, rx: rx, ry: ry,
                                              limit: Rasterizer.maxPolylinePoints))
            _ = r.strokePoints(xs: xs, ys: ys, stride: 1, count: xs.count, closed: true, stroke: ResolvedStroke(style)!,
                               dashes: .init(start: nil, count: 0), phase: 0,
                               sink: CoverageSink(.paint(before.plane, shapeWhite))!)
            let a = CoverageError(measured: after.alphas, truth: truth), b = CoverageError(measured: before.alphas, truth: truth)
            print("\(label) ellipse r=\(rx)x\(ry) w=\(w): ring \(a); stroker \(b)")
            ring.merge(a)
            stroker.merge(b)
        }
        print("\(label) thick ellipses: ring \(ring); stroker \(stroker)")
        #expect(ring.withinGates, "\(ring)")
        #expect(ring.maxError <= stroker.maxError && ring.mean <= stroker.mean, "ring \(ring), stroker \(stroker)")
    }

    @Test func buttAndSquareCappedSegments() {
        let rad = Double.pi / 180
        for (i, deg) in [0.0, 90, 17.3, 128.6, 233.4].enumerated() {
            for cap in [LineCap.butt, .square] {
                let f = [0.0, 0.25, 0.5, 0.73][i % 4]
                let (cx, cy, len) = (16 + f, 15.6 + f, 13.0 + f)
                let (w0, w1) = cap == .butt ? (3.0 + f, 7.4) : (4.6, 4.6)  // square: equal widths (convex)
                let ux = cos(deg * rad), uy = sin(deg * rad), nx = -uy, ny = ux
                let e0 = cap == .square ? w0 / 2 : 0, e1 = cap == .square ? w1 / 2 : 0
                let p = (cx - ux * len / 2, cy - uy * len / 2), q = (cx + ux * len / 2, cy + uy * len / 2)
                let a = (p.0 - ux * e0, p.1 - uy * e0), b = (q.0 + ux * e1, q.1 + uy * e1)
                let poly = [(a.0 - nx * w0 / 2, a.1 - ny * w0 / 2), (b.0 - nx * w1 / 2, b.1 - ny * w1 / 2),
                            (b.0 + nx * w1 / 2, b.1 + ny * w1 / 2), (a.0 + nx * w0 / 2, a.1 + ny * w0 / 2)]
                let seg = TaperedSegment(x0: p.0, y0: p.1, x1: q.0, y1: q.1, width0: w0, width1: w1)
                check("\(cap) segment \(deg)deg", truth: .convex(poly)) { r, plane in
                    r.drawSegment(seg, cap: cap, target: .paint(plane, shapeWhite))
                }
            }
        }
        // Partly off the canvas.
        let seg = TaperedSegment(x0: -6.3, y0: 10.2, x1: 12.7, y1: -4.1, width0: 6, width1: 6)
        let d = (12.7 + 6.3, -4.1 - 10.2), l = (d.0 * d.0 + d.1 * d.1).squareRoot()
        let n = (-d.1 / l * 3, d.0 / l * 3)
        check("clipped butt segment",
              truth: .convex([(-6.3 - n.0, 10.2 - n.1), (12.7 - n.0, -4.1 - n.1), (12.7 + n.0, -4.1 + n.1), (-6.3 + n.0, 10.2 + n.1)])) { r, plane in
            r.drawSegment(seg, cap: .butt, target: .paint(plane, shapeWhite))
        }
    }

    /// Round-joined, round-capped polylines (the line brushes' and the workload's style) against
    /// the union of their segments' rectangles and vertex discs: the whole-path outline is filled
    /// once, so pixels along the inner side of every turn must not be counted twice.
    @Test func roundJoinedPolylines() {
        let cases: [(String, [(Double, Double)], Double)] = [
            ("gentle pen curve", (0..<24).map { i in
                let t = Double(i) / 23
                return (3.3 + 25.1 * t, 16.2 + 9.4 * sin(4.1 * t) - 3.7 * t * t)
            }, 5.0),
            ("right angle", [(4.4, 6.3), (24.7, 6.3), (24.7, 27.1)], 4.5),
            ("sharp zig-zag", [(3.2, 27.5), (10.6, 4.1), (17.3, 27.9), (24.1, 5.2), (29.4, 26.6)], 3.0),
            ("short segments turning", (0..<40).map { i in
                let a = Double(i) * 0.15
                return (16.2 + 9.3 * cos(a), 15.9 + 9.3 * sin(a))
            }, 3.2),
            ("partly off the canvas", [(-7.5, 12.25), (14.5, -3.5), (40.1, 20.2), (10.3, 36.8)], 6.0),
            ("turning back at 150 degrees", [(4.5, 10.5), (26.3, 20.1), (6.2, 22.7)], 3.0),
        ]
        for (label, pts, w) in cases {
            let error = check("polyline \(label) w=\(w)", truth: .roundStroke(pts, width: w)) { r, p in
                r.strokePolyline(pts.map { (x: $0.0, y: $0.1) }, style: StrokeStyle(width: w, cap: .round, join: .round),
                                 paint: shapeWhite, into: p)
            }
            print("polyline \(label) w=\(w): \(error)")
        }
    }

    @Test func maskVariantsMatchTheDirectFill() {
        let canvas = ShapeCanvas(40, 30)
        let mask = ShapeMask(40, 30)
        let r = Rasterizer()
        _ = r.drawEllipse(centerX: 20.3, centerY: 14.8, radiusX: 12.5, radiusY: 9.1, style: nil, target: .paint(canvas.plane, shapeWhite))
        _ = r.drawEllipse(centerX: 20.3, centerY: 14.8, radiusX: 12.5, radiusY: 9.1, style: nil, target: .mask(mask.plane))
        #expect(differingBytes(canvas.alphas, mask.values) == 0)
        // Max-combining: drawing the same rect twice into a mask changes nothing the second time.
        let once = ShapeMask(40, 30)
        _ = r.drawRect(x: 3.3, y: 4.6, width: 20.2, height: 9.9, style: nil, target: .mask(once.plane))
        let before = once.values
        _ = r.drawRect(x: 3.3, y: 4.6, width: 20.2, height: 9.9, style: nil, target: .mask(once.plane))
        #expect(differingBytes(once.values, before) == 0)
    }
}
