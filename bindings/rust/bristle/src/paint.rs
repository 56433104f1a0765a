use crate::color::Color;
use crate::sys;

/// How paint combines with the pixels under it (`BRISTLE_BLEND_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blend {
    /// Premultiplied source-over.
    SourceOver,
    /// Destination-out: a true erase (only the colour's alpha matters).
    Erase,
}

/// How to paint: a colour, an opacity multiplying the coverage, and a blend mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paint {
    /// Straight-alpha colour.
    pub color: Color,
    /// Multiplies coverage, [0, 1].
    pub opacity: f32,
    /// The blend mode.
    pub blend: Blend,
}

impl Paint {
    /// Source-over paint of `color` at full opacity.
    pub const fn color(color: Color) -> Paint {
        Paint { color, opacity: 1.0, blend: Blend::SourceOver }
    }

    /// An eraser removing up to `strength` (0 to 1) of what is under it.
    pub const fn erase(strength: f32) -> Paint {
        Paint { color: Color::rgba(0.0, 0.0, 0.0, strength), opacity: 1.0, blend: Blend::Erase }
    }

    /// The same paint with another opacity.
    pub const fn with_opacity(self, opacity: f32) -> Paint {
        Paint { opacity, ..self }
    }

    pub(crate) fn raw(&self) -> sys::bristle_paint_t {
        sys::bristle_paint_t {
            struct_size: std::mem::size_of::<sys::bristle_paint_t>() as u32,
            blend: match self.blend {
                Blend::SourceOver => sys::BRISTLE_BLEND_SRC_OVER,
                Blend::Erase => sys::BRISTLE_BLEND_ERASE,
            },
            color: self.color.into(),
            opacity: self.opacity,
        }
    }
}
