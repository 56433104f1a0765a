import BristleHost

/// One random shape of the benchmark workload (WORKLOAD.md section 3). For ellipses `(a, b, c,
/// d)` is `(cx, cy, rx, ry)`; for rectangles `(x, y, w, h)`. Colour channels are straight 8-bit
/// values; `strokeWidth` is used by the stroke cases only.
public struct WorkloadShape: Equatable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8
    public var strokeWidth: Double

    /// The straight colour of the shape.
    public var color: RGBAColor { RGBAColor(red8: red, green8: green, blue8: blue, alpha8: alpha) }
}
