import CBristle

extension ABILayout {
    /// Every constant `#define` of the header, in header order, with the value Swift imported.
    public static let constants: [ABIConstant] = {
        func u(_ name: String, _ value: UInt32, since: UInt32 = 0) -> ABIConstant {
            ABIConstant(name: name, value: .number(Int64(value)), cType: "uint32_t", since: since)
        }
        func status(_ name: String, _ value: Int32) -> ABIConstant {
            ABIConstant(name: name, value: .number(Int64(value)), cType: "bristle_status_t", since: 0)
        }
        func severity(_ name: String, _ value: Int32) -> ABIConstant {
            ABIConstant(name: name, value: .number(Int64(value)), cType: "bristle_log_severity_t", since: 0)
        }
        func text(_ name: String, _ value: String) -> ABIConstant {
            ABIConstant(name: name, value: .string(value), cType: "const char *", since: 0)
        }
        return [
            u("BRISTLE_VERSION_MAJOR", BRISTLE_VERSION_MAJOR), u("BRISTLE_VERSION_MINOR", BRISTLE_VERSION_MINOR),
            u("BRISTLE_VERSION_PATCH", BRISTLE_VERSION_PATCH), text("BRISTLE_ENTRY_SYMBOL", BRISTLE_ENTRY_SYMBOL),
            status("BRISTLE_OK", BRISTLE_OK), status("BRISTLE_FAILED", BRISTLE_FAILED),
            status("BRISTLE_UNSUPPORTED", BRISTLE_UNSUPPORTED), status("BRISTLE_BAD_ARG", BRISTLE_BAD_ARG),
            status("BRISTLE_BAD_STATE", BRISTLE_BAD_STATE),
            severity("BRISTLE_LOG_DEBUG", BRISTLE_LOG_DEBUG), severity("BRISTLE_LOG_INFO", BRISTLE_LOG_INFO),
            severity("BRISTLE_LOG_WARNING", BRISTLE_LOG_WARNING), severity("BRISTLE_LOG_ERROR", BRISTLE_LOG_ERROR),
            u("BRISTLE_POINTER_UNKNOWN", BRISTLE_POINTER_UNKNOWN), u("BRISTLE_POINTER_MOUSE", BRISTLE_POINTER_MOUSE),
            u("BRISTLE_POINTER_PEN", BRISTLE_POINTER_PEN), u("BRISTLE_POINTER_ERASER", BRISTLE_POINTER_ERASER),
            u("BRISTLE_POINTER_TOUCH", BRISTLE_POINTER_TOUCH),
            u("BRISTLE_SAMPLE_HAS_PRESSURE", BRISTLE_SAMPLE_HAS_PRESSURE),
            u("BRISTLE_SAMPLE_HAS_FORCE", BRISTLE_SAMPLE_HAS_FORCE), u("BRISTLE_SAMPLE_HAS_TILT", BRISTLE_SAMPLE_HAS_TILT),
            u("BRISTLE_SAMPLE_HAS_TWIST", BRISTLE_SAMPLE_HAS_TWIST),
            u("BRISTLE_SAMPLE_HAS_TANGENTIAL", BRISTLE_SAMPLE_HAS_TANGENTIAL),
            u("BRISTLE_SAMPLE_HAS_CONTACT", BRISTLE_SAMPLE_HAS_CONTACT),
            u("BRISTLE_SAMPLE_COALESCED", BRISTLE_SAMPLE_COALESCED),
            u("BRISTLE_SAMPLE_PREDICTED", BRISTLE_SAMPLE_PREDICTED),
            u("BRISTLE_SAMPLE_SYNTHETIC", BRISTLE_SAMPLE_SYNTHETIC),
            u("BRISTLE_SAMPLE_ESTIMATED", BRISTLE_SAMPLE_ESTIMATED),
            u("BRISTLE_LAYER_COMMITTED", BRISTLE_LAYER_COMMITTED), u("BRISTLE_LAYER_PREVIEW", BRISTLE_LAYER_PREVIEW),
            u("BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED", BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED),
            u("BRISTLE_BLEND_SRC_OVER", BRISTLE_BLEND_SRC_OVER), u("BRISTLE_BLEND_ERASE", BRISTLE_BLEND_ERASE),
            u("BRISTLE_CAP_ROUND", BRISTLE_CAP_ROUND), u("BRISTLE_CAP_BUTT", BRISTLE_CAP_BUTT, since: 1),
            u("BRISTLE_CAP_SQUARE", BRISTLE_CAP_SQUARE, since: 1),
            u("BRISTLE_JOIN_ROUND", BRISTLE_JOIN_ROUND, since: 1), u("BRISTLE_JOIN_MITER", BRISTLE_JOIN_MITER, since: 1),
            u("BRISTLE_JOIN_BEVEL", BRISTLE_JOIN_BEVEL, since: 1),
            u("BRISTLE_STROKE_CLOSED", BRISTLE_STROKE_CLOSED, since: 1),
            u("BRISTLE_COMPOSITE_OVER_BASE", BRISTLE_COMPOSITE_OVER_BASE),
            u("BRISTLE_MAX_DASHES", BRISTLE_MAX_DASHES, since: 1),
            u("BRISTLE_MAX_DASH_PIECES", BRISTLE_MAX_DASH_PIECES, since: 1),
            u("BRISTLE_MAX_POLYLINE_POINTS", BRISTLE_MAX_POLYLINE_POINTS, since: 1),
            u("BRISTLE_MAX_DIRTY_RECTS", BRISTLE_MAX_DIRTY_RECTS, since: 2),
            u("BRISTLE_BRUSH_CONTINUOUS", BRISTLE_BRUSH_CONTINUOUS),
            u("BRISTLE_BRUSH_WANTS_PREDICTED", BRISTLE_BRUSH_WANTS_PREDICTED),
            u("BRISTLE_BRUSH_WANTS_TICKS", BRISTLE_BRUSH_WANTS_TICKS),
            u("BRISTLE_BRUSH_DETERMINISTIC", BRISTLE_BRUSH_DETERMINISTIC),
            text("BRISTLE_BRUSH_FACTORY_ID", BRISTLE_BRUSH_FACTORY_ID),
            text("BRISTLE_EXT_PARAMS", BRISTLE_EXT_PARAMS),
            u("BRISTLE_PARAM_FLOAT", BRISTLE_PARAM_FLOAT), u("BRISTLE_PARAM_INT", BRISTLE_PARAM_INT),
            u("BRISTLE_PARAM_BOOL", BRISTLE_PARAM_BOOL), u("BRISTLE_PARAM_ENUM", BRISTLE_PARAM_ENUM),
            u("BRISTLE_PARAM_COLOR", BRISTLE_PARAM_COLOR),
        ]
    }()

    /// The scalar typedefs of the header, as (name, C type).
    public static let typedefs: [(name: String, cType: String)] = [
        ("bristle_status_t", "int32_t"), ("bristle_log_severity_t", "int32_t"),
        ("bristle_entry_fn", "const bristle_entry_t *(*)(void)"),
    ]
}
