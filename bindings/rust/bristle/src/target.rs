use crate::mask::Mask;
use crate::paint::Paint;
use crate::pattern::Pattern;
use crate::rect::Rect;
use crate::segment::Segment;
use crate::status::{Result, Status};
use crate::stroke_context::StrokeContext;
use crate::stroke_style::StrokeStyle;
use crate::sys;
use crate::versioned::read_versioned;
use std::marker::PhantomData;

/// Which layer a draw paints (`BRISTLE_LAYER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The drawing itself: paint the final part of the stroke not drawn yet.
    Committed,
    /// What is shown: committed pixels plus what is still provisional (the rubber-band shape
    /// of a non-continuous brush, the predicted part of a continuous one).
    Preview,
}

/// The pixels one `draw` paints into, with the stroke's context and the host's drawing
/// services. Valid only during the draw.
///
/// Every drawing method reports the rectangle it changed as dirty (in the draw's `*dirty`
/// and, on a 1.2 host, in its dirty list), so what the brush reports is always honest. Pixels
/// written by hand through [`Target::pixels`] must be reported with [`Target::mark_dirty`].
/// Services added in 1.1 return `Err(Status::Unsupported)` on a 1.0 host.
pub struct Target<'a> {
    raw: *const sys::bristle_target_t,
    dirty: *mut sys::bristle_rect_t,
    copy: sys::bristle_target_t,
    stroke: StrokeContext,
    services: sys::bristle_services_t,
    _call: PhantomData<&'a mut [u8]>,
}

