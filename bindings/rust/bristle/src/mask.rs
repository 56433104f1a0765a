use crate::rect::Rect;
use crate::status::{Result, Status};
use crate::sys;

/// An 8-bit coverage plane owned by the brush (0 uncovered, 255 covered), for the mask
/// services of [`Target`](crate::Target): accumulate a stroke's coverage with max, then
/// composite it once. A mask the size of the canvas composites onto the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    data: Vec<u8>,
    width: i32,
    height: i32,
}

impl Mask {
    /// A cleared mask of `width` x `height` cells (negative sizes count as 0), or
    /// `Err(Status::Failed)` when the memory cannot be had (never an abort).
    pub fn new(width: i32, height: i32) -> Result<Mask> {
        let (w, h) = (width.max(0), height.max(0));
        let cells = (w as usize).checked_mul(h as usize).ok_or(Status::Failed)?;
        let mut data = Vec::new();
        data.try_reserve_exact(cells).map_err(|_| Status::Failed)?;
        data.resize(cells, 0);
        Ok(Mask { data, width: w, height: h })
    }

    /// Columns.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The cell at (x, y), or `None` outside the mask.
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        Some(self.data[y as usize * self.width as usize + x as usize])
    }

    /// The cells inside `rect` (clipped to the mask) back to 0.
    pub fn clear_rect(&mut self, rect: Rect) {
        let (x0, y0) = (rect.x.max(0), rect.y.max(0));
        let x1 = (rect.x as i64 + rect.width as i64).min(self.width as i64) as i32;
        let y1 = (rect.y as i64 + rect.height as i64).min(self.height as i64) as i32;
        for y in y0..y1 {
            let row = y as usize * self.width as usize;
            self.data[row + x0 as usize..row + x1.max(x0) as usize].iter_mut().for_each(|c| *c = 0);
        }
    }

    /// The C view of the mask; the services may write through it while `self` is borrowed.
    pub(crate) fn raw(&mut self) -> sys::bristle_mask_t {
        sys::bristle_mask_t { data: self.data.as_mut_ptr(), width: self.width, height: self.height, stride_bytes: self.width }
    }
}
