import CBristle

/// How the outline of a rectangle, an ellipse or a polyline is stroked
/// (`bristle_stroke_style_t`, ABI 1.1): every point within `width / 2` of the path, plus caps
/// and joins; with dashes, only the "on" parts, each with `cap` at both ends.
///
/// Values the host cannot draw are not errors: a negative or non-finite width, more than
/// `BRISTLE_MAX_DASHES` dash entries, a negative or non-finite dash, or a non-finite phase
/// draws nothing.
public struct StrokeStyle: Sendable, Equatable {
    /// The ends of open paths, of every dash and of segments (`BRISTLE_CAP_*`).
    public enum Cap: Sendable {
        /// Half-discs: a capsule.
        case round
        /// Flat ends through the end points.
        case butt
        /// Flat ends pushed out by half the width.
        case square
    }

    /// The corners between two pieces of a path (`BRISTLE_JOIN_*`).
    public enum Join: Sendable {
        /// A disc of the stroke's width at every vertex.
        case round
        /// Sharp corners, bevelled beyond ``StrokeStyle/miterLimit``.
        case miter
        /// The outer corners joined by a straight edge.
        case bevel
    }

    /// The stroke's width in pixels; 0 draws nothing.
    public var width: Double
    /// For open polylines and every dash; rectangles and ellipses are closed and ignore it.
    public var cap: Cap
    /// Ellipses ignore it.
    public var join: Join
    /// For miter joins: the largest miter length / width before a corner is bevelled (SVG's
    /// stroke-miterlimit); values below 1, and NaN, count as 1.
    public var miterLimit: Double
    /// Lengths in pixels, alternately on and off, starting with on (SVG's dash array); empty
    /// or all zero: a solid stroke.
    public var dashes: [Double]
    /// Distance into the dash pattern at the start of the path (SVG's dashoffset).
    public var dashPhase: Double
    /// The last point of a polyline joins the first (rectangles and ellipses are always closed).
    public var closed: Bool

    public init(width: Double, cap: Cap = .round, join: Join = .round, miterLimit: Double = 4,
                dashes: [Double] = [], dashPhase: Double = 0, closed: Bool = false) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dashes = dashes
        self.dashPhase = dashPhase
        self.closed = closed
    }

    /// Calls `body` with the C style (NULL for nil: fill the shape), valid during the call.
    static func withC<R>(_ style: StrokeStyle?, _ body: (UnsafePointer<bristle_stroke_style_t>?) -> R) -> R {
        guard let style else { return body(nil) }
        return style.dashes.withUnsafeBufferPointer { dashes in
            var c = bristle_stroke_style_t()
            c.struct_size = UInt32(MemoryLayout<bristle_stroke_style_t>.size)
            c.cap = style.cap.c
            c.join = switch style.join {
            case .round: BRISTLE_JOIN_ROUND
            case .miter: BRISTLE_JOIN_MITER
            case .bevel: BRISTLE_JOIN_BEVEL
            }
            c.flags = style.closed ? BRISTLE_STROKE_CLOSED : 0
            c.width = style.width
            c.miter_limit = style.miterLimit
            c.dashes = dashes.isEmpty ? nil : dashes.baseAddress
            c.dash_count = UInt32(clamping: dashes.count)
            c.dash_phase = style.dashPhase
            return withUnsafePointer(to: &c) { body($0) }
        }
    }
}

extension StrokeStyle.Cap {
    /// The C value.
    var c: UInt32 {
        switch self {
        case .round: BRISTLE_CAP_ROUND
        case .butt: BRISTLE_CAP_BUTT
        case .square: BRISTLE_CAP_SQUARE
        }
    }
}
