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

    /// One past the last column. Computed in 64 bits: a rectangle reaching past `Int32.max`
    /// (a brush may over-estimate its dirty rectangle) never wraps around.
    public var maxX: Int64 { Int64(x) + Int64(width) }
    /// One past the last row, in 64 bits like ``maxX``.
    public var maxY: Int64 { Int64(y) + Int64(height) }

    /// A rectangle from 64-bit edges, saturated to the `Int32` range.
    @inline(__always)
    private static func edges(_ x0: Int64, _ y0: Int64, _ x1: Int64, _ y1: Int64) -> PixelRect {
        func clamp(_ v: Int64) -> Int64 { Swift.min(Swift.max(v, Int64(Int32.min)), Int64(Int32.max)) }
        let cx0 = clamp(x0), cy0 = clamp(y0)
        return PixelRect(x: Int32(cx0), y: Int32(cy0), width: Int32(clamp(clamp(x1) - cx0)),
                         height: Int32(clamp(clamp(y1) - cy0)))
    }

    /// The smallest rectangle containing both (saturated to the `Int32` range); an empty
    /// operand is ignored.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other.isEmpty ? .empty : other }
        if other.isEmpty { return self }
        return Self.edges(Int64(min(x, other.x)), Int64(min(y, other.y)),
                          max(maxX, other.maxX), max(maxY, other.maxY))
    }

    /// The pixels in both rectangles (ending at `Int32.max` at most), or ``empty``.
    @inline(__always)
    public func intersection(_ other: PixelRect) -> PixelRect {
        guard !isEmpty, !other.isEmpty else { return .empty }
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX, Int64(Int32.max)), y1 = min(maxY, other.maxY, Int64(Int32.max))
        guard x1 > Int64(x0), y1 > Int64(y0) else { return .empty }
        // No saturation needed: the origin is one of the two, and the extent is at most either
        // rectangle's width (height), which fits in Int32.
        return PixelRect(x: x0, y: y0, width: Int32(truncatingIfNeeded: x1 &- Int64(x0)),
                         height: Int32(truncatingIfNeeded: y1 &- Int64(y0)))
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
        // Clamped into half the Int32 range first (the bounds are integers, so clamping before
        // rounding gives the same edges as after), then rounded by one truncating conversion
        // each: no libm call, no checked conversion, no overflow on the extents.
        let lo = Double(Int32.min / 2), hi = Double(Int32.max / 2)
        @inline(__always) func clamped(_ v: Double) -> Double {
            let low = v > lo ? v : lo
            return low < hi ? low : hi
        }
        let x0 = CoverageAccumulator.floor(clamped(minX)), y0 = CoverageAccumulator.floor(clamped(minY))
        let x1 = CoverageAccumulator.ceiling(clamped(maxX)), y1 = CoverageAccumulator.ceiling(clamped(maxY))
        // The box [x0, max(x1, x0 + 1)) x [y0, max(y1, y0 + 1)) (at least one pixel) intersected
        // with `clip` in `Int`: every edge is within 2^30 of 0, so nothing saturates or wraps.
        guard !clip.isEmpty else { return .empty }
        let cx0 = Int(clip.x), cy0 = Int(clip.y)
        let ix0 = x0 > cx0 ? x0 : cx0, iy0 = y0 > cy0 ? y0 : cy0
        let bx1 = x1 > x0 ? x1 : x0 &+ 1, by1 = y1 > y0 ? y1 : y0 &+ 1
        let cx1 = cx0 &+ Int(clip.width), cy1 = cy0 &+ Int(clip.height)
        let ix1 = bx1 < cx1 ? bx1 : cx1, iy1 = by1 < cy1 ? by1 : cy1
        guard ix1 > ix0, iy1 > iy0 else { return .empty }
        return PixelRect(x: Int32(truncatingIfNeeded: ix0), y: Int32(truncatingIfNeeded: iy0),
                         width: Int32(truncatingIfNeeded: ix1 &- ix0), height: Int32(truncatingIfNeeded: iy1 &- iy0))
    }

    /// The notation of the docs (ABI.md, "Dirty rectangles"), `{x, y, width, height}`, used by every
    /// message that names a rectangle; an empty one says so: `{0, 0, 0, 0} (empty)`.
    public var description: String {
        "{\(x), \(y), \(width), \(height)}" + (isEmpty ? " (empty)" : "")
    }
}
