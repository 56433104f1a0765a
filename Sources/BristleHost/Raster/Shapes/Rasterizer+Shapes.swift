/// The shape services: rectangles, ellipses, polylines with caps / joins / dashes, capped
/// segments and soft dabs, each onto pixels (solid paint or pattern) or max-combined into a
/// mask (see ``ShapeTarget``).
///
/// Common contract (as the rest of ``Rasterizer``): exact-area coverage quantised to 8 bits,
/// everything clipped to the target, the returned rectangle contains every pixel changed and
/// is empty when nothing was. Invalid input (NaN, infinities, magnitudes above
/// ``Rasterizer/coordinateLimit``, negative sizes where a size is required, an invalid plane,
/// mask or tile, a zero opacity) draws nothing and returns ``PixelRect/empty``; so does a
/// stroke that breaks a limit of ``StrokeStyle`` (dash entries, dash pieces) or whose outline's
/// edges would walk more than ``strokeWorkBudget`` visible rows in total. Nothing is drawn partially.
///
/// Allocation: none once the rasteriser's scratch buffers have grown to the largest shape
/// drawn (polylines copy their points into reused storage).
extension Rasterizer {
    /// Most polyline points one call accepts (the C `BRISTLE_MAX_POLYLINE_POINTS`).
    public static let maxPolylinePoints = 1 << 20
    /// Largest total of visible rows one stroke's outline may walk (summed over its segments,
    /// each widened by the stroke's width).
    public static let strokeWorkBudget = 1 << 27
    /// The narrowest stroke whose exact fill looks for the parts of its outline that can meet
    /// in pieces two pixels shorter than the width (``MeetingPieces``); narrower ones compare
    /// whole dashes (``MeetingPieces/wholeContours``) or, solid, tag every edge. Measured on
    /// the workload: at width 10 the search saves more than it costs, at width 4 (the dashes)
    /// every piece of a dash meets the other side's and the search is pure cost.
    static let meetingSearchWidth = 6.0

    @inline(__always)
    private static func sane(_ v: Double) -> Bool { CapsuleHull.isSane(v) }

    // MARK: - Rectangles

    /// The rectangle with corners (x, y) and (x + width, y + height) (negative sizes allowed:
    /// any drag direction gives the same rectangle). `style` nil fills it; otherwise its
    /// outline is stroked (closed, starting at the top-left corner, clockwise on screen). A
    /// filled rectangle and a MITER-joined solid stroke (miter limit >= sqrt 2) use exact
    /// analytic coverage (``AxisRectCoverage``); other strokes go through the polyline stroker.
    public func drawRect(x: Double, y: Double, width: Double, height: Double,
                         style: StrokeStyle?, target: ShapeTarget) -> PixelRect {
        guard let sink = CoverageSink(target), Self.sane(x), Self.sane(y), Self.sane(width),
              Self.sane(height) else { return .empty }
        let x0 = Swift.min(x, x + width), x1 = Swift.max(x, x + width)
        let y0 = Swift.min(y, y + height), y1 = Swift.max(y, y + height)
        guard let style else {
            return AxisRectCoverage.draw(.init(x0: x0, y0: y0, x1: x1, y1: y1), hole: nil,
                                         clip: sink.bounds, sink: sink, scratch: shapeScratch)
        }
        guard let stroke = ResolvedStroke(style) else { return .empty }
        let solid = style.dashes.allSatisfy { $0 == 0 }
        if solid && stroke.join == .miter && stroke.miterLimit >= 2.0.squareRoot() {
            let h = stroke.width / 2
            let outer = AxisRectCoverage.Box(x0: x0 - h, y0: y0 - h, x1: x1 + h, y1: y1 + h)
            let hole = x1 - x0 > 2 * h && y1 - y0 > 2 * h
                ? AxisRectCoverage.Box(x0: x0 + h, y0: y0 + h, x1: x1 - h, y1: y1 - h) : nil
            return AxisRectCoverage.draw(outer, hole: hole, clip: sink.bounds, sink: sink,
                                         scratch: shapeScratch)
        }
        return strokeOutline(x0, y0, x1, y1, style: style, stroke: stroke, sink: sink)
    }

