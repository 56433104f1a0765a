import BristleHost

/// The services table the harness hands to brushes (in every target and in the host struct):
/// the host's own functions, each of which first checks that the draw in progress has left the
/// sentinels around its buffers intact. A brush that writes into the stride padding, calls a
/// service, and restores the padding before `draw` returns is caught here, where the check
/// after the draw alone would see nothing.
///
/// The table is followed in memory by a pointer back to this object, which is how each
/// function (a plain C function pointer) finds it.
final class CheckedServices {
    /// The table brushes get.
    let table: UnsafePointer<bristle_services_t>
    private let memory: UnsafeMutableRawPointer
    private let real: UnsafePointer<bristle_services_t>

    /// The buffers of the draw in progress (empty between draws) and its description.
    var watched: [GuardedCanvas] = []
    var call = ""
    /// The first damage a service call found, with the call and the service; cleared by ``takeFailure()``.
    private var failure: String?

    /// Interposes the table for `host` (``BrushHost/interposeServices(_:)``), so brushes created
    /// afterwards see only this table; it forwards to whatever table the host gave until now
    /// (its own, or another checker's).
    init(host: BrushHost) {
        real = host.cServices
        let size = MemoryLayout<bristle_services_t>.stride
        memory = .allocate(byteCount: size + MemoryLayout<UnsafeRawPointer>.stride, alignment: 16)
        let t = memory.bindMemory(to: bristle_services_t.self, capacity: 1)
        t.initialize(to: Self.interposed(real.pointee))
        table = UnsafePointer(t)
        (memory + size).storeBytes(of: Unmanaged.passUnretained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
        host.interposeServices(table)
    }

    deinit { memory.deallocate() }

    /// The damage a service call found during the last draw, if any, and forgets it.
    func takeFailure() -> String? {
        defer { failure = nil }
        return failure
    }

    private static let empty = bristle_rect_t(x: 0, y: 0, width: 0, height: 0)

    /// Checks the watched buffers of the object behind `services`, then runs `body` with the
    /// host's real table; `otherwise` (what the host returns) for a NULL table.
    private static func via<R>(_ services: UnsafePointer<bristle_services_t>?, _ service: String, otherwise: R,
                               _ body: (UnsafePointer<bristle_services_t>) -> R) -> R {
        guard let services else { return otherwise }
        let me = Unmanaged<CheckedServices>.fromOpaque(
            (UnsafeRawPointer(services) + MemoryLayout<bristle_services_t>.stride).load(as: UnsafeMutableRawPointer.self)
        ).takeUnretainedValue()
        if me.failure == nil {
            for canvas in me.watched {
                guard let damage = canvas.damage() else { continue }
                me.failure = "\(me.call) wrote outside the pixels of the \(canvas.name) buffer before calling services->\(service): \(damage)"
                break
            }
        }
        return body(me.real)
    }

    /// `table` with every function the host provides replaced by one that checks first.
    private static func interposed(_ real: bristle_services_t) -> bristle_services_t {
        var t = real
        if real.fill_segment != nil {
            t.fill_segment = { s, target, segment, paint in
                CheckedServices.via(s, "fill_segment", otherwise: CheckedServices.empty) { $0.pointee.fill_segment!($0, target, segment, paint) }
            }
        }
        if real.fill_disc != nil {
            t.fill_disc = { s, target, cx, cy, radius, paint in
                CheckedServices.via(s, "fill_disc", otherwise: CheckedServices.empty) { $0.pointee.fill_disc!($0, target, cx, cy, radius, paint) }
            }
        }
        if real.mask_segment != nil {
            t.mask_segment = { s, mask, segment in
                CheckedServices.via(s, "mask_segment", otherwise: CheckedServices.empty) { $0.pointee.mask_segment!($0, mask, segment) }
            }
        }
        if real.mask_disc != nil {
            t.mask_disc = { s, mask, cx, cy, radius in
                CheckedServices.via(s, "mask_disc", otherwise: CheckedServices.empty) { $0.pointee.mask_disc!($0, mask, cx, cy, radius) }
            }
        }
        if real.clear_mask != nil {
            t.clear_mask = { s, mask, rect in
                CheckedServices.via(s, "clear_mask", otherwise: ()) { $0.pointee.clear_mask!($0, mask, rect) }
            }
        }
        if real.composite_mask != nil {
            t.composite_mask = { s, target, mask, rect, paint, flags in
                CheckedServices.via(s, "composite_mask", otherwise: CheckedServices.empty) { $0.pointee.composite_mask!($0, target, mask, rect, paint, flags) }
            }
        }
        if real.draw_rect != nil {
            t.draw_rect = { s, target, x, y, w, h, style, paint, pattern in
                CheckedServices.via(s, "draw_rect", otherwise: CheckedServices.empty) { $0.pointee.draw_rect!($0, target, x, y, w, h, style, paint, pattern) }
            }
        }
        if real.draw_ellipse != nil {
            t.draw_ellipse = { s, target, cx, cy, rx, ry, style, paint, pattern in
                CheckedServices.via(s, "draw_ellipse", otherwise: CheckedServices.empty) { $0.pointee.draw_ellipse!($0, target, cx, cy, rx, ry, style, paint, pattern) }
            }
        }
        if real.draw_polyline != nil {
            t.draw_polyline = { s, target, xy, count, style, paint, pattern in
                CheckedServices.via(s, "draw_polyline", otherwise: CheckedServices.empty) { $0.pointee.draw_polyline!($0, target, xy, count, style, paint, pattern) }
            }
        }
        if real.draw_dab != nil {
            t.draw_dab = { s, target, cx, cy, radius, hardness, paint, pattern in
                CheckedServices.via(s, "draw_dab", otherwise: CheckedServices.empty) { $0.pointee.draw_dab!($0, target, cx, cy, radius, hardness, paint, pattern) }
            }
        }
        if real.mask_rect != nil {
            t.mask_rect = { s, mask, x, y, w, h, style in
                CheckedServices.via(s, "mask_rect", otherwise: CheckedServices.empty) { $0.pointee.mask_rect!($0, mask, x, y, w, h, style) }
            }
        }
        if real.mask_ellipse != nil {
            t.mask_ellipse = { s, mask, cx, cy, rx, ry, style in
                CheckedServices.via(s, "mask_ellipse", otherwise: CheckedServices.empty) { $0.pointee.mask_ellipse!($0, mask, cx, cy, rx, ry, style) }
            }
        }
        if real.mask_polyline != nil {
            t.mask_polyline = { s, mask, xy, count, style in
                CheckedServices.via(s, "mask_polyline", otherwise: CheckedServices.empty) { $0.pointee.mask_polyline!($0, mask, xy, count, style) }
            }
        }
        if real.mask_dab != nil {
            t.mask_dab = { s, mask, cx, cy, radius, hardness in
                CheckedServices.via(s, "mask_dab", otherwise: CheckedServices.empty) { $0.pointee.mask_dab!($0, mask, cx, cy, radius, hardness) }
            }
        }
        if real.composite_mask_pattern != nil {
            t.composite_mask_pattern = { s, target, mask, rect, paint, pattern, flags in
                CheckedServices.via(s, "composite_mask_pattern", otherwise: CheckedServices.empty) { $0.pointee.composite_mask_pattern!($0, target, mask, rect, paint, pattern, flags) }
            }
        }
        return t
    }
}
