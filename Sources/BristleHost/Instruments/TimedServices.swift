import CBristle

/// The services table a ``BrushHost`` with a ``HookTimeline`` gives brushes: the table it
/// gave before, each function timed and recorded as a service call (its target layer, the
/// points of a polyline, the rectangle it returned). Installed by ``BrushHost/timeline``.
///
/// The table is followed in memory by the table it forwards to and the host's timeline (not
/// retained: the host holds it), which is how each function (a plain C function pointer)
/// finds them without touching an object: no retain, no exclusivity check per call.
final class TimedServices {
    /// The table brushes get.
    let table: UnsafePointer<bristle_services_t>
    private let memory: UnsafeMutableRawPointer

    /// What follows the table in ``memory``.
    private struct Tail {
        var real: UnsafePointer<bristle_services_t>
        var timeline: Unmanaged<HookTimeline>?
    }

    /// Interposes the table for `host`, forwarding to the table the host gave until now and
    /// recording on `timeline` (see ``record(on:)``).
    init(host: BrushHost, timeline: HookTimeline?) {
        let real = host.cServices
        memory = .allocate(byteCount: Self.tailOffset + MemoryLayout<Tail>.stride, alignment: 16)
        let t = memory.bindMemory(to: bristle_services_t.self, capacity: 1)
        t.initialize(to: Self.interposed(real.pointee))
        table = UnsafePointer(t)
        (memory + Self.tailOffset).bindMemory(to: Tail.self, capacity: 1)
            .initialize(to: Tail(real: real, timeline: timeline.map(Unmanaged.passUnretained)))
        host.interposeServices(table)
    }

    deinit { memory.deallocate() }

    /// Records service calls on `timeline` from now on, or on none; the caller keeps it alive
    /// while it is set.
    func record(on timeline: HookTimeline?) {
        (memory + Self.tailOffset).assumingMemoryBound(to: Tail.self).pointee.timeline = timeline.map(Unmanaged.passUnretained)
    }

    private static let tailOffset = (MemoryLayout<bristle_services_t>.stride + 15) & ~15
    private static let empty = bristle_rect_t(x: 0, y: 0, width: 0, height: 0)

    /// What follows a table made by ``init(host:timeline:)``.
    @inline(__always)
    private static func tail(_ services: UnsafePointer<bristle_services_t>) -> Tail {
        (UnsafeRawPointer(services) + tailOffset).assumingMemoryBound(to: Tail.self).pointee
    }

    private static func layer(_ target: UnsafePointer<bristle_target_t>?) -> HookTimeline.LayerName {
        guard let target else { return .none }
        return target.pointee.layer == BRISTLE_LAYER_PREVIEW ? .preview : .committed
    }

    /// Runs a service returning a rectangle with the real table, recorded on the host's
    /// timeline when it has one.
    private static func via(_ services: UnsafePointer<bristle_services_t>?, _ service: HookTimeline.Name,
                            _ target: UnsafePointer<bristle_target_t>?, points: Int = 0, otherwise: bristle_rect_t,
                            _ body: (UnsafePointer<bristle_services_t>) -> bristle_rect_t) -> bristle_rect_t {
        guard let services else { return otherwise }
        let tail = tail(services)
        guard let timeline = tail.timeline else { return body(tail.real) }
        return timeline._withUnsafeGuaranteedRef { timeline in
            let start = timeline.now()
            let r = body(tail.real)
            timeline.record(service, since: start, samples: points, layer: layer(target),
                            serviceRect: PixelRect(x: r.x, y: r.y, width: max(r.width, 0), height: max(r.height, 0)))
            return r
        }
    }

    /// The same for a service returning nothing.
    private static func via(_ services: UnsafePointer<bristle_services_t>?, _ service: HookTimeline.Name,
                            _ target: UnsafePointer<bristle_target_t>?, otherwise: Void,
                            _ body: (UnsafePointer<bristle_services_t>) -> Void) {
        guard let services else { return }
        let tail = tail(services)
        guard let timeline = tail.timeline else { return body(tail.real) }
        timeline._withUnsafeGuaranteedRef { timeline in
            let start = timeline.now()
            body(tail.real)
            timeline.record(service, since: start, layer: layer(target))
        }
    }

