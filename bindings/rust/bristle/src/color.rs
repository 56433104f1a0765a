use crate::sys;

/// A colour: sRGB-encoded components in [0, 1] with straight (not premultiplied) alpha.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Color {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Alpha (opacity); 1 is opaque.
    pub a: f32,
}

impl Color {
    /// Opaque black.
    pub const BLACK: Color = Color::rgba(0.0, 0.0, 0.0, 1.0);

    /// A colour from its components.
    pub const fn rgba(r: f32, g: f32, b: f32, a: f32) -> Color {
        Color { r, g, b, a }
    }

    /// Every component clamped to [0, 1] (NaN becomes 0), as `set_color` requires.
    pub fn clamped(self) -> Color {
        let c = |v: f32| if v > 0.0 { v.min(1.0) } else { 0.0 };
        Color::rgba(c(self.r), c(self.g), c(self.b), c(self.a))
    }
}

impl From<sys::bristle_color_t> for Color {
    fn from(c: sys::bristle_color_t) -> Color {
        Color::rgba(c.r, c.g, c.b, c.a)
    }
}

impl From<Color> for sys::bristle_color_t {
    fn from(c: Color) -> sys::bristle_color_t {
        sys::bristle_color_t { r: c.r, g: c.g, b: c.b, a: c.a }
    }
}
