import CBristle

/// The host's anti-aliased drawing services (`bristle_services_t`) as safe calls. Every call
/// clips to its target or mask and returns the rectangle it changed; a service the host does
/// not provide draws nothing and returns an empty rectangle.
///
/// The 1.0 services (segments, discs, masks, compositing) are in every host. The 1.1 ones
/// (rectangles, ellipses, polylines, dabs, patterns, butt and square caps) are read only when
/// the host's table is long enough to hold them (the C rule `BRISTLE_HAS_FIELD`): ask
/// ``provides(_:)`` to choose a fallback on an older host.
public struct Services: @unchecked Sendable {
    /// The services a host may offer, named after their C functions.
    public enum Service: Sendable, CaseIterable {
        case fillSegment, fillDisc, maskSegment, maskDisc, compositeMask
        /// `BRISTLE_CAP_BUTT` and `BRISTLE_CAP_SQUARE` in `fill_segment` and `mask_segment`
        /// (a 1.0 host draws nothing for them).
        case segmentCaps
        case drawRect, drawEllipse, drawPolyline, drawDab
        case maskRect, maskEllipse, maskPolyline, maskDab
        case compositeMaskPattern
    }

    let table: UnsafePointer<bristle_services_t>?

    init(_ table: UnsafePointer<bristle_services_t>?) { self.table = table }

    /// True when the host's table holds `service` (its `struct_size` covers the function and
    /// the function is set).
    public func provides(_ service: Service) -> Bool {
        switch service {
        case .fillSegment: function(\.fill_segment) != nil
        case .fillDisc: function(\.fill_disc) != nil
        case .maskSegment: function(\.mask_segment) != nil
        case .maskDisc: function(\.mask_disc) != nil
        case .compositeMask: function(\.composite_mask) != nil
        case .segmentCaps: function(\.draw_rect) != nil  // arrived with the 1.1 services
        case .drawRect: function(\.draw_rect) != nil
        case .drawEllipse: function(\.draw_ellipse) != nil
        case .drawPolyline: function(\.draw_polyline) != nil
        case .drawDab: function(\.draw_dab) != nil
        case .maskRect: function(\.mask_rect) != nil
        case .maskEllipse: function(\.mask_ellipse) != nil
        case .maskPolyline: function(\.mask_polyline) != nil
        case .maskDab: function(\.mask_dab) != nil
        case .compositeMaskPattern: function(\.composite_mask_pattern) != nil
        }
    }

    /// The function in `field` when the table holds it, reading nothing beyond the host's
    /// `struct_size` (`BRISTLE_HAS_FIELD`).
    func function<F>(_ field: KeyPath<bristle_services_t, F?>) -> F? {
        guard let table, let offset = MemoryLayout<bristle_services_t>.offset(of: field),
              Int(table.pointee.struct_size) >= offset + MemoryLayout<F?>.size else { return nil }
        return UnsafeRawPointer(table).load(fromByteOffset: offset, as: F?.self)
    }

    /// Calls `body` with the table and the function in `field`, or returns an empty rectangle
    /// when the host does not provide it.
    func call<F>(_ field: KeyPath<bristle_services_t, F?>,
                 _ body: (UnsafePointer<bristle_services_t>, F) -> bristle_rect_t) -> Rect {
        guard let table, let f = function(field) else { return .empty }
        return Rect(body(table, f))
    }

    /// The C segment; `nil` when the cap needs a service the host lacks.
    func segment(_ start: (x: Double, y: Double), _ end: (x: Double, y: Double), _ startWidth: Double,
                 _ endWidth: Double, _ cap: StrokeStyle.Cap) -> bristle_segment_t? {
        guard cap == .round || provides(.segmentCaps) else { return nil }
        return bristle_segment_t(struct_size: UInt32(MemoryLayout<bristle_segment_t>.size), cap: cap.c,
                                 x0: start.x, y0: start.y, x1: end.x, y1: end.y, width0: startWidth, width1: endWidth)
    }

