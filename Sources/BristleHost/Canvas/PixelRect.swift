/// A rectangle of whole pixels: columns `[x, x + width)` and rows `[y, y + height)`.
///
/// A rectangle whose width or height is zero or negative is *empty*; every empty rectangle
/// is equal in meaning (use ``isEmpty``, not `==`, to test for it). This is the Swift face of
/// the C `bristle_rect_t`.
public struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The canonical empty rectangle.
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// True when the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// One past the last column.
    public var maxX: Int32 { x &+ width }
    /// One past the last row.
    public var maxY: Int32 { y &+ height }

    /// The smallest rectangle containing both; an empty operand is ignored.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other.isEmpty ? .empty : other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0,
                         height: max(maxY, other.maxY) - y0)
    }

    /// The pixels in both rectangles, or ``empty``.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard !isEmpty, !other.isEmpty, x1 > x0, y1 > y0 else { return .empty }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when every pixel of `other` is inside `self` (an empty `other` is always contained).
    public func contains(_ other: PixelRect) -> Bool {
        if other.isEmpty { return true }
        return !isEmpty && other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The smallest pixel rectangle covering the real box `[minX, maxX] x [minY, maxY]`,
    /// clipped to `clip`. Non-finite input gives ``empty``.
    public static func covering(minX: Double, minY: Double, maxX: Double, maxY: Double,
                                clip: PixelRect) -> PixelRect {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite,
              minX <= maxX, minY <= maxY else { return .empty }
        let lo = Double(Int32.min / 2), hi = Double(Int32.max / 2)
        let x0 = Int32(Swift.max(lo, Swift.min(hi, minX.rounded(.down))))
        let y0 = Int32(Swift.max(lo, Swift.min(hi, minY.rounded(.down))))
        let x1 = Int32(Swift.max(lo, Swift.min(hi, maxX.rounded(.up))))
        let y1 = Int32(Swift.max(lo, Swift.min(hi, maxY.rounded(.up))))
        let box = PixelRect(x: x0, y: y0, width: Swift.max(x1 - x0, 1), height: Swift.max(y1 - y0, 1))
        return box.intersection(clip)
    }

    public var description: String {
        isEmpty ? "(empty)" : "\(width)x\(height)+\(x)+\(y)"
    }
}
