use crate::status::{Result, Status};
use crate::sys;

/// The ends of open paths, segments and dashes (`BRISTLE_CAP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// Half-discs at both ends.
    Round,
    /// Since 1.1. Flat ends through the end points.
    Butt,
    /// Since 1.1. Flat ends pushed out by half the width.
    Square,
}

impl Cap {
    pub(crate) fn raw(self) -> u32 {
        match self {
            Cap::Round => sys::BRISTLE_CAP_ROUND,
            Cap::Butt => sys::BRISTLE_CAP_BUTT,
            Cap::Square => sys::BRISTLE_CAP_SQUARE,
        }
    }
}

/// The corners of stroked paths (`BRISTLE_JOIN_*`, since 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// A disc at every vertex.
    Round,
    /// Sharp corners up to the miter limit, then bevelled.
    Miter,
    /// Outer corners joined by a straight edge.
    Bevel,
}

/// Since 1.1. How a polyline, rectangle or ellipse outline is stroked: width, caps, joins and
/// an optional dash pattern (borrowed for the drawing call).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrokeStyle<'a> {
    /// Stroke width in pixels (>= 0).
    pub width: f64,
    /// Caps of open paths and of every dash.
    pub cap: Cap,
    /// Corners.
    pub join: Join,
    /// Largest miter length / width before a corner is bevelled (SVG's stroke-miterlimit).
    pub miter_limit: f64,
    /// Dash lengths in pixels, alternately on and off; empty for a solid stroke.
    pub dashes: &'a [f64],
    /// Distance into the dash pattern at the start of the path.
    pub dash_phase: f64,
    /// The last point joins the first (polylines; rectangles and ellipses are always closed).
    pub closed: bool,
}

impl<'a> StrokeStyle<'a> {
    /// A solid stroke of `width` pixels with round caps and joins.
    pub const fn solid(width: f64) -> StrokeStyle<'static> {
        StrokeStyle { width, cap: Cap::Round, join: Join::Round, miter_limit: 4.0, dashes: &[], dash_phase: 0.0, closed: false }
    }

    /// The C struct, pointing into `dashes`; more than `BRISTLE_MAX_DASHES` entries is
    /// `BadArg` (the host would draw nothing).
    pub(crate) fn raw(&self) -> Result<sys::bristle_stroke_style_t> {
        if self.dashes.len() > sys::BRISTLE_MAX_DASHES as usize {
            return Err(Status::BadArg);
        }
        Ok(sys::bristle_stroke_style_t {
            struct_size: std::mem::size_of::<sys::bristle_stroke_style_t>() as u32,
            cap: self.cap.raw(),
            join: match self.join {
                Join::Round => sys::BRISTLE_JOIN_ROUND,
                Join::Miter => sys::BRISTLE_JOIN_MITER,
                Join::Bevel => sys::BRISTLE_JOIN_BEVEL,
            },
            flags: if self.closed { sys::BRISTLE_STROKE_CLOSED } else { 0 },
            width: self.width,
            miter_limit: self.miter_limit,
            dashes: if self.dashes.is_empty() { std::ptr::null() } else { self.dashes.as_ptr() },
            dash_count: self.dashes.len() as u32,
            reserved: 0,
            dash_phase: self.dash_phase,
        })
    }
}
