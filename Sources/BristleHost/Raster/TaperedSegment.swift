/// A segment between two points with per-end widths (diameters, pixels): a tapered capsule
/// when caps are round.
///
/// The filled shape is the convex hull of the disc of diameter `width0` centred at
/// `(x0, y0)` and the disc of diameter `width1` centred at `(x1, y1)`. Coordinates are in
/// pixels with `(0, 0)` at the top-left corner of the top-left pixel, so pixel `(i, j)` is the
/// square `[i, i + 1) x [j, j + 1)` and its centre is `(i + 0.5, j + 0.5)`.
///
/// A zero-length segment is a disc of the larger diameter; one zero width gives a cone with a
/// sharp tip. Negative, NaN or infinite values, or magnitudes above
/// ``Rasterizer/coordinateLimit``, make the segment invalid: it draws nothing.
public struct TaperedSegment: Equatable, Hashable, Sendable {
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double
    /// Diameter at `(x0, y0)`, pixels.
    public var width0: Double
    /// Diameter at `(x1, y1)`, pixels.
    public var width1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double, width0: Double, width1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
        self.width0 = width0
        self.width1 = width1
    }
}
