/// The plugin call a process is in, as written to ``Brush/hookTrace``: a supervisor that
/// watches a brush in another process reads it to say in which call the brush crashed or hung.
/// 0 means no plugin call is running.
public enum BrushHook: Int32, Sendable {
    case loading = 1
    case create
    case setParameter
    case begin
    case moved
    case predicted
    case ended
    case cancelled
    case tick
    case draw
    case drawPreview
    case destroy

    /// The call as people name it: the hook of bristle.h, or what the host was doing.
    public var name: String {
        switch self {
        case .loading: return "loading (the library's init)"
        case .create: return "create (the factory)"
        case .setParameter: return "params.set_value"
        case .begin: return "begin"
        case .moved: return "moved"
        case .predicted: return "predicted"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .tick: return "tick"
        case .draw: return "draw"
        case .drawPreview: return "draw (preview)"
        case .destroy: return "destroy"
        }
    }
}
