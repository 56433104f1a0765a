/// One step of a stroke script, in file order.
public struct ScriptAction: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Select and configure a brush.
        case brush(BrushSpec)
        /// Paint one stroke.
        case stroke(StrokeSpec)
        /// Undo this many steps (>= 1).
        case undo(Int)
        /// Redo this many steps (>= 1).
        case redo(Int)
        /// Clear the canvas to its background.
        case clear
        /// Let this many host ticks pass (>= 0), for brushes that animate or dry.
        case ticks(Int)
    }

    public var kind: Kind
    /// Where the action's object (`{"stroke": ...}`) starts.
    public var location: SourceLocation

    public init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}
