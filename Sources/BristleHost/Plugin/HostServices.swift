import CBristle

/// The C functions of the `bristle_services_t` table (the 1.1 additions are in
/// HostServices+Shapes.swift). Each validates what the brush passed
/// (format, sizes, struct sizes, enum values) and forwards to the host's ``Rasterizer``;
/// anything invalid draws nothing and returns an empty rectangle.
enum HostServices {
    static let emptyRect = bristle_rect_t(x: 0, y: 0, width: 0, height: 0)

    /// ``ABILayout/segment``'s and ``ABILayout/target``'s `minimumSize` as constants for the
    /// services a brush calls per segment: ``ABILayout``'s structs are `static let`s, and on Linux
    /// every read of one calls `swift_once` (two per pencil event). `ShapeServicesTests` checks
    /// they equal ``ABILayout``'s.
    static var segmentMinimumSize: UInt32 { 56 }
    static var targetMinimumSize: UInt32 { 56 }

    /// The table, minus `host_data`, which ``BrushHost`` fills in.
    static var table: bristle_services_t { withShapeServices(bristle_services_t(
        struct_size: UInt32(MemoryLayout<bristle_services_t>.size), reserved: 0, host_data: nil,
        fill_segment: { services, target, segment, paint in
            HostServices.withHost(services) { host in
                guard let plane = HostServices.plane(target), let p = host.paintCache.paint(paint) else {
                    return HostServices.emptyRect
                }
                // Round caps (a brush's strokes) first: the other caps are the shape services'.
                if let s = HostServices.taperedSegment(segment) {
                    return host.rasterizer.fillSegment(s, paint: p, into: plane).c
                }
                return HostServices.cappedSegment(host, segment, .paint(plane, p))?.c ?? HostServices.emptyRect
            }
        },
        fill_disc: { services, target, cx, cy, radius, paint in
            guard let host = BrushHost.from(services), let plane = HostServices.plane(target),
                  let p = host.paintCache.paint(paint) else { return HostServices.emptyRect }
            return host.rasterizer.fillDisc(centerX: cx, centerY: cy, radius: radius, paint: p,
                                            into: plane).c
        },
        mask_segment: { services, mask, segment in
            HostServices.withHost(services) { host in
                guard let m = HostServices.maskPlane(mask) else { return HostServices.emptyRect }
                if let s = HostServices.taperedSegment(segment) { return host.rasterizer.maskSegment(s, into: m).c }
                return HostServices.cappedSegment(host, segment, .mask(m))?.c ?? HostServices.emptyRect
            }
        },
        mask_disc: { services, mask, cx, cy, radius in
            guard let host = BrushHost.from(services), let m = HostServices.maskPlane(mask) else { return HostServices.emptyRect }
            return host.rasterizer.maskDisc(centerX: cx, centerY: cy, radius: radius, into: m).c
        },
        clear_mask: { _, mask, rect in
            HostServices.maskPlane(mask)?.clear(PixelRect(rect))
        },
        composite_mask: { services, target, mask, rect, paint, flags in
            HostServices.withHost(services) { host in
                guard let plane = HostServices.plane(target), let m = HostServices.maskPlane(mask),
                      let p = host.paintCache.paint(paint) else { return HostServices.emptyRect }
                var base: RGBAPlane?
                if flags & BRISTLE_COMPOSITE_OVER_BASE != 0, let b = target?.pointee.base {
                    base = RGBAPlane(base: UnsafeMutablePointer(mutating: b), width: plane.width,
                                     height: plane.height, strideBytes: plane.strideBytes)
                }
                return host.rasterizer.compositeMask(m, rect: PixelRect(rect), paint: p, onto: plane,
                                                     base: base).c
            }
        },
        draw_rect: nil, draw_ellipse: nil, draw_polyline: nil, draw_dab: nil, mask_rect: nil,
        mask_ellipse: nil, mask_polyline: nil, mask_dab: nil, composite_mask_pattern: nil)) }

    /// `body(host)` for the host behind `services`, borrowed without a retain and release (the
    /// host owns the table and outlives every call into it); ``emptyRect`` without a host. For
    /// the services a brush calls per segment.
    @inline(__always)
    static func withHost(_ services: UnsafePointer<bristle_services_t>?,
                         _ body: (BrushHost) -> bristle_rect_t) -> bristle_rect_t {
        guard let data = services?.pointee.host_data else { return emptyRect }
        return Unmanaged<BrushHost>.fromOpaque(data)._withUnsafeGuaranteedRef(body)
    }

    /// The target's pixels, or nil when the target breaks the pixel contract.
    static func plane(_ target: UnsafePointer<bristle_target_t>?) -> RGBAPlane? {
        guard let t = target?.pointee, t.struct_size >= targetMinimumSize,
              t.format == BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED, let pixels = t.pixels,
              t.width > 0, t.height > 0, Int(t.stride_bytes) >= Int(t.width) * 4 else { return nil }
        return RGBAPlane(base: pixels, width: Int(t.width), height: Int(t.height),
                         strideBytes: Int(t.stride_bytes))
    }

    static func maskPlane(_ mask: UnsafePointer<bristle_mask_t>?) -> MaskPlane? {
        guard let m = mask?.pointee, let data = m.data, m.width > 0, m.height > 0,
              m.stride_bytes >= m.width else { return nil }
        return MaskPlane(base: data, width: Int(m.width), height: Int(m.height),
                         strideBytes: Int(m.stride_bytes))
    }

    static func taperedSegment(_ segment: UnsafePointer<bristle_segment_t>?) -> TaperedSegment? {
        guard let s = segment?.pointee,
              s.struct_size >= segmentMinimumSize,
              s.cap == BRISTLE_CAP_ROUND else { return nil }
        return TaperedSegment(x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1, width0: s.width0, width1: s.width1)
    }

    static func makePaint(_ paint: UnsafePointer<bristle_paint_t>?) -> Paint? {
        guard let p = paint?.pointee, p.struct_size >= ABILayout.paint.minimumSize,
              p.opacity.isFinite else { return nil }
        let blend: BlendMode
        switch p.blend {
        case BRISTLE_BLEND_SRC_OVER: blend = .sourceOver
        case BRISTLE_BLEND_ERASE: blend = .erase
        default: return nil
        }
        let c = p.color
        return Paint(color: RGBAColor(red: c.r, green: c.g, blue: c.b, alpha: c.a),
                     opacity: min(max(p.opacity, 0), 1), blend: blend)
    }
}

extension PixelRect {
    /// The Swift face of a C rectangle.
    init(_ r: bristle_rect_t) { self.init(x: r.x, y: r.y, width: r.width, height: r.height) }

    /// The C face of this rectangle.
    var c: bristle_rect_t { bristle_rect_t(x: x, y: y, width: width, height: height) }
}
