import CBristle

/// The descriptor's capability flags (`BRISTLE_BRUSH_*`).
public struct Capabilities: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Commit after every event (pencil) instead of only at `ended` (a line tool).
    public static let continuous = Capabilities(rawValue: BRISTLE_BRUSH_CONTINUOUS)
    /// Receive predicted samples through ``Brush/predicted(_:)``.
    public static let wantsPredicted = Capabilities(rawValue: BRISTLE_BRUSH_WANTS_PREDICTED)
    /// Receive ``Brush/tick(time:delta:)`` between strokes.
    public static let wantsTicks = Capabilities(rawValue: BRISTLE_BRUSH_WANTS_TICKS)
    /// Output is a pure function of pixels, parameters, samples, seed and ticks.
    public static let deterministic = Capabilities(rawValue: BRISTLE_BRUSH_DETERMINISTIC)
}
