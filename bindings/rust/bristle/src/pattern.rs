use crate::status::{Result, Status};
use crate::sys;

/// Since 1.1. A tile of premultiplied RGBA pixels owned by the brush, repeated over the
/// plane, used instead of a paint's colour. Canvas pixel (x, y) takes tile pixel
/// ((x - offset_x) mod width, (y - offset_y) mod height).
#[derive(Clone, Copy, Debug)]
pub struct Pattern<'a> {
    /// The tile: row y at `pixels[y * stride_bytes..]`, 4 bytes per pixel, colour <= alpha.
    pub pixels: &'a [u8],
    /// Tile columns, 1 to 65536.
    pub width: i32,
    /// Tile rows, 1 to 65536.
    pub height: i32,
    /// Bytes from one row to the next, >= width * 4.
    pub stride_bytes: i32,
    /// Canvas column of a tile's left edge.
    pub offset_x: i32,
    /// Canvas row of a tile's top edge.
    pub offset_y: i32,
}

impl<'a> Pattern<'a> {
    /// A tightly packed tile (`stride_bytes = width * 4`) anchored at the canvas origin.
    pub fn new(pixels: &'a [u8], width: i32, height: i32) -> Pattern<'a> {
        Pattern { pixels, width, height, stride_bytes: width.saturating_mul(4), offset_x: 0, offset_y: 0 }
    }

    /// The C struct; `BadArg` when the sizes are out of range or `pixels` is too short for
    /// them, so the host never reads past the slice.
    pub(crate) fn raw(&self) -> Result<sys::bristle_pattern_t> {
        let (w, h, stride) = (self.width as i64, self.height as i64, self.stride_bytes as i64);
        let valid = (1..=65536).contains(&w) && (1..=65536).contains(&h) && stride >= w * 4;
        if !valid || (self.pixels.len() as i64) < stride * (h - 1) + w * 4 {
            return Err(Status::BadArg);
        }
        Ok(sys::bristle_pattern_t {
            struct_size: std::mem::size_of::<sys::bristle_pattern_t>() as u32,
            format: sys::BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED,
            pixels: self.pixels.as_ptr(),
            width: self.width,
            height: self.height,
            stride_bytes: self.stride_bytes,
            offset_x: self.offset_x,
            offset_y: self.offset_y,
            reserved: 0,
        })
    }
}
