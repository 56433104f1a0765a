import CBristle

/// The services appended in ABI 1.1 (`draw_rect` ... `composite_mask_pattern`) and the cap
/// values BUTT / SQUARE of `fill_segment` / `mask_segment`. Each validates what the brush
/// passed (struct sizes, formats, enum values, counts) and forwards to the ``Rasterizer``'s
/// shape API; anything invalid draws nothing and returns an empty rectangle. `mask_rect`,
/// `mask_ellipse`, `mask_polyline` and `mask_dab` return the rectangle of the cells whose value
/// rose (``RaisedCells``), so a shape drawn over what the mask already holds returns little.
extension HostServices {
    /// Fills in the 1.1 functions of `table`.
    static func withShapeServices(_ table: bristle_services_t) -> bristle_services_t {
        var t = table
        t.draw_rect = { services, target, x, y, w, h, style, paint, pattern in
            guard let host = BrushHost.from(services),
                  let dest = HostServices.shapeTarget(target, paint, pattern) else { return HostServices.emptyRect }
            guard let style else {
                return host.rasterizer.drawRect(x: x, y: y, width: w, height: h, style: nil, target: dest).c
            }
            guard let s = HostServices.strokeStyle(style) else { return HostServices.emptyRect }
            return host.rasterizer.drawRect(x: x, y: y, width: w, height: h, style: s, target: dest).c
        }
        t.draw_ellipse = { services, target, cx, cy, rx, ry, style, paint, pattern in
            guard let host = BrushHost.from(services),
                  let dest = HostServices.shapeTarget(target, paint, pattern) else { return HostServices.emptyRect }
            guard let style else {
                return host.rasterizer.drawEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry,
                                                   style: nil, target: dest).c
            }
            guard let s = HostServices.strokeStyle(style) else { return HostServices.emptyRect }
            return host.rasterizer.drawEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry,
                                               style: s, target: dest).c
        }
        t.draw_polyline = { services, target, xy, count, style, paint, pattern in
            guard let host = BrushHost.from(services),
                  let dest = HostServices.shapeTarget(target, paint, pattern) else { return HostServices.emptyRect }
            return HostServices.polyline(host, dest, xy, count, style).c
        }
        t.draw_dab = { services, target, cx, cy, radius, hardness, paint, pattern in
            guard let host = BrushHost.from(services),
                  let dest = HostServices.shapeTarget(target, paint, pattern) else { return HostServices.emptyRect }
            return host.rasterizer.drawDab(centerX: cx, centerY: cy, radius: radius, hardness: hardness,
                                           target: dest).c
        }
        t.mask_rect = { services, mask, x, y, w, h, style in
            guard let host = BrushHost.from(services), let m = HostServices.maskPlane(mask) else { return HostServices.emptyRect }
            guard let style else {
                return HostServices.raising(m) { host.rasterizer.drawRect(x: x, y: y, width: w, height: h, style: nil, target: $0) }
            }
            guard let s = HostServices.strokeStyle(style) else { return HostServices.emptyRect }
            return HostServices.raising(m) { host.rasterizer.drawRect(x: x, y: y, width: w, height: h, style: s, target: $0) }
        }
        t.mask_ellipse = { services, mask, cx, cy, rx, ry, style in
            guard let host = BrushHost.from(services), let m = HostServices.maskPlane(mask) else { return HostServices.emptyRect }
            guard let style else {
                return HostServices.raising(m) {
                    host.rasterizer.drawEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry, style: nil, target: $0)
                }
            }
            guard let s = HostServices.strokeStyle(style) else { return HostServices.emptyRect }
            return HostServices.raising(m) {
                host.rasterizer.drawEllipse(centerX: cx, centerY: cy, radiusX: rx, radiusY: ry, style: s, target: $0)
            }
        }
        t.mask_polyline = { services, mask, xy, count, style in
            guard let host = BrushHost.from(services), let m = HostServices.maskPlane(mask) else { return HostServices.emptyRect }
            return HostServices.raising(m) { HostServices.polyline(host, $0, xy, count, style) }
        }
        t.mask_dab = { services, mask, cx, cy, radius, hardness in
            guard let host = BrushHost.from(services), let m = HostServices.maskPlane(mask) else { return HostServices.emptyRect }
            return HostServices.raising(m) {
                host.rasterizer.drawDab(centerX: cx, centerY: cy, radius: radius, hardness: hardness, target: $0)
            }
        }
        t.composite_mask_pattern = { services, target, mask, rect, paint, pattern, flags in
            guard let pattern else {
                return services?.pointee.composite_mask?(services, target, mask, rect, paint, flags) ?? HostServices.emptyRect
            }
            guard let host = BrushHost.from(services), let plane = HostServices.plane(target),
                  let m = HostServices.maskPlane(mask), let p = HostServices.makePaint(paint),
                  let tile = HostServices.patternTile(pattern) else { return HostServices.emptyRect }
            var base: RGBAPlane?
            if flags & BRISTLE_COMPOSITE_OVER_BASE != 0, let b = target?.pointee.base {
                base = RGBAPlane(base: UnsafeMutablePointer(mutating: b), width: plane.width,
                                 height: plane.height, strideBytes: plane.strideBytes)
            }
            return host.rasterizer.compositeMask(m, rect: PixelRect(rect), pattern: tile, opacity: p.opacity,
                                                 blend: p.blend, onto: plane, base: base).c
        }
        return t
    }

    /// A 1.1 mask service's drawing into `mask`, returning the rectangle of the cells whose
    /// value rose (not the box of the shape's coverage): what the brush must recomposite.
    static func raising(_ mask: MaskPlane, _ draw: (ShapeTarget) -> PixelRect) -> bristle_rect_t {
        let raised = RaisedCells()
        _ = draw(.mask(mask, raised: raised))
        return raised.rect.c
    }

    /// A polyline call: stroke with `style`, or fill the polygon when it is NULL.
    static func polyline(_ host: BrushHost, _ target: ShapeTarget, _ xy: UnsafePointer<Double>?,
                         _ count: UInt32, _ style: UnsafePointer<bristle_stroke_style_t>?) -> PixelRect {
        guard let xy, count >= 1, count <= BRISTLE_MAX_POLYLINE_POINTS else { return .empty }
        let n = Int(count)
        let buffer = UnsafeBufferPointer(start: xy, count: 2 * n)
        guard let sink = CoverageSink(target) else { return .empty }
        guard let style else {
            return host.rasterizer.fillPoints(count: n, sink: sink) { (buffer[2 * $0], buffer[2 * $0 + 1]) }
        }
        guard let s = strokeStyle(style), let stroke = ResolvedStroke(s) else { return .empty }
        let closed = style.pointee.flags & BRISTLE_STROKE_CLOSED != 0
        return s.dashes.withUnsafeBufferPointer { dashes in
            host.rasterizer.strokePoints(xs: xy, ys: xy + 1, stride: 2, count: n, closed: closed, stroke: stroke,
                                         dashes: dashes, phase: s.dashPhase, sink: sink)
        }
    }

    /// The Swift face of a C stroke style, or nil when it breaks its contract (size, width,
    /// dash count, dash pointer).
    static func strokeStyle(_ style: UnsafePointer<bristle_stroke_style_t>) -> StrokeStyle? {
        let s = style.pointee
        guard s.struct_size >= ABILayout.strokeStyle.minimumSize, s.width.isFinite, s.width >= 0,
              s.dash_count <= BRISTLE_MAX_DASHES, s.dash_count == 0 || s.dashes != nil else { return nil }
        let cap: LineCap
        switch s.cap {
        case BRISTLE_CAP_BUTT: cap = .butt
        case BRISTLE_CAP_SQUARE: cap = .square
        default: cap = .round
        }
        let join: LineJoin
        switch s.join {
        case BRISTLE_JOIN_MITER: join = .miter
        case BRISTLE_JOIN_BEVEL: join = .bevel
        default: join = .round
        }
        let dashes = s.dash_count == 0 ? [] : Array(UnsafeBufferPointer(start: s.dashes, count: Int(s.dash_count)))
        return StrokeStyle(width: s.width, cap: cap, join: join,
                           miterLimit: s.miter_limit.isNaN ? 1 : s.miter_limit,
                           dashes: dashes, dashPhase: s.dash_phase)
    }

    /// The pattern's tile, or nil when it breaks the bristle_pattern_t contract.
    static func patternTile(_ pattern: UnsafePointer<bristle_pattern_t>) -> PatternTile? {
        let p = pattern.pointee
        guard p.struct_size >= ABILayout.pattern.minimumSize, p.format == BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED,
              let pixels = p.pixels else { return nil }
        let tile = PatternTile(base: pixels, width: Int(p.width), height: Int(p.height),
                               strideBytes: Int(p.stride_bytes), offsetX: Int(p.offset_x),
                               offsetY: Int(p.offset_y))
        return tile.isValid ? tile : nil
    }

    /// Where a `draw_*` call paints: the target with the paint's colour, or with the pattern.
    static func shapeTarget(_ target: UnsafePointer<bristle_target_t>?, _ paint: UnsafePointer<bristle_paint_t>?,
                            _ pattern: UnsafePointer<bristle_pattern_t>?) -> ShapeTarget? {
        guard let plane = plane(target), let p = makePaint(paint) else { return nil }
        guard let pattern else { return .paint(plane, p) }
        guard let tile = patternTile(pattern) else { return nil }
        return .pattern(plane, tile, opacity: p.opacity, blend: p.blend)
    }

    /// A segment with a 1.1 cap (BUTT or SQUARE) onto `target`; nil for ROUND or unknown caps
    /// (the 1.0 path handles ROUND, unknown draws nothing).
    static func cappedSegment(_ host: BrushHost, _ segment: UnsafePointer<bristle_segment_t>?,
                              _ target: ShapeTarget) -> PixelRect? {
        guard let s = segment?.pointee, s.struct_size >= HostServices.segmentMinimumSize else { return nil }
        let cap: LineCap
        switch s.cap {
        case BRISTLE_CAP_BUTT: cap = .butt
        case BRISTLE_CAP_SQUARE: cap = .square
        default: return nil
        }
        return host.rasterizer.drawSegment(
            TaperedSegment(x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1, width0: s.width0, width1: s.width1),
            cap: cap, target: target)
    }
}
