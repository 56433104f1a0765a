/// Paint: straight colour + opacity multiplier + blend.
///
/// `color` is straight (not premultiplied); the rasteriser premultiplies it with
/// ``RGBAColor/premultiplied8``. `opacity` multiplies coverage; it is clamped to `[0, 1]` when
/// used and NaN counts as 0. A paint with opacity 0 changes nothing.
public struct Paint: Equatable, Hashable, Sendable {
    public var color: RGBAColor
    public var opacity: Float
    public var blend: BlendMode

    public init(color: RGBAColor, opacity: Float = 1, blend: BlendMode = .sourceOver) {
        self.color = color
        self.opacity = opacity
        self.blend = blend
    }
}
