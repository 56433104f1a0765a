/// A `stroke` action: pointer down, moves, and up (or cancel).
public struct StrokeSpec: Equatable, Sendable {
    /// `mouse`, `pen`, `touch` or `eraser` for the whole stroke; a sample's own
    /// `pointerType`, when present, is more specific.
    public var pointerType: String?
    /// True when the stroke ends with `pointercancel` instead of `pointerup`: the host must
    /// discard it. `false` when absent from the file.
    public var cancelled: Bool
    /// At least one event; the first is the pointer-down.
    public var events: [InputEventSpec]
    /// Where the `stroke` object starts.
    public var location: SourceLocation

    public init(pointerType: String? = nil, cancelled: Bool = false, events: [InputEventSpec],
                location: SourceLocation = SourceLocation(line: 1, column: 1)) {
        self.pointerType = pointerType
        self.cancelled = cancelled
        self.events = events
        self.location = location
    }
}
