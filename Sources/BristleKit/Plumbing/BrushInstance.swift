import CBristle

/// One live brush: the Swift value, its parameter values, whether it is in a stroke, and the
/// `bristle_brush_t` the host holds, whose `brush_data` is a retained reference to this box.
///
/// The hooks check what the host passes (NULL pointers, calls at the wrong time, unknown pixel
/// formats, malformed targets) before the brush sees anything, and report the canvas's own
/// record of changed pixels as the dirty rectangle (and, on a 1.2 host, the dirty list), clipped
/// to the target.
final class BrushInstance {
    var brush: any Brush
    var values: ParameterValues
    var inStroke = false
    let parameters: [Parameter]
    let infos: UnsafeMutablePointer<bristle_param_info_t>
    let vtable: UnsafeMutablePointer<bristle_brush_t>

    init(type: any Brush.Type, host: Host, descriptor: UnsafePointer<bristle_descriptor_t>,
         parameters: [Parameter], infos: UnsafeMutablePointer<bristle_param_info_t>) throws(BrushFailure) {
        brush = try type.init(host: host)
        self.parameters = parameters
        self.infos = infos
        values = ParameterValues(defaults: parameters)
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: bristle_brush_t(
            struct_size: UInt32(MemoryLayout<bristle_brush_t>.size), reserved: 0, descriptor: descriptor,
            brush_data: nil, destroy: BrushInstance.destroy, get_extension: BrushInstance.getExtension,
            begin: BrushInstance.begin, moved: BrushInstance.moved, predicted: BrushInstance.predicted,
            ended: BrushInstance.ended, cancelled: BrushInstance.cancelled, tick: BrushInstance.tick,
            draw: BrushInstance.draw))
        vtable.pointee.brush_data = Unmanaged.passRetained(self).toOpaque()
    }

    /// The box behind a brush pointer the host passes back.
    static func of(_ brush: UnsafePointer<bristle_brush_t>?) -> BrushInstance? {
        guard let data = brush?.pointee.brush_data else { return nil }
        return Unmanaged<BrushInstance>.fromOpaque(data).takeUnretainedValue()
    }

    /// Runs a hook, turning its failure into a status.
    private static func status(_ body: () throws(BrushFailure) -> Void) -> bristle_status_t {
        do {
            try body()
            return BRISTLE_OK
        } catch {
            return error.status
        }
    }

    static let destroy: @convention(c) (UnsafePointer<bristle_brush_t>?) -> Void = { brush in
        guard let brush, let data = brush.pointee.brush_data else { return }
        let vtable = UnsafeMutablePointer(mutating: brush)
        vtable.pointee.brush_data = nil
        Unmanaged<BrushInstance>.fromOpaque(data).release()
        vtable.deallocate()
    }

    static let getExtension: @convention(c) (UnsafePointer<bristle_brush_t>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = { brush, id in
        guard let instance = of(brush), !instance.parameters.isEmpty, CStrings.equal(id, BRISTLE_EXT_PARAMS) else { return nil }
        return UnsafeRawPointer(ParamsExtension.table)
    }

    static let begin: @convention(c) (UnsafePointer<bristle_brush_t>?, UnsafePointer<bristle_stroke_context_t>?,
                                      UnsafePointer<bristle_sample_t>?) -> bristle_status_t = { brush, context, sample in
        guard let instance = of(brush) else { return BRISTLE_BAD_ARG }
        guard !instance.inStroke else { return BRISTLE_BAD_STATE }
        guard let context, let sample else { return BRISTLE_BAD_ARG }
        let stroke = Stroke(context, parameters: instance.values)
        instance.inStroke = true
        return status { () throws(BrushFailure) in try instance.brush.begin(stroke, at: Sample(sample)) }
    }

    static let moved: @convention(c) (UnsafePointer<bristle_brush_t>?, UnsafePointer<bristle_sample_t>?, UInt32)
        -> bristle_status_t = { brush, samples, count in
        guard let instance = of(brush) else { return BRISTLE_BAD_ARG }
        guard instance.inStroke else { return BRISTLE_BAD_STATE }
        let list = Sample.array(samples, count: count)
        guard !list.isEmpty else { return BRISTLE_BAD_ARG }
        return status { () throws(BrushFailure) in try instance.brush.moved(list) }
    }

    static let predicted: @convention(c) (UnsafePointer<bristle_brush_t>?, UnsafePointer<bristle_sample_t>?, UInt32)
        -> bristle_status_t = { brush, samples, count in
        guard let instance = of(brush) else { return BRISTLE_BAD_ARG }
        guard instance.inStroke else { return BRISTLE_BAD_STATE }
        let list = Sample.array(samples, count: count)
        return status { () throws(BrushFailure) in try instance.brush.predicted(list) }
    }

    static let ended: @convention(c) (UnsafePointer<bristle_brush_t>?, UnsafePointer<bristle_sample_t>?)
        -> bristle_status_t = { brush, sample in
        guard let instance = of(brush) else { return BRISTLE_BAD_ARG }
        guard instance.inStroke else { return BRISTLE_BAD_STATE }
        guard let sample else { return BRISTLE_BAD_ARG }
        instance.inStroke = false
        return status { () throws(BrushFailure) in try instance.brush.ended(at: Sample(sample)) }
    }

    static let cancelled: @convention(c) (UnsafePointer<bristle_brush_t>?) -> Void = { brush in
        guard let instance = of(brush), instance.inStroke else { return }
        instance.inStroke = false
        instance.brush.cancelled()
    }

    static let tick: @convention(c) (UnsafePointer<bristle_brush_t>?, Double, Double) -> bristle_status_t = { brush, t, dt in
        guard let instance = of(brush) else { return BRISTLE_BAD_ARG }
        guard !instance.inStroke else { return BRISTLE_BAD_STATE }
        guard t.isFinite, dt.isFinite else { return BRISTLE_BAD_ARG }
        return status { () throws(BrushFailure) in try instance.brush.tick(time: t, delta: dt) }
    }

    static let draw: @convention(c) (UnsafePointer<bristle_brush_t>?, UnsafePointer<bristle_target_t>?,
                                     UnsafeMutablePointer<bristle_rect_t>?) -> bristle_status_t = { brush, target, dirty in
        guard let instance = of(brush), let target, let dirty else { return BRISTLE_BAD_ARG }
        let t = target.pointee
        guard t.format == BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED else { return BRISTLE_UNSUPPORTED }
        guard let pixels = t.pixels, t.width > 0, t.height > 0, Int(t.stride_bytes) >= Int(t.width) * 4,
              t.services != nil else { return BRISTLE_BAD_ARG }
        let canvas = Canvas(target, pixels: pixels)
        let result = status { () throws(BrushFailure) in try instance.brush.draw(into: canvas) }
        canvas.flushDirty()
        dirty.pointee = canvas.dirty.clipped(width: canvas.width, height: canvas.height).c
        return result
    }
}
