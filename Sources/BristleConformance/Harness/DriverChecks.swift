/// Which of the pixel contract's rules a ``StrokeDriver`` verifies after every call.
public struct DriverChecks: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The stride padding and the slack around the buffer keep their sentinel bytes.
    public static let padding = DriverChecks(rawValue: 1)
    /// Every changed pixel lies inside the rectangle the draw reported.
    public static let dirtyRect = DriverChecks(rawValue: 2)
    /// Samples, the stroke context, the target and `base` are unchanged by the brush.
    public static let inputs = DriverChecks(rawValue: 4)
    /// Non-continuous brushes leave committed untouched until `ended`.
    public static let committedUntilEnded = DriverChecks(rawValue: 8)
    /// A draw's dirty list (since 1.2) stays within its capacity, and `*dirty` contains every
    /// rectangle it lists.
    public static let dirtyList = DriverChecks(rawValue: 16)

    public static let none: DriverChecks = []
    public static let all: DriverChecks = [.padding, .dirtyRect, .inputs, .committedUntilEnded, .dirtyList]
}