    /// The outline of the rectangle from (x0, y0) to (x1, y1) through ``strokePoints(xs:ys:stride:count:closed:stroke:dashes:phase:sink:)``
    /// (closed, from the top-left corner, clockwise on screen). Out of line, so that
    /// ``drawRect(x:y:width:height:style:target:)`` stays small enough to be inlined.
    @inline(never)
    private func strokeOutline(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, style: StrokeStyle,
                               stroke: ResolvedStroke, sink: CoverageSink) -> PixelRect {
        let corners = [x0, y0, x1, y0, x1, y1, x0, y1]
        return corners.withUnsafeBufferPointer { xy in
            style.dashes.withUnsafeBufferPointer { dashes in
                strokePoints(xs: xy.baseAddress!, ys: xy.baseAddress! + 1, stride: 2, count: 4, closed: true,
                             stroke: stroke, dashes: dashes, phase: style.dashPhase, sink: sink)
            }
        }
    }

    /// Fills the rectangle (see ``drawRect(x:y:width:height:style:target:)``) with `paint`.
    public func fillRect(x: Double, y: Double, width: Double, height: Double, paint: Paint,
                         into plane: RGBAPlane) -> PixelRect {
        drawRect(x: x, y: y, width: width, height: height, style: nil, target: .paint(plane, paint))
    }

    /// Strokes the rectangle's outline with `style` (use `join: .miter` for sharp corners).
    public func strokeRect(x: Double, y: Double, width: Double, height: Double,
                           style: StrokeStyle, paint: Paint, into plane: RGBAPlane) -> PixelRect {
        drawRect(x: x, y: y, width: width, height: height, style: style, target: .paint(plane, paint))
    }

    // MARK: - Ellipses

