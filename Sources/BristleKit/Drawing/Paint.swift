import CBristle

/// How the host services paint: a colour, an opacity and a blend mode (`bristle_paint_t`).
public struct Paint: Sendable, Equatable {
    /// Blend modes (`BRISTLE_BLEND_*`).
    public enum Blend: Sendable {
        /// Premultiplied source-over.
        case sourceOver
        /// Destination-out: a true erase.
        case erase
    }

    public var color: Color
    public var opacity: Double
    public var blend: Blend

    public init(color: Color, opacity: Double = 1, blend: Blend = .sourceOver) {
        self.color = color
        self.opacity = opacity
        self.blend = blend
    }

    /// The C value, clamped.
    var c: bristle_paint_t {
        bristle_paint_t(struct_size: UInt32(MemoryLayout<bristle_paint_t>.size),
                        blend: blend == .erase ? BRISTLE_BLEND_ERASE : BRISTLE_BLEND_SRC_OVER,
                        color: color.clamped.c, opacity: Float(Color.unit(opacity)))
    }
}