    /// Raises `mask` to the coverage of a segment whose diameter goes from `startWidth` to
    /// `endWidth` (`mask_segment`; butt and square caps need ``Service/segmentCaps``).
    /// Returns the cells it may have raised.
    @discardableResult
    public func addSegment(to mask: CoverageMask, from start: (x: Double, y: Double), to end: (x: Double, y: Double),
                           startWidth: Double, endWidth: Double, cap: StrokeStyle.Cap = .round) -> Rect {
        guard var s = segment(start, end, startWidth, endWidth, cap) else { return .empty }
        return mask.accumulate { m in call(\.mask_segment) { table, f in f(table, m, &s) } }
    }

    /// Raises `mask` to the coverage of a disc (`mask_disc`).
    @discardableResult
    public func addDisc(to mask: CoverageMask, x: Double, y: Double, radius: Double) -> Rect {
        mask.accumulate { m in call(\.mask_disc) { table, f in f(table, m, x, y, radius) } }
    }

    /// Raises `mask` to `draw_rect`'s coverage (`mask_rect`): the rectangle with corners (x, y)
    /// and (x + width, y + height), filled when `style` is nil, else its outline stroked.
    /// Returns a rectangle holding every cell it raised: this host's is the smallest (empty
    /// when none rose), another may return the box of the cells the shape covers.
    @discardableResult
    public func addRect(to mask: CoverageMask, x: Double, y: Double, width: Double, height: Double,
                        style: StrokeStyle? = nil) -> Rect {
        StrokeStyle.withC(style) { s in
            mask.accumulate { m in call(\.mask_rect) { table, f in f(table, m, x, y, width, height, s) } }
        }
    }

    /// Raises `mask` to `draw_ellipse`'s coverage (`mask_ellipse`). Returns the cells it raised
    /// (see ``addRect(to:x:y:width:height:style:)``).
    @discardableResult
    public func addEllipse(to mask: CoverageMask, x: Double, y: Double, radiusX: Double, radiusY: Double,
                           style: StrokeStyle? = nil) -> Rect {
        StrokeStyle.withC(style) { s in
            mask.accumulate { m in call(\.mask_ellipse) { table, f in f(table, m, x, y, radiusX, radiusY, s) } }
        }
    }

    /// Raises `mask` to `draw_polyline`'s coverage (`mask_polyline`): the polyline stroked with
    /// `style`, or the filled polygon when `style` is nil. Returns the cells it raised (see
    /// ``addRect(to:x:y:width:height:style:)``).
    @discardableResult
    public func addPolyline(to mask: CoverageMask, _ points: [(x: Double, y: Double)],
                            style: StrokeStyle? = nil) -> Rect {
        Services.withPoints(points) { xy, count in
            StrokeStyle.withC(style) { s in
                mask.accumulate { m in call(\.mask_polyline) { table, f in f(table, m, xy, count, s) } }
            }
        }
    }

    /// Raises `mask` to `draw_dab`'s coverage (`mask_dab`). Returns the cells it raised (see
    /// ``addRect(to:x:y:width:height:style:)``).
    @discardableResult
    public func addDab(to mask: CoverageMask, x: Double, y: Double, radius: Double, hardness: Double) -> Rect {
        mask.accumulate { m in call(\.mask_dab) { table, f in f(table, m, x, y, radius, hardness) } }
    }

    /// Calls `body` with the points as the flat C array (x0, y0, x1, y1, ...) and their count,
    /// or returns an empty rectangle for an empty list or one beyond
    /// `BRISTLE_MAX_POLYLINE_POINTS` (the host would draw nothing).
    static func withPoints(_ points: [(x: Double, y: Double)],
                           _ body: (UnsafePointer<Double>, UInt32) -> Rect) -> Rect {
        guard !points.isEmpty, points.count <= Int(BRISTLE_MAX_POLYLINE_POINTS) else { return .empty }
        var xy: [Double] = []
        xy.reserveCapacity(2 * points.count)
        for p in points {
            xy.append(p.x)
            xy.append(p.y)
        }
        return xy.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return .empty }
            return body(base, UInt32(points.count))
        }
    }
}
