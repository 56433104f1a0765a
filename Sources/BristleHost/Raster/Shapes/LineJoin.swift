/// How a stroke turns a corner (the C `BRISTLE_JOIN_*`).
public enum LineJoin: Sendable, Equatable, Hashable {
    /// A disc of the stroke's width centred on the vertex.
    case round
    /// The outer edges extended until they meet, unless the miter would be longer than
    /// ``StrokeStyle/miterLimit`` times the width: then ``bevel``.
    case miter
    /// The two outer corners joined by a straight edge.
    case bevel
}
