import CBristle

/// What the host says about the stroke being drawn (`bristle_stroke_context_t`), plus the
/// brush's parameter values for this stroke (parameters change only between strokes).
public struct Stroke: Sendable {
    /// The user's colour.
    public var color: Color
    /// The user's width in points (> 0).
    public var width: Double
    /// Canvas pixels per point (> 0).
    public var scale: Double
    /// The seed for every random choice in this stroke.
    public var seed: UInt64
    /// Canvas size in pixels.
    public var canvasWidth: Int
    public var canvasHeight: Int
    /// True when the device can report pressure.
    public var deviceHasPressure: Bool
    /// True when the device can report tilt.
    public var deviceHasTilt: Bool
    /// The parameters for this stroke.
    public var parameters: ParameterValues
    /// The whole C record, with zeros in fields the host did not write.
    public var raw: bristle_stroke_context_t

    /// The width in canvas pixels: `width * scale`, or 1 if that is not a positive finite number.
    public var widthInPixels: Double {
        let w = width * scale
        return w.isFinite && w > 0 ? w : 1
    }

    /// Copies a host context, reading no more than its `struct_size`.
    init(_ pointer: UnsafePointer<bristle_stroke_context_t>, parameters: ParameterValues) {
        var copy = bristle_stroke_context_t()
        let size = min(Int(pointer.pointee.struct_size), MemoryLayout<bristle_stroke_context_t>.size)
        withUnsafeMutableBytes(of: &copy) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: max(size, 0)))
        }
        raw = copy
        color = Color(copy.color)
        width = Double(copy.width)
        scale = copy.scale > 0 && copy.scale.isFinite ? Double(copy.scale) : 1
        seed = copy.seed
        canvasWidth = Int(max(copy.canvas_width, 0))
        canvasHeight = Int(max(copy.canvas_height, 0))
        deviceHasPressure = copy.device_flags & BRISTLE_SAMPLE_HAS_PRESSURE != 0
        deviceHasTilt = copy.device_flags & BRISTLE_SAMPLE_HAS_TILT != 0
        self.parameters = parameters
    }
}