impl<'a> Target<'a> {
    /// Wraps a draw's `target` and `dirty`. `BadArg` for NULL pointers or impossible sizes,
    /// `Unsupported` for a pixel format other than RGBA8 premultiplied or an unknown layer.
    ///
    /// # Safety
    /// `raw` and `dirty` are the arguments of the current `draw` call, valid for `'a`.
    pub unsafe fn new(raw: *const sys::bristle_target_t, dirty: *mut sys::bristle_rect_t) -> Result<Target<'a>> {
        if raw.is_null() || dirty.is_null() {
            return Err(Status::BadArg);
        }
        let copy = read_versioned(raw, sys::bristle_target_t::default());
        if copy.format != sys::BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED || copy.layer > sys::BRISTLE_LAYER_PREVIEW {
            return Err(Status::Unsupported); // a value a later minor may add: refuse, never guess
        }
        let sane = copy.width > 0 && copy.height > 0 && copy.stride_bytes as i64 >= copy.width as i64 * 4;
        if !sane || copy.pixels.is_null() || copy.services.is_null() || copy.stroke.is_null() {
            return Err(Status::BadArg);
        }
        Ok(Target {
            raw,
            dirty,
            copy,
            stroke: StrokeContext::read(copy.stroke),
            services: read_versioned(copy.services, sys::bristle_services_t::default()),
            _call: PhantomData,
        })
    }

    /// Columns (> 0).
    pub fn width(&self) -> i32 {
        self.copy.width
    }

    /// Rows (> 0).
    pub fn height(&self) -> i32 {
        self.copy.height
    }

    /// The layer this draw paints.
    pub fn layer(&self) -> Layer {
        if self.copy.layer == sys::BRISTLE_LAYER_PREVIEW {
            Layer::Preview
        } else {
            Layer::Committed
        }
    }

    /// The current (for ticks, the last) stroke's context: colour, width, scale, seed.
    pub fn stroke(&self) -> &StrokeContext {
        &self.stroke
    }

    /// Canvas pixels per point (HiDPI): `stroke().scale()`.
    pub fn scale(&self) -> f64 {
        self.stroke.scale()
    }

    /// The pixels, to read and write by hand. Report what you change with `mark_dirty`.
    pub fn pixels(&mut self) -> Pixels<'_> {
        Pixels::of(&self.copy)
    }

    /// The committed layer as it was before the stroke began (read-only), or `None` between
    /// strokes (ticks).
    pub fn base(&self) -> Option<Base<'_>> {
        Base::of(&self.copy)
    }

    /// The pixels to write and the pre-stroke base to read, at once (to recompose "base +
    /// this stroke").
    pub fn pixels_with_base(&mut self) -> (Pixels<'_>, Option<Base<'_>>) {
        (Pixels::of(&self.copy), Base::of(&self.copy))
    }

    /// Reports `rect` as changed by this draw (`bristle_dirty_add`): it grows the draw's
    /// dirty rectangle and, on a 1.2 host, joins the dirty list. Empty rectangles are ignored.
    pub fn mark_dirty(&mut self, rect: Rect) {
        // SAFETY: raw and dirty are the current draw's (Target::new's contract).
        unsafe { sys::bristle_dirty_add(self.raw, self.dirty, rect.into()) }
    }

    fn report(&mut self, changed: sys::bristle_rect_t) -> Rect {
        self.mark_dirty(changed.into());
        changed.into()
    }

    fn host_services(&self) -> *const sys::bristle_services_t {
        self.copy.services
    }

    /// Paints a segment. Returns the changed rectangle.
    pub fn fill_segment(&mut self, segment: &Segment, paint: &Paint) -> Result<Rect> {
        let f = self.services.fill_segment.ok_or(Status::Unsupported)?;
        let (segment, paint) = (segment.raw(), paint.raw());
        Ok(self.report(unsafe { f(self.host_services(), self.raw, &segment, &paint) }))
    }

    /// Paints a disc of `radius` pixels centred at (cx, cy).
    pub fn fill_disc(&mut self, cx: f64, cy: f64, radius: f64, paint: &Paint) -> Result<Rect> {
        let f = self.services.fill_disc.ok_or(Status::Unsupported)?;
        let paint = paint.raw();
        Ok(self.report(unsafe { f(self.host_services(), self.raw, cx, cy, radius, &paint) }))
    }

    /// Since 1.1. The rectangle with corners (x, y) and (x + width, y + height), filled
    /// (`style` None) or stroked, with `paint` or `pattern`.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_rect(&mut self, x: f64, y: f64, width: f64, height: f64, style: Option<&StrokeStyle>, paint: &Paint, pattern: Option<&Pattern>) -> Result<Rect> {
        let f = self.services.draw_rect.ok_or(Status::Unsupported)?;
        let (style, paint, pattern) = (raw_style(style)?, paint.raw(), raw_pattern(pattern)?);
        Ok(self.report(unsafe { f(self.host_services(), self.raw, x, y, width, height, or_null(&style), &paint, or_null(&pattern)) }))
    }

    /// Since 1.1. The axis-aligned ellipse centred at (cx, cy) with radii rx, ry, filled or
    /// stroked.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_ellipse(&mut self, cx: f64, cy: f64, rx: f64, ry: f64, style: Option<&StrokeStyle>, paint: &Paint, pattern: Option<&Pattern>) -> Result<Rect> {
        let f = self.services.draw_ellipse.ok_or(Status::Unsupported)?;
        let (style, paint, pattern) = (raw_style(style)?, paint.raw(), raw_pattern(pattern)?);
        Ok(self.report(unsafe { f(self.host_services(), self.raw, cx, cy, rx, ry, or_null(&style), &paint, or_null(&pattern)) }))
    }

    /// Since 1.1. The polyline through `points`, stroked with `style`, or with `None` the
    /// filled polygon (nonzero winding).
    pub fn draw_polyline(&mut self, points: &[[f64; 2]], style: Option<&StrokeStyle>, paint: &Paint, pattern: Option<&Pattern>) -> Result<Rect> {
        let f = self.services.draw_polyline.ok_or(Status::Unsupported)?;
        let count = point_count(points)?;
        let (style, paint, pattern) = (raw_style(style)?, paint.raw(), raw_pattern(pattern)?);
        let xy = points.as_ptr() as *const f64;
        Ok(self.report(unsafe { f(self.host_services(), self.raw, xy, count, or_null(&style), &paint, or_null(&pattern)) }))
    }

    /// Since 1.1. A soft dab: the disc of `radius` at (cx, cy) with a radial falloff set by
    /// `hardness` in [0, 1] (1 is a hard disc).
    #[allow(clippy::too_many_arguments)]
    pub fn draw_dab(&mut self, cx: f64, cy: f64, radius: f64, hardness: f64, paint: &Paint, pattern: Option<&Pattern>) -> Result<Rect> {
        let f = self.services.draw_dab.ok_or(Status::Unsupported)?;
        let (paint, pattern) = (paint.raw(), raw_pattern(pattern)?);
        Ok(self.report(unsafe { f(self.host_services(), self.raw, cx, cy, radius, hardness, &paint, or_null(&pattern)) }))
    }

    /// Accumulates a segment's coverage into `mask` (max). Returns the raised cells' rectangle.
    pub fn mask_segment(&self, mask: &mut Mask, segment: &Segment) -> Result<Rect> {
        let f = self.services.mask_segment.ok_or(Status::Unsupported)?;
        let (mask, segment) = (mask.raw(), segment.raw());
        Ok(unsafe { f(self.host_services(), &mask, &segment) }.into())
    }

    /// Accumulates a disc's coverage into `mask` (max).
    pub fn mask_disc(&self, mask: &mut Mask, cx: f64, cy: f64, radius: f64) -> Result<Rect> {
        let f = self.services.mask_disc.ok_or(Status::Unsupported)?;
        let mask = mask.raw();
        Ok(unsafe { f(self.host_services(), &mask, cx, cy, radius) }.into())
    }

    /// Sets the cells of `mask` inside `rect` (clipped) to zero.
    pub fn clear_mask(&self, mask: &mut Mask, rect: Rect) -> Result<()> {
        let f = self.services.clear_mask.ok_or(Status::Unsupported)?;
        let mask = mask.raw();
        unsafe { f(self.host_services(), &mask, rect.into()) };
        Ok(())
    }

    /// Since 1.1. draw_rect's coverage, max-combined into `mask`.
    pub fn mask_rect(&self, mask: &mut Mask, x: f64, y: f64, width: f64, height: f64, style: Option<&StrokeStyle>) -> Result<Rect> {
        let f = self.services.mask_rect.ok_or(Status::Unsupported)?;
        let (mask, style) = (mask.raw(), raw_style(style)?);
        Ok(unsafe { f(self.host_services(), &mask, x, y, width, height, or_null(&style)) }.into())
    }

    /// Since 1.1. draw_ellipse's coverage, max-combined into `mask`.
    pub fn mask_ellipse(&self, mask: &mut Mask, cx: f64, cy: f64, rx: f64, ry: f64, style: Option<&StrokeStyle>) -> Result<Rect> {
        let f = self.services.mask_ellipse.ok_or(Status::Unsupported)?;
        let (mask, style) = (mask.raw(), raw_style(style)?);
        Ok(unsafe { f(self.host_services(), &mask, cx, cy, rx, ry, or_null(&style)) }.into())
    }

    /// Since 1.1. draw_polyline's coverage, max-combined into `mask`.
    pub fn mask_polyline(&self, mask: &mut Mask, points: &[[f64; 2]], style: Option<&StrokeStyle>) -> Result<Rect> {
        let f = self.services.mask_polyline.ok_or(Status::Unsupported)?;
        let count = point_count(points)?;
        let (mask, style) = (mask.raw(), raw_style(style)?);
        Ok(unsafe { f(self.host_services(), &mask, points.as_ptr() as *const f64, count, or_null(&style)) }.into())
    }

    /// Since 1.1. draw_dab's coverage, max-combined into `mask`.
    pub fn mask_dab(&self, mask: &mut Mask, cx: f64, cy: f64, radius: f64, hardness: f64) -> Result<Rect> {
        let f = self.services.mask_dab.ok_or(Status::Unsupported)?;
        let mask = mask.raw();
        Ok(unsafe { f(self.host_services(), &mask, cx, cy, radius, hardness) }.into())
    }

    /// Composites `paint` through `mask` (the target's size, else `BadArg`) inside `rect`.
    /// With `over_base` the destination is read from the pre-stroke base, so re-compositing a
    /// growing mask never double-blends.
    pub fn composite_mask(&mut self, mask: &mut Mask, rect: Rect, paint: &Paint, over_base: bool) -> Result<Rect> {
        let f = self.services.composite_mask.ok_or(Status::Unsupported)?;
        let mask = self.target_sized(mask)?;
        let paint = paint.raw();
        Ok(self.report(unsafe { f(self.host_services(), self.raw, &mask, rect.into(), &paint, composite_flags(over_base)) }))
    }

    /// Since 1.1. composite_mask with `pattern` as the source.
    pub fn composite_mask_pattern(&mut self, mask: &mut Mask, rect: Rect, paint: &Paint, pattern: &Pattern, over_base: bool) -> Result<Rect> {
        let f = self.services.composite_mask_pattern.ok_or(Status::Unsupported)?;
        let mask = self.target_sized(mask)?;
        let (paint, pattern) = (paint.raw(), pattern.raw()?);
        Ok(self.report(unsafe { f(self.host_services(), self.raw, &mask, rect.into(), &paint, &pattern, composite_flags(over_base)) }))
    }

    fn target_sized(&self, mask: &mut Mask) -> Result<sys::bristle_mask_t> {
        if mask.width() != self.copy.width || mask.height() != self.copy.height {
            return Err(Status::BadArg);
        }
        Ok(mask.raw())
    }
}

