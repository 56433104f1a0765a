/// How an outline is stroked: width, caps, joins and an optional dash pattern.
///
/// The stroke covers every point within `width / 2` of the path, plus caps at open ends and
/// joins at corners. With ``dashes`` only the "on" intervals are stroked, each with ``cap`` at
/// both ends. The rules for odd counts, zero sums and the limits follow the C
/// `bristle_stroke_style_t` contract (see `include/bristle/bristle.h`).
public struct StrokeStyle: Sendable, Equatable, Hashable {
    /// Stroke width in pixels (`>= 0`; 0, negative or non-finite draws nothing).
    public var width: Double
    /// Caps of open paths and of every dash.
    public var cap: LineCap
    /// Joins at interior vertices (and at every vertex of a closed path).
    public var join: LineJoin
    /// Largest miter length / width before a miter corner is bevelled; below 1 or NaN counts
    /// as 1.
    public var miterLimit: Double
    /// Alternating on / off lengths in pixels, starting with on; empty (or all zero) is solid.
    public var dashes: [Double]
    /// Distance into the pattern at the start of the path (negative counts backwards).
    public var dashPhase: Double

    /// Most entries a dash array may have (the C `BRISTLE_MAX_DASHES`).
    public static let maxDashEntries = 1024
    /// Most dashes one call draws in the visible part of the target (`BRISTLE_MAX_DASH_PIECES`).
    public static let maxDashPieces = 131_072

    public init(width: Double, cap: LineCap = .butt, join: LineJoin = .miter,
                miterLimit: Double = 10, dashes: [Double] = [], dashPhase: Double = 0) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dashes = dashes
        self.dashPhase = dashPhase
    }
}