    /// The axis-aligned ellipse centred at (centerX, centerY) with radii `>= 0`. `style` nil
    /// fills it (a zero radius fills nothing); otherwise every point within `width / 2` of
    /// the ellipse is covered. A solid stroke of an ellipse with both radii above 0 is the
    /// region between two convex curves, filled as one ring: the outer parallel curve at
    /// `width / 2`, minus the inner parallel body (the points whose disc of radius `width / 2`
    /// lies inside the ellipse). Up to the smallest radius of curvature (`min² / max` of the
    /// radii) that body's boundary is the inner parallel curve; beyond it, the inner curve
    /// trimmed of its swallowtails where it first meets the major axis
    /// (``EllipseFlattener/innerQuadrant(rx:ry:halfWidth:)``); from the smaller radius on the
    /// body is empty and the outer curve is filled alone. Dashed strokes, and the outline of
    /// an ellipse with a zero radius (a segment), go through the polyline stroker (closed,
    /// round-joined where the style says so, dashes starting at (cx + rx, cy) clockwise on
    /// screen).
    public func drawEllipse(centerX cx: Double, centerY cy: Double, radiusX rx: Double,
                            radiusY ry: Double, style: StrokeStyle?, target: ShapeTarget) -> PixelRect {
        guard let sink = CoverageSink(target), Self.sane(cx), Self.sane(cy), Self.sane(rx),
              Self.sane(ry), rx >= 0, ry >= 0 else { return .empty }
        guard let style else {
            guard rx > 0, ry > 0 else { return .empty }
            return fillConvexEllipse(cx, cy, rx, ry, sink: sink)
        }
        guard let stroke = ResolvedStroke(style) else { return .empty }
        let h = stroke.width / 2
        let b = Swift.min(rx, ry)
        if b > 0 && style.dashes.allSatisfy({ $0 == 0 }) {
            let s = shapeScratch
            s.path.reset(cull: sink.bounds)
            guard let inner = EllipseFlattener.innerQuadrant(rx: rx, ry: ry, halfWidth: h) else {
                s.outerEllipse.append(to: &s.path, cx: cx, cy: cy, rx: rx, ry: ry, offset: h)
                return RingRows.fill(scratch: s, outer: s.outerEllipse, inner: nil, cx: cx, cy: cy,
                                     clip: sink.bounds, sink: sink)
                    ?? s.fill(clip: sink.bounds, sink: sink)
            }
            // The outer contour, then the inner one reversed, their walks interleaved.
            s.outerEllipse.appendRing(inner: s.ellipse, to: &s.path, cx: cx, cy: cy, rx: rx, ry: ry,
                                      halfWidth: h, innerQuadrant: inner)
            return RingRows.fill(scratch: s, outer: s.outerEllipse, inner: s.ellipse, cx: cx, cy: cy,
                                 clip: sink.bounds, sink: sink)
                ?? s.fill(clip: sink.bounds, sink: sink, hole: (cx, cy))
        }
        var xs: [Double] = [], ys: [Double] = []
        swap(&xs, &shapeScratch.ex)
        swap(&ys, &shapeScratch.ey)
        defer {
            swap(&xs, &shapeScratch.ex)
            swap(&ys, &shapeScratch.ey)
        }
        if b == 0 {
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            xs.append(cx - rx); xs.append(cx + rx)
            ys.append(cy - ry); ys.append(cy + ry)
        } else if !EllipseFlattener.polyline(into: &xs, &ys, cx: cx, cy: cy, rx: rx, ry: ry,
                                             limit: Self.maxPolylinePoints) {
            return .empty
        }
        return xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                style.dashes.withUnsafeBufferPointer { dashes in
                    strokePoints(xs: xp.baseAddress!, ys: yp.baseAddress!, stride: 1, count: xs.count, closed: true,
                                 stroke: stroke, dashes: dashes, phase: style.dashPhase, sink: sink)
                }
            }
        }
    }

    /// A filled ellipse: analytic (``EllipseCoverage``) up to its radius limit, else the
    /// flattened polygon through ``ConvexScanner``.
    private func fillConvexEllipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double,
                                   sink: CoverageSink) -> PixelRect {
        let s = shapeScratch
        if Swift.max(rx, ry) <= EllipseCoverage.maxRadius {
            return EllipseCoverage.fill(cx: cx, cy: cy, rx: rx, ry: ry, clip: sink.bounds, sink: sink,
                                        scratch: s)
        }
        s.path.reset(cull: sink.bounds)
        s.ellipse.append(to: &s.path, cx: cx, cy: cy, rx: rx, ry: ry)
        return ConvexScanner.fill(s.path, clip: sink.bounds, sink: sink, scratch: s)
    }

    /// Fills the ellipse (see ``drawEllipse(centerX:centerY:radiusX:radiusY:style:target:)``).
    public func fillEllipse(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double,
                            paint: Paint, into plane: RGBAPlane) -> PixelRect {
        drawEllipse(centerX: centerX, centerY: centerY, radiusX: radiusX, radiusY: radiusY,
                    style: nil, target: .paint(plane, paint))
    }

    /// Strokes the ellipse with `style` (uniform width in pixels).
    public func strokeEllipse(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double,
                              style: StrokeStyle, paint: Paint, into plane: RGBAPlane) -> PixelRect {
        drawEllipse(centerX: centerX, centerY: centerY, radiusX: radiusX, radiusY: radiusY,
                    style: style, target: .paint(plane, paint))
    }

    // MARK: - Polylines

    /// Strokes the polyline through `points` (1 ... ``maxPolylinePoints``; consecutive equal
    /// points merge; a single point is a dot with round or square caps), or fills the polygon
    /// when `style` is nil (nonzero winding, at least 3 points). `closed` joins the last point
    /// to the first.
    public func drawPolyline(_ points: [(x: Double, y: Double)], closed: Bool = false,
                             style: StrokeStyle?, target: ShapeTarget) -> PixelRect {
        guard let sink = CoverageSink(target) else { return .empty }
        guard let style else { return fillPoints(count: points.count, sink: sink) { points[$0] } }
        guard let stroke = ResolvedStroke(style), !points.isEmpty else { return .empty }
        // The tuples are two doubles each, x then y, stored one after the other.
        return points.withUnsafeBufferPointer { tuples in
            tuples.withMemoryRebound(to: Double.self) { xy in
                style.dashes.withUnsafeBufferPointer { dashes in
                    strokePoints(xs: xy.baseAddress!, ys: xy.baseAddress! + 1, stride: 2, count: points.count,
                                 closed: closed, stroke: stroke, dashes: dashes, phase: style.dashPhase, sink: sink)
                }
            }
        }
    }

    /// Strokes the polyline with `style` and `paint` (see ``drawPolyline(_:closed:style:target:)``).
    public func strokePolyline(_ points: [(x: Double, y: Double)], closed: Bool = false,
                               style: StrokeStyle, paint: Paint, into plane: RGBAPlane) -> PixelRect {
        drawPolyline(points, closed: closed, style: style, target: .paint(plane, paint))
    }

    /// Fills the polygon of `n` points given by `point` (nonzero winding).
    func fillPoints(count n: Int, sink: CoverageSink,
                    point: (Int) -> (Double, Double)) -> PixelRect {
        guard n >= 3, n <= Self.maxPolylinePoints else { return .empty }
        let s = shapeScratch
        s.path.reset(cull: sink.bounds)
        for i in 0..<n {
            let (x, y) = point(i)
            guard Self.sane(x), Self.sane(y) else { return .empty }
            s.path.append(x, y)
        }
        return s.fill(clip: sink.bounds, sink: sink)
    }

    /// The stroker's driver: copies and checks the points, builds the whole stroke's outline
    /// (every dash included) with ``PolylineStroker`` and fills it once (nonzero, exact where
    /// its pieces overlap: ``OverlapCells``) into the sink. Point `i` of the `n` is
    /// `(xs[i * stride], ys[i * stride])` (interleaved x, y: `ys = xs + 1`, `stride` 2; two
    /// arrays: `stride` 1), read once each. `dashes` must already hold the caller's entries
    /// (validated here).
    func strokePoints(xs pointXs: UnsafePointer<Double>, ys pointYs: UnsafePointer<Double>, stride: Int,
                      count n: Int, closed: Bool, stroke: ResolvedStroke,
                      dashes: UnsafeBufferPointer<Double>, phase: Double, sink: CoverageSink) -> PixelRect {
        guard n >= 1, n <= Self.maxPolylinePoints, dashes.count <= StrokeStyle.maxDashEntries,
              phase.isFinite, dashes.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Self.coordinateLimit })
        else { return .empty }
        let s = shapeScratch
        // The points are gathered in locals (the scratch's own arrays would be checked for
        // exclusive access at every point), sized for all n and written through pointers (no
        // uniqueness check per point), then cut to the points kept.
        var px: [Double] = [], py: [Double] = []
        swap(&px, &s.px)
        swap(&py, &s.py)
        px.removeAll(keepingCapacity: true)
        py.removeAll(keepingCapacity: true)
        px.append(contentsOf: repeatElement(0, count: n))
        py.append(contentsOf: repeatElement(0, count: n))
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var sane = true
        var kept = 0
        px.withUnsafeMutableBufferPointer { xs in
            py.withUnsafeMutableBufferPointer { ys in
                let xs = xs.baseAddress!, ys = ys.baseAddress!
                for i in 0..<n {
                    let x = pointXs[i &* stride], y = pointYs[i &* stride]
                    // ``sane(_:)`` without its finiteness test: NaN and the infinities fail
                    // the bound alone.
                    guard abs(x) <= Self.coordinateLimit, abs(y) <= Self.coordinateLimit else { sane = false; break }
                    if kept > 0 && xs[kept &- 1] == x && ys[kept &- 1] == y { continue }
                    xs[kept] = x
                    ys[kept] = y
                    kept &+= 1
                    minX = Swift.min(minX, x); maxX = CoverageAccumulator.larger(x, maxX)
                    minY = Swift.min(minY, y); maxY = CoverageAccumulator.larger(y, maxY)
                }
            }
        }
        px.removeLast(n - kept)
        py.removeLast(n - kept)
        if closed && px.count > 1 && px[0] == px[px.count - 1] && py[0] == py[py.count - 1] {
            px.removeLast()
            py.removeLast()
        }
        swap(&px, &s.px)
        swap(&py, &s.py)
        guard sane else { return .empty }
        let h = stroke.width / 2
        let reach = h * Swift.max(stroke.join == .miter ? stroke.miterLimit : 1, 1.5) + 2
        let box = PixelRect.covering(minX: minX - reach, minY: minY - reach, maxX: maxX + reach,
                                     maxY: maxY + reach, clip: sink.bounds)
        guard !box.isEmpty else { return .empty }
        s.path.reset(cull: box)
        var stroker: PolylineStroker? = PolylineStroker(
            scratch: s, style: stroke, rows: (Double(box.y) - 1, Double(box.maxY) + 1),
            budget: Self.strokeWorkBudget)
        swap(&stroker!.path, &s.path)
        var overflowed = false
        var dashed = false
        s.px.withUnsafeBufferPointer { xs in
            s.py.withUnsafeBufferPointer { ys in
                let count = xs.count
                if count >= 2, let dasher = Dasher(pattern: dashes, phase: phase) {
                    let visible = (minX: Double(box.x) - reach, minY: Double(box.y) - reach,
                                   maxX: Double(box.maxX) + reach, maxY: Double(box.maxY) + reach)
                    // A pattern over the cap stops the dashing and draws nothing at all (the
                    // outline built so far is never filled).
                    var drawing = dasher
                    let everyInside = minX > visible.minX && maxX < visible.maxX && minY > visible.minY
                        && maxY < visible.maxY
                    drawing.run(xs, ys, count: count, closed: closed, visible: visible, everyInside: everyInside,
                                scratch: s, stroker: &stroker)
                    overflowed = drawing.overflowed
                    dashed = true
                } else {
                    stroker!.stroke(xs, ys, count: count, closed: closed, dotDirection: (1, 0))
                }
            }
        }
        swap(&stroker!.path, &s.path)
        guard !overflowed, !stroker!.failed else { return .empty }
        // Pieces two pixels shorter than the width: at 45 degrees a piece's box then ends a
        // cell before the other side's (w / √2 away on both axes). Narrower strokes' sides lie
        // too close for pieces of one side to miss the other side's cells (the dashes at width
        // 4: every piece tagged, the search only cost): their dashes are compared whole, and a
        // solid one is not searched.
        s.pieceLength = stroke.width >= Self.meetingSearchWidth ? stroke.width - 2
            : dashed ? MeetingPieces.wholeContours : .infinity
        return s.fill(clip: box, sink: sink, exact: true)
    }

    // MARK: - Segments and dabs

    /// A segment with per-end widths and the given cap. ROUND is the tapered capsule of
    /// ``fillSegment(_:paint:into:)``; BUTT is the trapezoid between the two end lines; SQUARE
    /// extends each end by half its own width (a zero-length SQUARE segment is an axis-aligned
    /// square of the larger width; a zero-length BUTT segment is nothing).
    public func drawSegment(_ seg: TaperedSegment, cap: LineCap, target: ShapeTarget) -> PixelRect {
        guard let sink = CoverageSink(target) else { return .empty }
        let s = shapeScratch
        s.path.reset(cull: sink.bounds)
        if cap == .round {
            switch target {
            case .paint(let plane, let paint): return fillSegment(seg, paint: paint, into: plane)
            case .mask(let mask, _): return maskSegment(seg, into: mask)
            case .pattern:
                guard let hull = CapsuleHull(seg) else { return .empty }
                if hull.isDisc {
                    s.path.appendArc(cx: hull.x0, cy: hull.y0, r: hull.r0, start: 0, sweep: 2 * Double.pi)
                } else {
                    let a = hull.tangentAngle, d = hull.direction
                    s.path.appendArc(cx: hull.x1, cy: hull.y1, r: hull.r1, start: d - a, sweep: 2 * a)
                    s.path.appendArc(cx: hull.x0, cy: hull.y0, r: hull.r0, start: d + a,
                                     sweep: 2 * Double.pi - 2 * a)
                }
                return s.fill(clip: sink.bounds, sink: sink)
            }
        }
        guard Self.sane(seg.x0), Self.sane(seg.y0), Self.sane(seg.x1), Self.sane(seg.y1),
              Self.sane(seg.width0), Self.sane(seg.width1), seg.width0 >= 0, seg.width1 >= 0
        else { return .empty }
        let h0 = seg.width0 / 2, h1 = seg.width1 / 2
        let dx = seg.x1 - seg.x0, dy = seg.y1 - seg.y0
        let l = (dx * dx + dy * dy).squareRoot()
        if l <= CapsuleHull.degenerateLength {
            guard cap == .square else { return .empty }
            let hh = Swift.max(h0, h1)
            return drawRect(x: seg.x0 - hh, y: seg.y0 - hh, width: 2 * hh, height: 2 * hh,
                            style: nil, target: target)
        }
        let ux = dx / l, uy = dy / l, nx = -uy, ny = ux
        let e0 = cap == .square ? h0 : 0, e1 = cap == .square ? h1 : 0
        let p = (x: seg.x0, y: seg.y0), q = (x: seg.x1, y: seg.y1)
        if e0 > 0 { s.path.append(p.x - ux * e0 - nx * h0, p.y - uy * e0 - ny * h0) }
        s.path.append(p.x - nx * h0, p.y - ny * h0)
        s.path.append(q.x - nx * h1, q.y - ny * h1)
        if e1 > 0 {
            s.path.append(q.x + ux * e1 - nx * h1, q.y + uy * e1 - ny * h1)
            s.path.append(q.x + ux * e1 + nx * h1, q.y + uy * e1 + ny * h1)
        }
        s.path.append(q.x + nx * h1, q.y + ny * h1)
        s.path.append(p.x + nx * h0, p.y + ny * h0)
        if e0 > 0 { s.path.append(p.x - ux * e0 + nx * h0, p.y - uy * e0 + ny * h0) }
        return s.fill(clip: sink.bounds, sink: sink)
    }

    /// A dab of `radius` at (centerX, centerY). `hardness` is clamped to [0, 1] (NaN counts
    /// as 1): 1 is the exact-area hard disc, below 1 the radial falloff of ``SoftDab``.
    public func drawDab(centerX cx: Double, centerY cy: Double, radius: Double, hardness: Double,
                        target: ShapeTarget) -> PixelRect {
        guard let sink = CoverageSink(target), Self.sane(cx), Self.sane(cy), Self.sane(radius),
              radius > 0 else { return .empty }
        let hard = hardness.isNaN ? 1 : Swift.min(Swift.max(hardness, 0), 1)
        guard hard < 1 else { return fillConvexEllipse(cx, cy, radius, radius, sink: sink) }
        return SoftDab.draw(cx: cx, cy: cy, radius: radius, hardness: hard, clip: sink.bounds,
                            sink: sink, scratch: shapeScratch)
    }

    // MARK: - Pattern compositing

    /// ``compositeMask(_:rect:paint:onto:base:)`` with a pattern as the source: same clipping,
    /// same `base` rule (with a base every pixel of the clipped rect is written, a copy of the
    /// base where the coverage is 0), coverage `mask * opacity`.
    public func compositeMask(_ mask: MaskPlane, rect: PixelRect, pattern: PatternTile,
                              opacity: Float, blend: BlendMode, onto target: RGBAPlane,
                              base: RGBAPlane?) -> PixelRect {
        guard pattern.isValid else { return .empty }
        var r = rect.intersection(target.bounds).intersection(mask.bounds)
        if let base { r = r.intersection(base.bounds) }
        guard !r.isEmpty else { return .empty }
        let sink = CoverageSink(.pattern(target, pattern, opacity: opacity, blend: blend))
        if base == nil && sink == nil { return .empty }
        let x0 = Int(r.x), w = Int(r.width)
        var dirty = DirtyBox()
        for y in Int(r.y)..<Int(r.maxY) {
            let m = mask.row(y) + x0
            if let base {
                let t = target.row(y) + 4 * x0, b = base.row(y) + 4 * x0
                if t != b { t.update(from: b, count: 4 * w) }
                dirty.add(row: y, lo: x0, hi: x0 + w)
                sink?.row(y, x0, UnsafePointer(m), w)
                continue
            }
            var lo = w, hi = 0
            for i in 0..<w where m[i] != 0 {
                if lo == w { lo = i }
                hi = i + 1
            }
            guard lo < hi, let sink else { continue }
            sink.row(y, x0 + lo, UnsafePointer(m + lo), hi - lo)
            dirty.add(row: y, lo: x0 + lo, hi: x0 + hi)
        }
        return dirty.rect
    }
}
