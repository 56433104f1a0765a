import CBristle

/// A Swift copy of a brush's `bristle_descriptor_t`, validated when its library loaded.
public struct BrushDescriptor: Equatable, Sendable {
    /// The capability flags of a brush (`BRISTLE_BRUSH_*`). Unknown bits are kept but ignored.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Commit after every event rather than only at `ended` (`BRISTLE_BRUSH_CONTINUOUS`).
        public static let continuous = Capabilities(rawValue: BRISTLE_BRUSH_CONTINUOUS)
        /// Wants predicted samples (`BRISTLE_BRUSH_WANTS_PREDICTED`).
        public static let wantsPredicted = Capabilities(rawValue: BRISTLE_BRUSH_WANTS_PREDICTED)
        /// Wants ticks between strokes (`BRISTLE_BRUSH_WANTS_TICKS`).
        public static let wantsTicks = Capabilities(rawValue: BRISTLE_BRUSH_WANTS_TICKS)
        /// Promises deterministic output (`BRISTLE_BRUSH_DETERMINISTIC`).
        public static let deterministic = Capabilities(rawValue: BRISTLE_BRUSH_DETERMINISTIC)

        /// The names of the known flags that are set, in header order.
        public var names: [String] {
            var out: [String] = []
            if contains(.continuous) { out.append("continuous") }
            if contains(.wantsPredicted) { out.append("wants-predicted") }
            if contains(.wantsTicks) { out.append("wants-ticks") }
            if contains(.deterministic) { out.append("deterministic") }
            return out
        }
    }

    public var id: String
    public var name: String
    public var vendor: String
    public var version: String
    public var summary: String
    public var tags: [String]
    public var capabilities: Capabilities
    /// The ABI version the brush was built with, "major.minor.patch".
    public var abiVersion: String
    /// The minor of ``abiVersion``: what the brush declares it was built against.
    public var abiMinor: UInt32
    /// The library the brush lives in (absolute path).
    public var libraryPath: String
}
