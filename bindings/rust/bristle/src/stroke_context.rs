use crate::color::Color;
use crate::sample::PointerType;
use crate::sys;
use crate::versioned::read_versioned;

/// What the host says about the current stroke: the user's colour and width, the HiDPI scale,
/// the seed for randomness, the device and the canvas size. A copy: keep it as long as needed.
#[derive(Clone, Copy, Debug)]
pub struct StrokeContext {
    raw: sys::bristle_stroke_context_t,
}

impl StrokeContext {
    /// Copies the host's context: at most its `struct_size` bytes, over the defaults (scale 1).
    ///
    /// # Safety
    /// `ptr` points to a stroke context the host passed in the current call.
    pub unsafe fn read(ptr: *const sys::bristle_stroke_context_t) -> StrokeContext {
        let defaults = sys::bristle_stroke_context_t {
            struct_size: std::mem::size_of::<sys::bristle_stroke_context_t>() as u32,
            scale: 1.0,
            ..Default::default()
        };
        StrokeContext { raw: read_versioned(ptr, defaults) }
    }

    /// The raw fields.
    pub fn raw(&self) -> &sys::bristle_stroke_context_t {
        &self.raw
    }

    /// The colour the user chose (straight alpha).
    pub fn color(&self) -> Color {
        self.raw.color.into()
    }

    /// The width the user chose, in points.
    pub fn width(&self) -> f64 {
        self.raw.width as f64
    }

    /// Canvas pixels per point (HiDPI): multiply widths in points by it. Non-finite or
    /// non-positive values read as 1.
    pub fn scale(&self) -> f64 {
        let s = self.raw.scale as f64;
        if s.is_finite() && s > 0.0 {
            s
        } else {
            1.0
        }
    }

    /// The user's width in canvas pixels: `width() * scale()`.
    pub fn pixel_width(&self) -> f64 {
        self.width() * self.scale()
    }

    /// The seed for every random choice of this stroke (output must depend on nothing else).
    pub fn seed(&self) -> u64 {
        self.raw.seed
    }

    /// The device drawing the stroke.
    pub fn pointer_type(&self) -> PointerType {
        PointerType::from_raw(self.raw.pointer_type)
    }

    /// The `BRISTLE_SAMPLE_HAS_*` bits the device can ever report.
    pub fn device_flags(&self) -> u32 {
        self.raw.device_flags
    }

    /// The canvas size in pixels (width, height).
    pub fn canvas_size(&self) -> (i32, i32) {
        (self.raw.canvas_width, self.raw.canvas_height)
    }
}
