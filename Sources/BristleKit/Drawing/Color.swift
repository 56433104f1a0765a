import CBristle

/// An sRGB colour with straight (not premultiplied) alpha, components in [0, 1]
/// (`bristle_color_t`).
public struct Color: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The C value with every component clamped to [0, 1] (NaN becomes 0).
    init(_ c: bristle_color_t) {
        self.init(red: Color.unit(Double(c.r)), green: Color.unit(Double(c.g)), blue: Color.unit(Double(c.b)),
                  alpha: Color.unit(Double(c.a)))
    }

    /// The C value.
    var c: bristle_color_t {
        bristle_color_t(r: Float(red), g: Float(green), b: Float(blue), a: Float(alpha))
    }

    /// The colour with every component clamped to [0, 1].
    var clamped: Color {
        Color(red: Color.unit(red), green: Color.unit(green), blue: Color.unit(blue), alpha: Color.unit(alpha))
    }

    /// `v` clamped to [0, 1]; NaN becomes 0.
    static func unit(_ v: Double) -> Double { v > 0 ? (v < 1 ? v : 1) : 0 }
}