    /// `table` with every function the host provides replaced by one that records first.
    private static func interposed(_ real: bristle_services_t) -> bristle_services_t {
        var t = real
        if real.fill_segment != nil {
            t.fill_segment = { s, target, segment, paint in
                TimedServices.via(s, .fillSegment, target, otherwise: TimedServices.empty) { $0.pointee.fill_segment!($0, target, segment, paint) }
            }
        }
        if real.fill_disc != nil {
            t.fill_disc = { s, target, cx, cy, radius, paint in
                TimedServices.via(s, .fillDisc, target, otherwise: TimedServices.empty) { $0.pointee.fill_disc!($0, target, cx, cy, radius, paint) }
            }
        }
        if real.mask_segment != nil {
            t.mask_segment = { s, mask, segment in
                TimedServices.via(s, .maskSegment, nil, otherwise: TimedServices.empty) { $0.pointee.mask_segment!($0, mask, segment) }
            }
        }
        if real.mask_disc != nil {
            t.mask_disc = { s, mask, cx, cy, radius in
                TimedServices.via(s, .maskDisc, nil, otherwise: TimedServices.empty) { $0.pointee.mask_disc!($0, mask, cx, cy, radius) }
            }
        }
        if real.clear_mask != nil {
            t.clear_mask = { s, mask, rect in
                TimedServices.via(s, .clearMask, nil, otherwise: ()) { $0.pointee.clear_mask!($0, mask, rect) }
            }
        }
        if real.composite_mask != nil {
            t.composite_mask = { s, target, mask, rect, paint, flags in
                TimedServices.via(s, .compositeMask, target, otherwise: TimedServices.empty) { $0.pointee.composite_mask!($0, target, mask, rect, paint, flags) }
            }
        }
        if real.draw_rect != nil {
            t.draw_rect = { s, target, x, y, w, h, style, paint, pattern in
                TimedServices.via(s, .drawRect, target, otherwise: TimedServices.empty) { $0.pointee.draw_rect!($0, target, x, y, w, h, style, paint, pattern) }
            }
        }
        if real.draw_ellipse != nil {
            t.draw_ellipse = { s, target, cx, cy, rx, ry, style, paint, pattern in
                TimedServices.via(s, .drawEllipse, target, otherwise: TimedServices.empty) { $0.pointee.draw_ellipse!($0, target, cx, cy, rx, ry, style, paint, pattern) }
            }
        }
        if real.draw_polyline != nil {
            t.draw_polyline = { s, target, xy, count, style, paint, pattern in
                TimedServices.via(s, .drawPolyline, target, points: Int(count), otherwise: TimedServices.empty) { $0.pointee.draw_polyline!($0, target, xy, count, style, paint, pattern) }
            }
        }
        if real.draw_dab != nil {
            t.draw_dab = { s, target, cx, cy, radius, hardness, paint, pattern in
                TimedServices.via(s, .drawDab, target, otherwise: TimedServices.empty) { $0.pointee.draw_dab!($0, target, cx, cy, radius, hardness, paint, pattern) }
            }
        }
        if real.mask_rect != nil {
            t.mask_rect = { s, mask, x, y, w, h, style in
                TimedServices.via(s, .maskRect, nil, otherwise: TimedServices.empty) { $0.pointee.mask_rect!($0, mask, x, y, w, h, style) }
            }
        }
        if real.mask_ellipse != nil {
            t.mask_ellipse = { s, mask, cx, cy, rx, ry, style in
                TimedServices.via(s, .maskEllipse, nil, otherwise: TimedServices.empty) { $0.pointee.mask_ellipse!($0, mask, cx, cy, rx, ry, style) }
            }
        }
        if real.mask_polyline != nil {
            t.mask_polyline = { s, mask, xy, count, style in
                TimedServices.via(s, .maskPolyline, nil, points: Int(count), otherwise: TimedServices.empty) { $0.pointee.mask_polyline!($0, mask, xy, count, style) }
            }
        }
        if real.mask_dab != nil {
            t.mask_dab = { s, mask, cx, cy, radius, hardness in
                TimedServices.via(s, .maskDab, nil, otherwise: TimedServices.empty) { $0.pointee.mask_dab!($0, mask, cx, cy, radius, hardness) }
            }
        }
        if real.composite_mask_pattern != nil {
            t.composite_mask_pattern = { s, target, mask, rect, paint, pattern, flags in
                TimedServices.via(s, .compositeMaskPattern, target, otherwise: TimedServices.empty) { $0.pointee.composite_mask_pattern!($0, target, mask, rect, paint, pattern, flags) }
            }
        }
        return t
    }
}