fn composite_flags(over_base: bool) -> u32 {
    if over_base {
        sys::BRISTLE_COMPOSITE_OVER_BASE
    } else {
        0
    }
}

fn raw_style(style: Option<&StrokeStyle>) -> Result<Option<sys::bristle_stroke_style_t>> {
    style.map(|s| s.raw()).transpose()
}

fn raw_pattern(pattern: Option<&Pattern>) -> Result<Option<sys::bristle_pattern_t>> {
    pattern.map(|p| p.raw()).transpose()
}

fn or_null<T>(value: &Option<T>) -> *const T {
    value.as_ref().map_or(std::ptr::null(), |v| v as *const T)
}

fn point_count(points: &[[f64; 2]]) -> Result<u32> {
    if points.is_empty() || points.len() > sys::BRISTLE_MAX_POLYLINE_POINTS as usize {
        return Err(Status::BadArg);
    }
    Ok(points.len() as u32)
}

/// The target's pixels: rows of `width * 4` bytes, R, G, B, A, premultiplied sRGB.
pub struct Pixels<'t> {
    ptr: *mut u8,
    width: i32,
    height: i32,
    stride: i32,
    _t: PhantomData<&'t mut [u8]>,
}

impl<'t> Pixels<'t> {
    fn of(target: &sys::bristle_target_t) -> Pixels<'t> {
        Pixels { ptr: target.pixels, width: target.width, height: target.height, stride: target.stride_bytes, _t: PhantomData }
    }

    /// Row `y` (`width * 4` bytes; never the host's padding), or `None` outside the target.
    pub fn row_mut(&mut self, y: i32) -> Option<&mut [u8]> {
        if y < 0 || y >= self.height {
            return None;
        }
        // SAFETY: 0 <= y < height; a row holds width * 4 bytes of the target's buffer.
        Some(unsafe { std::slice::from_raw_parts_mut(self.ptr.add(y as usize * self.stride as usize), self.width as usize * 4) })
    }

    /// The pixel at (x, y) as [R, G, B, A], or `None` outside the target.
    pub fn pixel_mut(&mut self, x: i32, y: i32) -> Option<&mut [u8]> {
        if x < 0 || x >= self.width {
            return None;
        }
        self.row_mut(y).map(|row| &mut row[x as usize * 4..x as usize * 4 + 4])
    }
}

/// The committed layer before the stroke began (read-only), row by row like [`Pixels`].
pub struct Base<'t> {
    ptr: *const u8,
    width: i32,
    height: i32,
    stride: i32,
    _t: PhantomData<&'t [u8]>,
}

impl<'t> Base<'t> {
    fn of(target: &sys::bristle_target_t) -> Option<Base<'t>> {
        if target.base.is_null() {
            return None;
        }
        Some(Base { ptr: target.base, width: target.width, height: target.height, stride: target.stride_bytes, _t: PhantomData })
    }

    /// Row `y`, or `None` outside the target.
    pub fn row(&self, y: i32) -> Option<&[u8]> {
        if y < 0 || y >= self.height {
            return None;
        }
        // SAFETY: 0 <= y < height; a row holds width * 4 bytes of the base buffer.
        Some(unsafe { std::slice::from_raw_parts(self.ptr.add(y as usize * self.stride as usize), self.width as usize * 4) })
    }
}
