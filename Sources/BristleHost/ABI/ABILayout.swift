import CBristle

/// The ABI this host was compiled against, as data: every struct with its fields (offset, size,
/// C type, the minor that added it), every published minor's struct sizes, and the constants.
/// `bristle abi --json` prints it (``ABIReport``); the loader, the drawing session and the
/// conformance harness take their per-version sizes from it; bindings in other languages test
/// their layouts against its output. The tests compare it with `sizeof`, `_Alignof` and
/// `offsetof` from a C program compiled against the header, and the sizes of 1.0 and 1.1 with
/// those headers taken from history.
public enum ABILayout {
    /// This host's ABI minor (major 1).
    public static let hostMinor: UInt32 = BRISTLE_VERSION_MINOR
    /// Every published minor of major 1, oldest first: 1.0, 1.1, ... up to this host's.
    public static let publishedMinors = Array(0...BRISTLE_VERSION_MINOR)
    /// The version as "major.minor.patch".
    public static let versionString = "\(BRISTLE_VERSION_MAJOR).\(BRISTLE_VERSION_MINOR).\(BRISTLE_VERSION_PATCH)"

    /// The size of `bristle_sample_t` a host passes to a brush that declares ABI minor
    /// `declaredMinor`: its size in min(declared minor, host minor) (the stride rule).
    public static func sampleSize(forDeclaredMinor declaredMinor: UInt32) -> Int {
        sample.size(inMinor: min(declaredMinor, hostMinor)) ?? sample.size
    }

    // MARK: Structs, in header order

    public static let version = ABIStruct(bristle_version_t.self, "bristle_version_t") { f in [
        f(\.major, "major", "uint32_t"), f(\.minor, "minor", "uint32_t"), f(\.patch, "patch", "uint32_t"),
    ] }

    public static let rect = ABIStruct(bristle_rect_t.self, "bristle_rect_t") { f in [
        f(\.x, "x", "int32_t"), f(\.y, "y", "int32_t"), f(\.width, "width", "int32_t"),
        f(\.height, "height", "int32_t"),
    ] }

    public static let color = ABIStruct(bristle_color_t.self, "bristle_color_t") { f in [
        f(\.r, "r", "float"), f(\.g, "g", "float"), f(\.b, "b", "float"), f(\.a, "a", "float"),
    ] }

