import CBristle

/// A rectangle of whole pixels: columns [x, x + width), rows [y, y + height). Empty when
/// width or height is <= 0.
public struct Rect: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle.
    public static let empty = Rect(x: 0, y: 0, width: 0, height: 0)

    /// True when it holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Width times height; 0 when empty.
    var area: Int { isEmpty ? 0 : width * height }

    /// The smallest rectangle holding both (an empty side is ignored).
    public func union(_ other: Rect) -> Rect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x &+ width, other.x &+ other.width), y1 = max(y &+ height, other.y &+ other.height)
        return Rect(x: x0, y: y0, width: x1 &- x0, height: y1 &- y0)
    }

    /// The part inside [0, width) x [0, height); empty when there is none.
    public func clipped(width w: Int, height h: Int) -> Rect {
        guard !isEmpty else { return .empty }
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x &+ width, w), y1 = min(y &+ height, h)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .empty
    }

    /// The rectangle covering every pixel a shape within these real bounds can touch, clamped
    /// to [0, width) x [0, height); empty for non-finite bounds.
    public static func covering(minX: Double, minY: Double, maxX: Double, maxY: Double,
                                within w: Int, _ h: Int) -> Rect {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, maxX >= minX, maxY >= minY else {
            return .empty
        }
        let x0 = Int(max(0, min(Double(w), minX.rounded(.down))))
        let y0 = Int(max(0, min(Double(h), minY.rounded(.down))))
        let x1 = Int(max(0, min(Double(w), maxX.rounded(.up) + 1)))
        let y1 = Int(max(0, min(Double(h), maxY.rounded(.up) + 1)))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// From the C value.
    init(_ r: bristle_rect_t) {
        self.init(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height))
    }

    /// The C value; callers pass rectangles already clipped to a target, which fit in Int32.
    var c: bristle_rect_t {
        isEmpty ? bristle_rect_t(x: 0, y: 0, width: 0, height: 0)
            : bristle_rect_t(x: Int32(clamping: x), y: Int32(clamping: y), width: Int32(clamping: width),
                             height: Int32(clamping: height))
    }
}
