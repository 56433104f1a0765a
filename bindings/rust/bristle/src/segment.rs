use crate::stroke_style::Cap;
use crate::sys;

/// A segment from (x0, y0) to (x1, y1) whose width (a diameter, in pixels) goes linearly from
/// `width0` to `width1`. With round caps it is a tapered capsule; a zero-length segment is a
/// disc of the larger width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Start x.
    pub x0: f64,
    /// Start y.
    pub y0: f64,
    /// End x.
    pub x1: f64,
    /// End y.
    pub y1: f64,
    /// Diameter at the start.
    pub width0: f64,
    /// Diameter at the end.
    pub width1: f64,
    /// The caps (BUTT and SQUARE need a 1.1 host).
    pub cap: Cap,
}

impl Segment {
    /// A round-capped segment from `(x0, y0, width0)` to `(x1, y1, width1)`.
    pub const fn new(from: (f64, f64, f64), to: (f64, f64, f64)) -> Segment {
        Segment { x0: from.0, y0: from.1, width0: from.2, x1: to.0, y1: to.1, width1: to.2, cap: Cap::Round }
    }

    pub(crate) fn raw(&self) -> sys::bristle_segment_t {
        sys::bristle_segment_t {
            struct_size: std::mem::size_of::<sys::bristle_segment_t>() as u32,
            cap: self.cap.raw(),
            x0: self.x0,
            y0: self.y0,
            x1: self.x1,
            y1: self.y1,
            width0: self.width0,
            width1: self.width1,
        }
    }
}
