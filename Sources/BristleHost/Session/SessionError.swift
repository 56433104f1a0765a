/// Why a drawing session refused a request.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The canvas size is zero, negative or beyond ``Layer/maximumSide``/``Layer/maximumArea``.
    case badCanvasSize(width: Int, height: Int)
    /// The canvas scale is outside ``DrawingSession/scaleRange``.
    case badScale(Double)
    /// A canvas-sized layer could not be allocated.
    case outOfMemory(width: Int, height: Int)
    /// A stroke began with no brush chosen.
    case noBrush
    /// A stroke hook came out of order (moved before begin, begin during a stroke).
    case outOfOrder(String)
    /// A brush hook failed; the stroke was cancelled and committed restored.
    case brushFailed(BrushError)
    /// Undo or redo was asked for fewer than one step.
    case badHistorySteps(Int)

    public var description: String {
        switch self {
        case .badCanvasSize(let w, let h):
            return "canvas size \(w)x\(h) is out of range: each side must be 1...\(Layer.maximumSide) and the area at most \(Layer.maximumArea) pixels"
        case .badScale(let scale):
            return "canvas scale \(Float(scale)) is out of range: it must be \(DrawingSession.scaleRange.lowerBound)...\(Int(DrawingSession.scaleRange.upperBound)) pixels per point"
        case .outOfMemory(let w, let h):
            return "not enough memory for a \(w)x\(h) canvas: a layer of \(ByteCount.text(Layer.stride(width: w) * h)) could not be allocated"
        case .noBrush:
            return "a stroke began before any brush was chosen"
        case .outOfOrder(let what):
            return "stroke events out of order: \(what)"
        case .brushFailed(let error):
            return error.description
        case .badHistorySteps(let steps):
            return "undo and redo take at least 1 step, not \(steps)"
        }
    }
}
