/// How an open path, a segment or a dash ends (the C `BRISTLE_CAP_*`).
public enum LineCap: Sendable, Equatable, Hashable {
    /// A half-disc of the stroke's width around the end point.
    case round
    /// A flat end through the end point.
    case butt
    /// A flat end pushed out by half the width along the path.
    case square
}
