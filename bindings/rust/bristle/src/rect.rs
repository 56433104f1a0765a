use crate::sys;

/// A rectangle of whole pixels: columns `[x, x + width)`, rows `[y, y + height)`. Empty when
/// `width <= 0` or `height <= 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rect {
    /// Leftmost column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Number of columns.
    pub width: i32,
    /// Number of rows.
    pub height: i32,
}

impl Rect {
    /// A rectangle from its corner and size.
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Rect {
        Rect { x, y, width, height }
    }

    /// True when it holds no pixel.
    pub fn is_empty(&self) -> bool {
        self.width <= 0 || self.height <= 0
    }

    /// The smallest rectangle containing both (`bristle_rect_union`: empty operands are
    /// ignored, sizes saturate).
    pub fn union(self, other: Rect) -> Rect {
        sys::bristle_rect_union(self.into(), other.into()).into()
    }
}

impl From<sys::bristle_rect_t> for Rect {
    fn from(r: sys::bristle_rect_t) -> Rect {
        Rect { x: r.x, y: r.y, width: r.width, height: r.height }
    }
}

impl From<Rect> for sys::bristle_rect_t {
    fn from(r: Rect) -> sys::bristle_rect_t {
        sys::bristle_rect_t { x: r.x, y: r.y, width: r.width, height: r.height }
    }
}