    public static let sample = ABIStruct(bristle_sample_t.self, "bristle_sample_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.flags, "flags", "uint32_t"),
        f(\.t, "t", "double"), f(\.x, "x", "double"), f(\.y, "y", "double"),
        f(\.pressure, "pressure", "float"), f(\.force, "force", "float"),
        f(\.max_force, "max_force", "float"), f(\.altitude, "altitude", "float"),
        f(\.azimuth, "azimuth", "float"), f(\.tilt_x, "tilt_x", "float"), f(\.tilt_y, "tilt_y", "float"),
        f(\.twist, "twist", "float"), f(\.tangential_pressure, "tangential_pressure", "float"),
        f(\.width, "width", "float"), f(\.height, "height", "float"),
        f(\.pointer_type, "pointer_type", "uint32_t"), f(\.buttons, "buttons", "uint32_t"),
        f(\.pointer_id, "pointer_id", "uint32_t"),
    ] }

    public static let strokeContext = ABIStruct(bristle_stroke_context_t.self, "bristle_stroke_context_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.device_flags, "device_flags", "uint32_t"),
        f(\.color, "color", "bristle_color_t"), f(\.width, "width", "float"), f(\.scale, "scale", "float"),
        f(\.seed, "seed", "uint64_t"), f(\.pointer_type, "pointer_type", "uint32_t"),
        f(\.max_force, "max_force", "float"), f(\.canvas_width, "canvas_width", "int32_t"),
        f(\.canvas_height, "canvas_height", "int32_t"),
    ] }

    public static let paint = ABIStruct(bristle_paint_t.self, "bristle_paint_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.blend, "blend", "uint32_t"),
        f(\.color, "color", "bristle_color_t"), f(\.opacity, "opacity", "float"),
    ] }

    public static let segment = ABIStruct(bristle_segment_t.self, "bristle_segment_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.cap, "cap", "uint32_t"),
        f(\.x0, "x0", "double"), f(\.y0, "y0", "double"), f(\.x1, "x1", "double"), f(\.y1, "y1", "double"),
        f(\.width0, "width0", "double"), f(\.width1, "width1", "double"),
    ] }

    public static let strokeStyle = ABIStruct(bristle_stroke_style_t.self, "bristle_stroke_style_t", since: 1) { f in [
        f(\.struct_size, "struct_size", "uint32_t", since: 1), f(\.cap, "cap", "uint32_t", since: 1),
        f(\.join, "join", "uint32_t", since: 1), f(\.flags, "flags", "uint32_t", since: 1),
        f(\.width, "width", "double", since: 1), f(\.miter_limit, "miter_limit", "double", since: 1),
        f(\.dashes, "dashes", "const double *", since: 1), f(\.dash_count, "dash_count", "uint32_t", since: 1),
        f(\.reserved, "reserved", "uint32_t", since: 1), f(\.dash_phase, "dash_phase", "double", since: 1),
    ] }

    public static let pattern = ABIStruct(bristle_pattern_t.self, "bristle_pattern_t", since: 1) { f in [
        f(\.struct_size, "struct_size", "uint32_t", since: 1), f(\.format, "format", "uint32_t", since: 1),
        f(\.pixels, "pixels", "const uint8_t *", since: 1), f(\.width, "width", "int32_t", since: 1),
        f(\.height, "height", "int32_t", since: 1), f(\.stride_bytes, "stride_bytes", "int32_t", since: 1),
        f(\.offset_x, "offset_x", "int32_t", since: 1), f(\.offset_y, "offset_y", "int32_t", since: 1),
        f(\.reserved, "reserved", "uint32_t", since: 1),
    ] }

    public static let mask = ABIStruct(bristle_mask_t.self, "bristle_mask_t") { f in [
        f(\.data, "data", "uint8_t *"), f(\.width, "width", "int32_t"), f(\.height, "height", "int32_t"),
        f(\.stride_bytes, "stride_bytes", "int32_t"),
    ] }

    public static let services = ABIStruct(bristle_services_t.self, "bristle_services_t") { f in
        let s = "const bristle_services_t *", t = "const bristle_target_t *", m = "const bristle_mask_t *"
        let style = "const bristle_stroke_style_t *", p = "const bristle_paint_t *", pat = "const bristle_pattern_t *"
        return [
            f(\.struct_size, "struct_size", "uint32_t"), f(\.reserved, "reserved", "uint32_t"),
            f(\.host_data, "host_data", "void *"),
            f(\.fill_segment, "fill_segment", "bristle_rect_t (*)(\(s), \(t), const bristle_segment_t *, \(p))"),
            f(\.fill_disc, "fill_disc", "bristle_rect_t (*)(\(s), \(t), double, double, double, \(p))"),
            f(\.mask_segment, "mask_segment", "bristle_rect_t (*)(\(s), \(m), const bristle_segment_t *)"),
            f(\.mask_disc, "mask_disc", "bristle_rect_t (*)(\(s), \(m), double, double, double)"),
            f(\.clear_mask, "clear_mask", "void (*)(\(s), \(m), bristle_rect_t)"),
            f(\.composite_mask, "composite_mask",
              "bristle_rect_t (*)(\(s), \(t), \(m), bristle_rect_t, \(p), uint32_t)"),
            f(\.draw_rect, "draw_rect",
              "bristle_rect_t (*)(\(s), \(t), double, double, double, double, \(style), \(p), \(pat))", since: 1),
            f(\.draw_ellipse, "draw_ellipse",
              "bristle_rect_t (*)(\(s), \(t), double, double, double, double, \(style), \(p), \(pat))", since: 1),
            f(\.draw_polyline, "draw_polyline",
              "bristle_rect_t (*)(\(s), \(t), const double *, uint32_t, \(style), \(p), \(pat))", since: 1),
            f(\.draw_dab, "draw_dab",
              "bristle_rect_t (*)(\(s), \(t), double, double, double, double, \(p), \(pat))", since: 1),
            f(\.mask_rect, "mask_rect", "bristle_rect_t (*)(\(s), \(m), double, double, double, double, \(style))", since: 1),
            f(\.mask_ellipse, "mask_ellipse",
              "bristle_rect_t (*)(\(s), \(m), double, double, double, double, \(style))", since: 1),
            f(\.mask_polyline, "mask_polyline",
              "bristle_rect_t (*)(\(s), \(m), const double *, uint32_t, \(style))", since: 1),
            f(\.mask_dab, "mask_dab", "bristle_rect_t (*)(\(s), \(m), double, double, double, double)", since: 1),
            f(\.composite_mask_pattern, "composite_mask_pattern",
              "bristle_rect_t (*)(\(s), \(t), \(m), bristle_rect_t, \(p), \(pat), uint32_t)", since: 1),
        ]
    }

    public static let dirtyList = ABIStruct(bristle_dirty_list_t.self, "bristle_dirty_list_t", since: 2) { f in [
        f(\.struct_size, "struct_size", "uint32_t", since: 2), f(\.count, "count", "uint32_t", since: 2),
        f(\.capacity, "capacity", "uint32_t", since: 2), f(\.reserved, "reserved", "uint32_t", since: 2),
        f(\.rects, "rects", "bristle_rect_t *", since: 2),
    ] }

    public static let target = ABIStruct(bristle_target_t.self, "bristle_target_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.format, "format", "uint32_t"),
        f(\.pixels, "pixels", "uint8_t *"), f(\.base, "base", "const uint8_t *"),
        f(\.width, "width", "int32_t"), f(\.height, "height", "int32_t"),
        f(\.stride_bytes, "stride_bytes", "int32_t"), f(\.layer, "layer", "uint32_t"),
        f(\.stroke, "stroke", "const bristle_stroke_context_t *"),
        f(\.services, "services", "const bristle_services_t *"),
        f(\.dirty_list, "dirty_list", "bristle_dirty_list_t *", since: 2),
    ] }

    public static let host = ABIStruct(bristle_host_t.self, "bristle_host_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.abi, "abi", "bristle_version_t"),
        f(\.host_data, "host_data", "void *"), f(\.name, "name", "const char *"),
        f(\.vendor, "vendor", "const char *"), f(\.version, "version", "const char *"),
        f(\.log, "log", "void (*)(const bristle_host_t *, bristle_log_severity_t, const char *)"),
        f(\.get_extension, "get_extension", "const void *(*)(const bristle_host_t *, const char *)"),
        f(\.services, "services", "const bristle_services_t *"),
    ] }

    public static let descriptor = ABIStruct(bristle_descriptor_t.self, "bristle_descriptor_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.flags, "flags", "uint32_t"),
        f(\.abi, "abi", "bristle_version_t"), f(\.id, "id", "const char *"), f(\.name, "name", "const char *"),
        f(\.vendor, "vendor", "const char *"), f(\.version, "version", "const char *"),
        f(\.description, "description", "const char *"), f(\.tags, "tags", "const char *const *"),
    ] }

    public static let brush = ABIStruct(bristle_brush_t.self, "bristle_brush_t") { f in
        let b = "const bristle_brush_t *", samples = "const bristle_sample_t *"
        return [
            f(\.struct_size, "struct_size", "uint32_t"), f(\.reserved, "reserved", "uint32_t"),
            f(\.descriptor, "descriptor", "const bristle_descriptor_t *"), f(\.brush_data, "brush_data", "void *"),
            f(\.destroy, "destroy", "void (*)(\(b))"),
            f(\.get_extension, "get_extension", "const void *(*)(\(b), const char *)"),
            f(\.begin, "begin", "bristle_status_t (*)(\(b), const bristle_stroke_context_t *, \(samples))"),
            f(\.moved, "moved", "bristle_status_t (*)(\(b), \(samples), uint32_t)"),
            f(\.predicted, "predicted", "bristle_status_t (*)(\(b), \(samples), uint32_t)"),
            f(\.ended, "ended", "bristle_status_t (*)(\(b), \(samples))"),
            f(\.cancelled, "cancelled", "void (*)(\(b))"),
            f(\.tick, "tick", "bristle_status_t (*)(\(b), double, double)"),
            f(\.draw, "draw", "bristle_status_t (*)(\(b), const bristle_target_t *, bristle_rect_t *)"),
        ]
    }

    public static let factory = ABIStruct(bristle_brush_factory_t.self, "bristle_brush_factory_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.reserved, "reserved", "uint32_t"),
        f(\.count, "count", "uint32_t (*)(const bristle_brush_factory_t *)"),
        f(\.descriptor, "descriptor", "const bristle_descriptor_t *(*)(const bristle_brush_factory_t *, uint32_t)"),
        f(\.create, "create",
          "const bristle_brush_t *(*)(const bristle_brush_factory_t *, const bristle_host_t *, const char *)"),
    ] }

    public static let entry = ABIStruct(bristle_entry_t.self, "bristle_entry_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.abi, "abi", "bristle_version_t"),
        f(\.`init`, "init", "bool (*)(const char *)"), f(\.deinit, "deinit", "void (*)(void)"),
        f(\.get_factory, "get_factory", "const void *(*)(const char *)"),
        f(\.host_abi_min, "host_abi_min", "bristle_version_t", since: 2),
    ] }

    public static let paramInfo = ABIStruct(bristle_param_info_t.self, "bristle_param_info_t") { f in [
        f(\.struct_size, "struct_size", "uint32_t"), f(\.type, "type", "uint32_t"),
        f(\.id, "id", "const char *"), f(\.name, "name", "const char *"),
        f(\.description, "description", "const char *"), f(\.unit, "unit", "const char *"),
        f(\.min_value, "min_value", "double"), f(\.max_value, "max_value", "double"),
        f(\.default_value, "default_value", "double"), f(\.enum_names, "enum_names", "const char *const *"),
        f(\.default_color, "default_color", "bristle_color_t"),
    ] }

    public static let params = ABIStruct(bristle_params_t.self, "bristle_params_t") { f in
        let b = "const bristle_brush_t *"
        return [
            f(\.struct_size, "struct_size", "uint32_t"), f(\.reserved, "reserved", "uint32_t"),
            f(\.count, "count", "uint32_t (*)(\(b))"),
            f(\.info, "info", "const bristle_param_info_t *(*)(\(b), uint32_t)"),
            f(\.set_value, "set_value", "bristle_status_t (*)(\(b), const char *, double)"),
            f(\.get_value, "get_value", "bristle_status_t (*)(\(b), const char *, double *)"),
            f(\.set_color, "set_color", "bristle_status_t (*)(\(b), const char *, const bristle_color_t *)"),
            f(\.get_color, "get_color", "bristle_status_t (*)(\(b), const char *, bristle_color_t *)"),
        ]
    }

    /// Every struct of the header, in header order.
    public static let structs: [ABIStruct] = [
        version, rect, color, sample, strokeContext, paint, segment, strokeStyle, pattern, mask, services,
        dirtyList, target, host, descriptor, brush, factory, entry, paramInfo, params,
    ]

    /// The struct with this C name.
    public static func `struct`(named name: String) -> ABIStruct? { structs.first { $0.name == name } }
}
