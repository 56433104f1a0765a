import BristleHost

/// A services table that looks at the versioned structs a brush passes to the host's drawing
/// services (`bristle_paint_t`, `bristle_segment_t`, `bristle_stroke_style_t`,
/// `bristle_pattern_t`) and forwards every call, unchanged, to the host's own table. Installed
/// with ``BrushHost/interposeServices(_:)`` before the brush is created, it sees calls made
/// through `host->services` and through `target->services` alike.
///
/// A `struct_size` that no published ABI version defines (``ABIStruct/sizeProblem(_:declaredMinor:)``)
/// is noted once per struct and size, naming the service: a brush that mirrors a struct with a
/// field too few draws nothing, and this says why.
final class ServicesSpy {
    /// The brush's declared ABI minor, which decides what sizes are right.
    let declaredMinor: UInt32
    /// What was wrong, in the order first seen.
    private(set) var problems: [String] = []
    private var seen: Set<String> = []
    private let host: BrushHost
    private let real: UnsafePointer<bristle_services_t>
    private let table: UnsafeMutablePointer<bristle_services_t>

    /// Interposes a spy between `host` and the brushes created from now on.
    init(host: BrushHost, declaredMinor: UInt32) {
        self.host = host
        self.declaredMinor = declaredMinor
        real = host.ownServices
        table = .allocate(capacity: 1)
        table.initialize(to: Self.forwarding)
        table.pointee.host_data = Unmanaged.passUnretained(self).toOpaque()
        host.interposeServices(table)
    }

    deinit {
        host.interposeServices(host.ownServices)
        table.deallocate()
    }

    /// Notes the struct at `pointer` (NULL is the service's business, not a layout problem).
    private func note<T>(_ pointer: UnsafePointer<T>?, _ layout: ABIStruct, _ service: String) {
        guard let pointer else { return }
        let size = UnsafeRawPointer(pointer).load(as: UInt32.self)
        guard let problem = layout.sizeProblem(size, declaredMinor: declaredMinor),
              seen.insert("\(layout.name) \(size)").inserted else { return }
        problems.append("the \(layout.name) the brush passed to \(service): \(problem)")
    }

    private static func of(_ services: UnsafePointer<bristle_services_t>?) -> ServicesSpy {
        Unmanaged<ServicesSpy>.fromOpaque(services!.pointee.host_data!).takeUnretainedValue()
    }

    /// Each function notes its structs and calls the host's own function with the host's table.
    private static var forwarding: bristle_services_t { bristle_services_t(
        struct_size: UInt32(MemoryLayout<bristle_services_t>.size), reserved: 0, host_data: nil,
        fill_segment: { s, t, segment, paint in
            let spy = ServicesSpy.of(s)
            spy.note(segment, ABILayout.segment, "fill_segment")
            spy.note(paint, ABILayout.paint, "fill_segment")
            return spy.real.pointee.fill_segment!(spy.real, t, segment, paint)
        },
        fill_disc: { s, t, cx, cy, r, paint in
            let spy = ServicesSpy.of(s)
            spy.note(paint, ABILayout.paint, "fill_disc")
            return spy.real.pointee.fill_disc!(spy.real, t, cx, cy, r, paint)
        },
        mask_segment: { s, mask, segment in
            let spy = ServicesSpy.of(s)
            spy.note(segment, ABILayout.segment, "mask_segment")
            return spy.real.pointee.mask_segment!(spy.real, mask, segment)
        },
        mask_disc: { s, mask, cx, cy, r in
            let spy = ServicesSpy.of(s)
            return spy.real.pointee.mask_disc!(spy.real, mask, cx, cy, r)
        },
        clear_mask: { s, mask, rect in
            let spy = ServicesSpy.of(s)
            spy.real.pointee.clear_mask!(spy.real, mask, rect)
        },
        composite_mask: { s, t, mask, rect, paint, flags in
            let spy = ServicesSpy.of(s)
            spy.note(paint, ABILayout.paint, "composite_mask")
            return spy.real.pointee.composite_mask!(spy.real, t, mask, rect, paint, flags)
        },
        draw_rect: { s, t, x, y, w, h, style, paint, pattern in
            let spy = ServicesSpy.of(s)
            spy.noteShape(style, paint, pattern, "draw_rect")
            return spy.real.pointee.draw_rect!(spy.real, t, x, y, w, h, style, paint, pattern)
        },
        draw_ellipse: { s, t, cx, cy, rx, ry, style, paint, pattern in
            let spy = ServicesSpy.of(s)
            spy.noteShape(style, paint, pattern, "draw_ellipse")
            return spy.real.pointee.draw_ellipse!(spy.real, t, cx, cy, rx, ry, style, paint, pattern)
        },
        draw_polyline: { s, t, xy, count, style, paint, pattern in
            let spy = ServicesSpy.of(s)
            spy.noteShape(style, paint, pattern, "draw_polyline")
            return spy.real.pointee.draw_polyline!(spy.real, t, xy, count, style, paint, pattern)
        },
        draw_dab: { s, t, cx, cy, r, hardness, paint, pattern in
            let spy = ServicesSpy.of(s)
            spy.noteShape(nil, paint, pattern, "draw_dab")
            return spy.real.pointee.draw_dab!(spy.real, t, cx, cy, r, hardness, paint, pattern)
        },
        mask_rect: { s, mask, x, y, w, h, style in
            let spy = ServicesSpy.of(s)
            spy.note(style, ABILayout.strokeStyle, "mask_rect")
            return spy.real.pointee.mask_rect!(spy.real, mask, x, y, w, h, style)
        },
        mask_ellipse: { s, mask, cx, cy, rx, ry, style in
            let spy = ServicesSpy.of(s)
            spy.note(style, ABILayout.strokeStyle, "mask_ellipse")
            return spy.real.pointee.mask_ellipse!(spy.real, mask, cx, cy, rx, ry, style)
        },
        mask_polyline: { s, mask, xy, count, style in
            let spy = ServicesSpy.of(s)
            spy.note(style, ABILayout.strokeStyle, "mask_polyline")
            return spy.real.pointee.mask_polyline!(spy.real, mask, xy, count, style)
        },
        mask_dab: { s, mask, cx, cy, r, hardness in
            let spy = ServicesSpy.of(s)
            return spy.real.pointee.mask_dab!(spy.real, mask, cx, cy, r, hardness)
        },
        composite_mask_pattern: { s, t, mask, rect, paint, pattern, flags in
            let spy = ServicesSpy.of(s)
            spy.noteShape(nil, paint, pattern, "composite_mask_pattern")
            return spy.real.pointee.composite_mask_pattern!(spy.real, t, mask, rect, paint, pattern, flags)
        }) }

    private func noteShape(_ style: UnsafePointer<bristle_stroke_style_t>?, _ paint: UnsafePointer<bristle_paint_t>?,
                           _ pattern: UnsafePointer<bristle_pattern_t>?, _ service: String) {
        note(style, ABILayout.strokeStyle, service)
        note(paint, ABILayout.paint, service)
        note(pattern, ABILayout.pattern, service)
    }
}
