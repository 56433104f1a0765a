/// A colour with straight (not premultiplied) alpha, sRGB-encoded components in `[0, 1]`.
///
/// This is the colour a person writes (`#1a4dcc`, `rebeccapurple`) and the colour a brush
/// receives in its stroke context. Pixels in layers are premultiplied; see ``premultiplied8``.
public struct RGBAColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: Float
    public var green: Float
    public var blue: Float
    public var alpha: Float

    /// Creates a colour; components are clamped to `[0, 1]` and NaN becomes 0.
    public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        func clamp(_ v: Float) -> Float { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1) }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// Creates a colour from 8-bit components.
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
        self.init(red: Float(red8) / 255, green: Float(green8) / 255, blue: Float(blue8) / 255,
                  alpha: Float(alpha8) / 255)
    }

    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The colour as premultiplied 8-bit `(r, g, b, a)`, rounded to nearest.
    public var premultiplied8: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func q(_ v: Float) -> UInt8 { UInt8((v * 255).rounded()) }
        return (q(red * alpha), q(green * alpha), q(blue * alpha), q(alpha))
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func hex(_ v: Float) -> String {
            let n = Int((v * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[n / 16], digits[n % 16]])
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha < 1 ? hex(alpha) : "")
    }
}
