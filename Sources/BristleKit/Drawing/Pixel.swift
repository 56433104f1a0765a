/// One pixel as stored in a target: sRGB bytes premultiplied by alpha (r, g, b <= a).
public struct Pixel: Sendable, Equatable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Fully transparent.
    public static let clear = Pixel(r: 0, g: 0, b: 0, a: 0)

    /// `color` at `coverage` (both clamped to [0, 1]) composited source-over onto this pixel,
    /// rounding to nearest: `out = src + dst * (1 - src.a)` per premultiplied channel.
    public func over(_ color: Color, coverage: Double) -> Pixel {
        let alpha = Color.unit(color.alpha) * Color.unit(coverage)
        let keep = 1 - alpha
        func channel(_ source: Double, _ destination: UInt8) -> UInt8 {
            UInt8(min(255, (Color.unit(source) * alpha * 255 + Double(destination) * keep).rounded()))
        }
        return Pixel(r: channel(color.red, r), g: channel(color.green, g), b: channel(color.blue, b),
                     a: UInt8(min(255, (alpha * 255 + Double(a) * keep).rounded())))
    }
}
