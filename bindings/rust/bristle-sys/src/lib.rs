//! Raw bindings of the Bristle brush plugin ABI, version 1.2 (`include/bristle/bristle.h`).
//!
//! Written by hand, one item per declaration of the header and under the header's names, so
//! the header's documentation applies word for word: every struct is `#[repr(C)]`, every
//! `#define` constant is a `pub const` of the header's type, every function pointer is an
//! `Option<unsafe extern "C" fn ...>` (`None` is NULL) and the header's inline helpers are
//! functions or macros here. The layout tests (`cargo test`) compare every struct's size,
//! alignment and field offsets with `bristle abi --json`, so a drift between this file and the
//! header fails.
//!
//! Rules the types cannot express (see the header's preamble):
//! - Every struct that starts with `struct_size` may grow in a later minor. Read a field added
//!   after 1.0 only when [`bristle_has_field!`] says the writer's `struct_size` covers it.
//! - An array of a versioned struct steps by its elements' `struct_size`, never by
//!   `size_of` (the stride rule): use [`bristle_sample_at`] or [`bristle_array_at`].
//! - Nothing is freed across the boundary; host pointers are valid only during the call that
//!   passed them, unless the header says otherwise.
//!
//! This crate has no dependencies and compiles with Rust 1.63 (Debian 12's rustc) and later.
#![allow(non_camel_case_types)]

use std::ffi::CStr;
use std::os::raw::{c_char, c_double, c_void};

// ---------------------------------------------------------------------------------------------
// Versions, export and struct-size helpers
// ---------------------------------------------------------------------------------------------

/// The ABI major version this crate describes.
pub const BRISTLE_VERSION_MAJOR: u32 = 1;
/// The ABI minor version this crate describes.
pub const BRISTLE_VERSION_MINOR: u32 = 2;
/// The ABI patch version this crate describes.
pub const BRISTLE_VERSION_PATCH: u32 = 0;

/// The name of the one symbol a plugin exports (NUL-terminated, for `dlsym`).
pub const BRISTLE_ENTRY_SYMBOL: &[u8] = b"bristle_entry_v1\0";

/// An ABI version.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct bristle_version_t {
    /// Incompatible changes. Must equal the reader's BRISTLE_VERSION_MAJOR.
    pub major: u32,
    /// Appended fields, flags, extensions.
    pub minor: u32,
    /// Clarifications only.
    pub patch: u32,
}

/// `BRISTLE_VERSION_INIT`: this crate's version.
pub const BRISTLE_VERSION_INIT: bristle_version_t = bristle_version_t {
    major: BRISTLE_VERSION_MAJOR,
    minor: BRISTLE_VERSION_MINOR,
    patch: BRISTLE_VERSION_PATCH,
};

/// `BRISTLE_VERSION_IS_COMPATIBLE(v)`: true when something built against `v` can work with
/// this crate's version (same major).
pub const fn bristle_version_is_compatible(v: bristle_version_t) -> bool {
    v.major == BRISTLE_VERSION_MAJOR
}

/// `(offsetof(type, field), sizeof(((type *)0)->field))`, computed without reading memory
/// (Rust 1.63 predates `core::mem::offset_of!`). Used by the two macros below.
#[doc(hidden)]
#[macro_export]
macro_rules! __bristle_field_span {
    ($type:ty, $field:ident) => {{
        let uninit = ::core::mem::MaybeUninit::<$type>::uninit();
        let base = uninit.as_ptr();
        // SAFETY: addr_of! computes the field's address without reading or creating a reference.
        #[allow(unused_unsafe)]
        let field = unsafe { ::core::ptr::addr_of!((*base).$field) };
        ((field as *const u8 as usize) - (base as *const u8 as usize), $crate::size_of_pointee(field))
    }};
}

/// `offsetof(type, field)`, for the `#[repr(C)]` structs of this crate. Evaluated at run time.
#[macro_export]
macro_rules! bristle_offset_of {
    ($type:ty, $field:ident) => {
        $crate::__bristle_field_span!($type, $field).0
    };
}

/// `sizeof(((type *)0)->field)`. Evaluated at run time.
#[macro_export]
macro_rules! bristle_field_size {
    ($type:ty, $field:ident) => {
        $crate::__bristle_field_span!($type, $field).1
    };
}

/// `BRISTLE_HAS_FIELD(ptr, type, field)`: true when `field` of the struct `*ptr` is present,
/// i.e. the writer's `struct_size` covers it. Use it before reading any field, or calling any
/// function pointer, that a later minor added. `ptr` is a raw pointer or a reference to a
/// versioned struct; reading `struct_size` through it must be valid.
///
/// ```
/// use bristle_sys::*;
/// let s = bristle_sample_t { struct_size: 88, ..Default::default() };
/// assert!(bristle_has_field!(&s, bristle_sample_t, pointer_id));
/// let short = bristle_sample_t { struct_size: 32, ..Default::default() };
/// assert!(!bristle_has_field!(&short, bristle_sample_t, pressure));
/// ```
#[macro_export]
macro_rules! bristle_has_field {
    ($ptr:expr, $type:ty, $field:ident) => {{
        let writer: *const $type = $ptr;
        // SAFETY: the caller promises `$ptr` points to a readable struct_size.
        #[allow(unused_unsafe)]
        let size = unsafe { ::core::ptr::addr_of!((*writer).struct_size).read() } as usize;
        let (offset, field_size) = $crate::__bristle_field_span!($type, $field);
        size >= offset + field_size
    }};
}

/// The size of `T`, for [`bristle_field_size!`].
#[doc(hidden)]
pub const fn size_of_pointee<T>(_: *const T) -> usize {
    core::mem::size_of::<T>()
}

/// A versioned struct: one that starts with `uint32_t struct_size` and may grow in a later
/// minor. Arrays of such structs follow the stride rule ([`bristle_array_at`]).
///
/// # Safety
/// Implement it only for `#[repr(C)]` structs whose first field is `struct_size: u32`.
pub unsafe trait Versioned {}

/// `BRISTLE_ARRAY_AT(type, array, i)`: element `i` of an array of a versioned struct, stepping
/// by the array's `struct_size` (the stride rule), never by `size_of::<T>()`.
///
/// # Safety
/// `array` points to at least `i + 1` elements of the same `struct_size`; the result is valid
/// for the fields that `struct_size` covers (check later fields with [`bristle_has_field!`]).
pub unsafe fn bristle_array_at<T: Versioned>(array: *const T, i: usize) -> *const T {
    let stride = (array as *const u32).read(); // struct_size, the first field (Versioned)
    (array as *const u8).add(i * stride as usize) as *const T
}

// ---------------------------------------------------------------------------------------------
// Status codes and logging
// ---------------------------------------------------------------------------------------------

/// The result of a hook. Zero is success; everything else is a failure the host reports.
pub type bristle_status_t = i32;
/// Done.
pub const BRISTLE_OK: bristle_status_t = 0;
/// Could not do it (e.g. out of memory).
pub const BRISTLE_FAILED: bristle_status_t = 1;
/// The request is valid but not implemented.
pub const BRISTLE_UNSUPPORTED: bristle_status_t = 2;
/// An argument is invalid (unknown id...).
pub const BRISTLE_BAD_ARG: bristle_status_t = 3;
/// Called at the wrong time (draw before begin).
pub const BRISTLE_BAD_STATE: bristle_status_t = 4;

/// Severity of a host log message.
pub type bristle_log_severity_t = i32;
/// Debug message (a host may drop it).
pub const BRISTLE_LOG_DEBUG: bristle_log_severity_t = 0;
/// Information.
pub const BRISTLE_LOG_INFO: bristle_log_severity_t = 1;
/// Something is odd but the brush carries on.
pub const BRISTLE_LOG_WARNING: bristle_log_severity_t = 2;
/// Something failed.
pub const BRISTLE_LOG_ERROR: bristle_log_severity_t = 3;

// ---------------------------------------------------------------------------------------------
// Small value types
// ---------------------------------------------------------------------------------------------

/// A rectangle of whole pixels: columns [x, x + width), rows [y, y + height). Empty when
/// width <= 0 or height <= 0. Not versioned: it will never grow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct bristle_rect_t {
    /// Leftmost column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Number of columns; <= 0 means empty.
    pub width: i32,
    /// Number of rows; <= 0 means empty.
    pub height: i32,
}

/// Since 1.2. `bristle_rect_union`: the smallest rectangle containing `a` and `b`. An empty
/// operand is ignored; two empty operands give {0, 0, 0, 0}. Edges are computed in 64 bits
/// and sizes saturate at `i32::MAX`.
pub fn bristle_rect_union(a: bristle_rect_t, b: bristle_rect_t) -> bristle_rect_t {
    let a_empty = a.width <= 0 || a.height <= 0;
    let b_empty = b.width <= 0 || b.height <= 0;
    if a_empty || b_empty {
        if !b_empty {
            return b;
        }
        return if a_empty { bristle_rect_t::default() } else { a };
    }
    let most = i32::MAX as i64;
    let x0 = a.x.min(b.x) as i64;
    let y0 = a.y.min(b.y) as i64;
    let x1 = (a.x as i64 + a.width as i64).max(b.x as i64 + b.width as i64);
    let y1 = (a.y as i64 + a.height as i64).max(b.y as i64 + b.height as i64);
    bristle_rect_t {
        x: x0 as i32,
        y: y0 as i32,
        width: (x1 - x0).min(most) as i32,
        height: (y1 - y0).min(most) as i32,
    }
}

/// A colour: sRGB-encoded components in [0, 1] with STRAIGHT (not premultiplied) alpha.
/// Not versioned: it will never grow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct bristle_color_t {
    /// Red, [0, 1].
    pub r: f32,
    /// Green, [0, 1].
    pub g: f32,
    /// Blue, [0, 1].
    pub b: f32,
    /// Alpha (opacity), [0, 1]; 1 is opaque.
    pub a: f32,
}

// ---------------------------------------------------------------------------------------------
// Samples
// ---------------------------------------------------------------------------------------------

/// Pointer type: unknown.
pub const BRISTLE_POINTER_UNKNOWN: u32 = 0;
/// Pointer type: mouse.
pub const BRISTLE_POINTER_MOUSE: u32 = 1;
/// Pointer type: pen.
pub const BRISTLE_POINTER_PEN: u32 = 2;
/// Pointer type: the eraser end of a pen.
pub const BRISTLE_POINTER_ERASER: u32 = 3;
/// Pointer type: touch.
pub const BRISTLE_POINTER_TOUCH: u32 = 4;

/// `pressure` is measured.
pub const BRISTLE_SAMPLE_HAS_PRESSURE: u32 = 0x0000_0001;
/// `force` and `max_force` are set.
pub const BRISTLE_SAMPLE_HAS_FORCE: u32 = 0x0000_0002;
/// altitude/azimuth/tilt_x/tilt_y are measured.
pub const BRISTLE_SAMPLE_HAS_TILT: u32 = 0x0000_0004;
/// `twist` is measured.
pub const BRISTLE_SAMPLE_HAS_TWIST: u32 = 0x0000_0008;
/// `tangential_pressure` is measured.
pub const BRISTLE_SAMPLE_HAS_TANGENTIAL: u32 = 0x0000_0010;
/// `width` and `height` are measured.
pub const BRISTLE_SAMPLE_HAS_CONTACT: u32 = 0x0000_0020;
/// An intermediate sample of one event.
pub const BRISTLE_SAMPLE_COALESCED: u32 = 0x0000_0100;
/// A guess of the future; see `predicted`.
pub const BRISTLE_SAMPLE_PREDICTED: u32 = 0x0000_0200;
/// Made up by the host, not measured.
pub const BRISTLE_SAMPLE_SYNTHETIC: u32 = 0x0000_0400;
/// Measured, but may be revised later.
pub const BRISTLE_SAMPLE_ESTIMATED: u32 = 0x0000_0800;

/// One pen, mouse or touch sample, in canvas pixels (see the header for every field's unit
/// and default). Versioned: step arrays of it with [`bristle_sample_at`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct bristle_sample_t {
    /// sizeof(bristle_sample_t) as the host compiled it (the stride of a sample array).
    pub struct_size: u32,
    /// BRISTLE_SAMPLE_* bits. Ignore unknown bits.
    pub flags: u32,
    /// Seconds since the stroke began.
    pub t: f64,
    /// Canvas pixels from the left edge.
    pub x: f64,
    /// Canvas pixels from the top edge.
    pub y: f64,
    /// [0, 1]; meaningful only with HAS_PRESSURE, otherwise 0.5.
    pub pressure: f32,
    /// Raw force in device units; with HAS_FORCE.
    pub force: f32,
    /// The device's maximum force; with HAS_FORCE.
    pub max_force: f32,
    /// [0, pi/2] rad; with HAS_TILT.
    pub altitude: f32,
    /// [0, 2 pi) rad; with HAS_TILT.
    pub azimuth: f32,
    /// [-90, 90] degrees.
    pub tilt_x: f32,
    /// [-90, 90] degrees.
    pub tilt_y: f32,
    /// [0, 2 pi) rad barrel rotation.
    pub twist: f32,
    /// [-1, 1] (airbrush wheel).
    pub tangential_pressure: f32,
    /// Contact width in canvas pixels.
    pub width: f32,
    /// Contact height in canvas pixels.
    pub height: f32,
    /// BRISTLE_POINTER_*.
    pub pointer_type: u32,
    /// Pointer Events `buttons` bitmask.
    pub buttons: u32,
    /// Identifies the pointer within a session.
    pub pointer_id: u32,
}
unsafe impl Versioned for bristle_sample_t {}

/// Since 1.2. `bristle_sample_at`: sample `i` of the array a `moved` or `predicted` hook
/// received, stepping by the samples' `struct_size` (the stride rule).
///
/// # Safety
/// `samples` points to at least `i + 1` samples, as a hook's arguments do for `i < count`.
pub unsafe fn bristle_sample_at(samples: *const bristle_sample_t, i: u32) -> *const bristle_sample_t {
    bristle_array_at(samples, i as usize)
}

// ---------------------------------------------------------------------------------------------
// The stroke context
// ---------------------------------------------------------------------------------------------

/// What the host tells a brush about the stroke it is drawing. Valid only during the call.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct bristle_stroke_context_t {
    /// sizeof(bristle_stroke_context_t) as the host compiled it.
    pub struct_size: u32,
    /// BRISTLE_SAMPLE_HAS_* bits this input device can ever report.
    pub device_flags: u32,
    /// The colour chosen by the user (straight alpha).
    pub color: bristle_color_t,
    /// The width chosen by the user, in points (> 0).
    pub width: f32,
    /// Canvas pixels per point (> 0, default 1).
    pub scale: f32,
    /// Seed for all randomness of this stroke.
    pub seed: u64,
    /// BRISTLE_POINTER_* of the device drawing this stroke.
    pub pointer_type: u32,
    /// The device's maximum force, 0 when unknown.
    pub max_force: f32,
    /// Canvas width in pixels.
    pub canvas_width: i32,
    /// Canvas height in pixels.
    pub canvas_height: i32,
}
unsafe impl Versioned for bristle_stroke_context_t {}

// ---------------------------------------------------------------------------------------------
// Host drawing services
// ---------------------------------------------------------------------------------------------

/// The drawing itself.
pub const BRISTLE_LAYER_COMMITTED: u32 = 0;
/// What is shown: committed + provisional.
pub const BRISTLE_LAYER_PREVIEW: u32 = 1;

/// 4 bytes per pixel, R, G, B, A, sRGB, premultiplied.
pub const BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED: u32 = 1;

/// Premultiplied source-over.
pub const BRISTLE_BLEND_SRC_OVER: u32 = 0;
/// Destination-out: a true erase.
pub const BRISTLE_BLEND_ERASE: u32 = 1;

/// Half-discs at both ends.
pub const BRISTLE_CAP_ROUND: u32 = 0;
/// Since 1.1. Flat ends through the end points.
pub const BRISTLE_CAP_BUTT: u32 = 1;
/// Since 1.1. Flat ends pushed out by half the width.
pub const BRISTLE_CAP_SQUARE: u32 = 2;

/// Since 1.1. A disc of the stroke's width at every vertex.
pub const BRISTLE_JOIN_ROUND: u32 = 0;
/// Since 1.1. Sharp corners up to the miter limit, then bevel.
pub const BRISTLE_JOIN_MITER: u32 = 1;
/// Since 1.1. Outer corners joined by a straight edge.
pub const BRISTLE_JOIN_BEVEL: u32 = 2;

/// Since 1.1. The last point joins the first.
pub const BRISTLE_STROKE_CLOSED: u32 = 0x0000_0001;

/// composite_mask flag: read the destination from target->base.
pub const BRISTLE_COMPOSITE_OVER_BASE: u32 = 0x0000_0001;

/// How to paint: a colour, an opacity and a blend mode.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct bristle_paint_t {
    /// sizeof(bristle_paint_t).
    pub struct_size: u32,
    /// BRISTLE_BLEND_*.
    pub blend: u32,
    /// Straight-alpha colour.
    pub color: bristle_color_t,
    /// Multiplies coverage, [0, 1].
    pub opacity: f32,
}
unsafe impl Versioned for bristle_paint_t {}

/// A segment from (x0, y0) to (x1, y1) whose width goes linearly from width0 to width1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct bristle_segment_t {
    /// sizeof(bristle_segment_t).
    pub struct_size: u32,
    /// BRISTLE_CAP_*.
    pub cap: u32,
    /// Start x, canvas pixels.
    pub x0: f64,
    /// Start y, canvas pixels.
    pub y0: f64,
    /// End x, canvas pixels.
    pub x1: f64,
    /// End y, canvas pixels.
    pub y1: f64,
    /// Diameter at the start, >= 0.
    pub width0: f64,
    /// Diameter at the end, >= 0.
    pub width1: f64,
}
unsafe impl Versioned for bristle_segment_t {}

/// Since 1.1. How a polyline, a rectangle or an ellipse is stroked.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct bristle_stroke_style_t {
    /// sizeof(bristle_stroke_style_t) as the brush compiled it.
    pub struct_size: u32,
    /// BRISTLE_CAP_* for open paths and every dash.
    pub cap: u32,
    /// BRISTLE_JOIN_*.
    pub join: u32,
    /// BRISTLE_STROKE_* bits.
    pub flags: u32,
    /// Stroke width in pixels, >= 0.
    pub width: f64,
    /// For MITER joins: the largest miter length / width.
    pub miter_limit: f64,
    /// `dash_count` lengths in pixels, alternately on and off, or NULL.
    pub dashes: *const c_double,
    /// Entries in `dashes`, at most BRISTLE_MAX_DASHES.
    pub dash_count: u32,
    /// 0.
    pub reserved: u32,
    /// Distance into the dash pattern at the start of the path.
    pub dash_phase: f64,
}
unsafe impl Versioned for bristle_stroke_style_t {}

/// Since 1.1. The most entries a dash array may have.
pub const BRISTLE_MAX_DASHES: u32 = 0x0000_0400;
/// Since 1.1. The most dashes one call draws in the visible part of the target.
pub const BRISTLE_MAX_DASH_PIECES: u32 = 0x0002_0000;
/// Since 1.1. The most points a polyline may have.
pub const BRISTLE_MAX_POLYLINE_POINTS: u32 = 0x0010_0000;

/// Since 1.1. A texture source: a tile of pixels owned by the brush, repeated over the plane.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct bristle_pattern_t {
    /// sizeof(bristle_pattern_t) as the brush compiled it.
    pub struct_size: u32,
    /// BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED.
    pub format: u32,
    /// The tile's top-left pixel.
    pub pixels: *const u8,
    /// Tile columns, 1 ... 65536.
    pub width: i32,
    /// Tile rows, 1 ... 65536.
    pub height: i32,
    /// Bytes from one tile row to the next, >= width * 4.
    pub stride_bytes: i32,
    /// Canvas column where a tile's left edge lies.
    pub offset_x: i32,
    /// Canvas row where a tile's top edge lies.
    pub offset_y: i32,
    /// 0.
    pub reserved: u32,
}
unsafe impl Versioned for bristle_pattern_t {}

/// An 8-bit coverage plane owned by the brush. Not versioned.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct bristle_mask_t {
    /// Row 0 first; row y starts at data + y * stride_bytes.
    pub data: *mut u8,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Bytes from one row to the next, >= width.
    pub stride_bytes: i32,
}

/// Anti-aliased drawing the host offers to brushes. Functions after `composite_mask` are
/// since 1.1: check `bristle_has_field!(services, bristle_services_t, NAME)` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_services_t {
    /// sizeof(bristle_services_t) as the host compiled it.
    pub struct_size: u32,
    /// 0.
    pub reserved: u32,
    /// The host's. Do not touch.
    pub host_data: *mut c_void,
    /// Paints a segment onto the target. Returns the changed rectangle.
    pub fill_segment: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            segment: *const bristle_segment_t,
            paint: *const bristle_paint_t,
        ) -> bristle_rect_t,
    >,
    /// Paints a disc of `radius` pixels centred at (cx, cy).
    pub fill_disc: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            cx: f64,
            cy: f64,
            radius: f64,
            paint: *const bristle_paint_t,
        ) -> bristle_rect_t,
    >,
    /// Accumulates a segment's coverage into `mask` with max.
    pub mask_segment: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            mask: *const bristle_mask_t,
            segment: *const bristle_segment_t,
        ) -> bristle_rect_t,
    >,
    /// Accumulates a disc's coverage into `mask` with max.
    pub mask_disc: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            mask: *const bristle_mask_t,
            cx: f64,
            cy: f64,
            radius: f64,
        ) -> bristle_rect_t,
    >,
    /// Sets the mask cells inside `rect` (clipped) to zero.
    pub clear_mask: Option<
        unsafe extern "C" fn(services: *const bristle_services_t, mask: *const bristle_mask_t, rect: bristle_rect_t),
    >,
    /// Composites `paint` through `mask` inside `rect`.
    pub composite_mask: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            mask: *const bristle_mask_t,
            rect: bristle_rect_t,
            paint: *const bristle_paint_t,
            flags: u32,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. A filled or stroked rectangle.
    pub draw_rect: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            x: f64,
            y: f64,
            width: f64,
            height: f64,
            style: *const bristle_stroke_style_t,
            paint: *const bristle_paint_t,
            pattern: *const bristle_pattern_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. A filled or stroked axis-aligned ellipse.
    pub draw_ellipse: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            cx: f64,
            cy: f64,
            rx: f64,
            ry: f64,
            style: *const bristle_stroke_style_t,
            paint: *const bristle_paint_t,
            pattern: *const bristle_pattern_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. A stroked polyline (or, with a NULL style, a filled polygon).
    pub draw_polyline: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            xy: *const c_double,
            count: u32,
            style: *const bristle_stroke_style_t,
            paint: *const bristle_paint_t,
            pattern: *const bristle_pattern_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. A soft dab.
    pub draw_dab: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            cx: f64,
            cy: f64,
            radius: f64,
            hardness: f64,
            paint: *const bristle_paint_t,
            pattern: *const bristle_pattern_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. draw_rect's coverage, max-combined into `mask`.
    pub mask_rect: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            mask: *const bristle_mask_t,
            x: f64,
            y: f64,
            width: f64,
            height: f64,
            style: *const bristle_stroke_style_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. draw_ellipse's coverage, max-combined into `mask`.
    pub mask_ellipse: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            mask: *const bristle_mask_t,
            cx: f64,
            cy: f64,
            rx: f64,
            ry: f64,
            style: *const bristle_stroke_style_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. draw_polyline's coverage, max-combined into `mask`.
    pub mask_polyline: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            mask: *const bristle_mask_t,
            xy: *const c_double,
            count: u32,
            style: *const bristle_stroke_style_t,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. draw_dab's coverage, max-combined into `mask`.
    pub mask_dab: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            mask: *const bristle_mask_t,
            cx: f64,
            cy: f64,
            radius: f64,
            hardness: f64,
        ) -> bristle_rect_t,
    >,
    /// Since 1.1. composite_mask with a pattern as the source.
    pub composite_mask_pattern: Option<
        unsafe extern "C" fn(
            services: *const bristle_services_t,
            target: *const bristle_target_t,
            mask: *const bristle_mask_t,
            rect: bristle_rect_t,
            paint: *const bristle_paint_t,
            pattern: *const bristle_pattern_t,
            flags: u32,
        ) -> bristle_rect_t,
    >,
}
unsafe impl Versioned for bristle_services_t {}

/// An empty table: `struct_size` 0, every pointer NULL (`None`).
impl Default for bristle_services_t {
    fn default() -> bristle_services_t {
        bristle_services_t {
            struct_size: 0,
            reserved: 0,
            host_data: std::ptr::null_mut(),
            fill_segment: None,
            fill_disc: None,
            mask_segment: None,
            mask_disc: None,
            clear_mask: None,
            composite_mask: None,
            draw_rect: None,
            draw_ellipse: None,
            draw_polyline: None,
            draw_dab: None,
            mask_rect: None,
            mask_ellipse: None,
            mask_polyline: None,
            mask_dab: None,
            composite_mask_pattern: None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The draw target
// ---------------------------------------------------------------------------------------------

/// Since 1.2. The most rectangles a 1.2 host's dirty list holds.
pub const BRISTLE_MAX_DIRTY_RECTS: u32 = 16;

/// Since 1.2. The dirty rectangles of one draw (bristle_target_t.dirty_list): host-owned,
/// valid only during that draw. A brush only appends (see [`bristle_dirty_add`]).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_dirty_list_t {
    /// sizeof(bristle_dirty_list_t) as the host compiled it.
    pub struct_size: u32,
    /// Rectangles in `rects` so far; 0 when the draw begins.
    pub count: u32,
    /// Room in `rects`.
    pub capacity: u32,
    /// 0.
    pub reserved: u32,
    /// `capacity` rectangles, a plain array.
    pub rects: *mut bristle_rect_t,
}
unsafe impl Versioned for bristle_dirty_list_t {}

/// The pixels a brush draws into, with everything it needs to draw them. Valid only during
/// the `draw` call that passes it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_target_t {
    /// sizeof(bristle_target_t) as the host compiled it.
    pub struct_size: u32,
    /// BRISTLE_PIXEL_FORMAT_*.
    pub format: u32,
    /// Top-left pixel. Read-write, [0,width) x [0,height) only.
    pub pixels: *mut u8,
    /// The committed layer before the current stroke began; NULL between strokes.
    pub base: *const u8,
    /// Columns (> 0).
    pub width: i32,
    /// Rows (> 0).
    pub height: i32,
    /// Bytes from one row to the next, >= width * 4.
    pub stride_bytes: i32,
    /// BRISTLE_LAYER_COMMITTED or BRISTLE_LAYER_PREVIEW.
    pub layer: u32,
    /// The current (or, for ticks, the last) stroke's context. Never NULL.
    pub stroke: *const bristle_stroke_context_t,
    /// Host drawing services. Never NULL.
    pub services: *const bristle_services_t,
    /// Since 1.2: where the draw may report several dirty rectangles, or NULL.
    pub dirty_list: *mut bristle_dirty_list_t,
}
unsafe impl Versioned for bristle_target_t {}

/// An empty target: `struct_size` 0, every number 0, every pointer NULL.
impl Default for bristle_target_t {
    fn default() -> bristle_target_t {
        bristle_target_t {
            struct_size: 0,
            format: 0,
            pixels: std::ptr::null_mut(),
            base: std::ptr::null(),
            width: 0,
            height: 0,
            stride_bytes: 0,
            layer: 0,
            stroke: std::ptr::null(),
            services: std::ptr::null(),
            dirty_list: std::ptr::null_mut(),
        }
    }
}

/// Since 1.2. `bristle_dirty_add`: reports `rect` as changed by the current draw: grows
/// `*dirty` to contain it and, when the target carries a dirty list, appends it there (merging
/// it into the listed rectangle it grows least when the list is full). Empty rectangles are
/// ignored. On a 1.0 or 1.1 host it only grows `*dirty`.
///
/// # Safety
/// `target` is NULL or the target of the current draw; `dirty` is NULL or the draw's `dirty`.
pub unsafe fn bristle_dirty_add(target: *const bristle_target_t, dirty: *mut bristle_rect_t, rect: bristle_rect_t) {
    if rect.width <= 0 || rect.height <= 0 {
        return;
    }
    if !dirty.is_null() {
        *dirty = bristle_rect_union(*dirty, rect);
    }
    if target.is_null() || !bristle_has_field!(target, bristle_target_t, dirty_list) {
        return;
    }
    let list = (*target).dirty_list;
    if list.is_null() || !bristle_has_field!(list, bristle_dirty_list_t, rects) {
        return;
    }
    let list = &mut *list;
    if list.rects.is_null() || list.capacity == 0 || list.count > list.capacity {
        return;
    }
    if list.count < list.capacity {
        *list.rects.add(list.count as usize) = rect;
        list.count += 1;
        return;
    }
    let mut best = 0usize;
    let mut best_growth = -1i64;
    for i in 0..list.count as usize {
        let r = *list.rects.add(i);
        let u = bristle_rect_union(r, rect);
        let before = if r.width > 0 && r.height > 0 { r.width as i64 * r.height as i64 } else { 0 };
        let growth = u.width as i64 * u.height as i64 - before;
        if best_growth < 0 || growth < best_growth {
            best_growth = growth;
            best = i;
        }
    }
    let slot = list.rects.add(best);
    *slot = bristle_rect_union(*slot, rect);
}

// ---------------------------------------------------------------------------------------------
// The host
// ---------------------------------------------------------------------------------------------

/// What the host gives a brush at `create`. Lives until the brush is destroyed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_host_t {
    /// sizeof(bristle_host_t) as the host compiled it.
    pub struct_size: u32,
    /// The ABI version the host was built with.
    pub abi: bristle_version_t,
    /// The host's. Do not touch.
    pub host_data: *mut c_void,
    /// e.g. "bristle". UTF-8, never NULL.
    pub name: *const c_char,
    /// UTF-8, never NULL.
    pub vendor: *const c_char,
    /// The host's version string, never NULL.
    pub version: *const c_char,
    /// Logs one line for a person to read. [any-thread]
    pub log: Option<unsafe extern "C" fn(host: *const bristle_host_t, severity: bristle_log_severity_t, message: *const c_char)>,
    /// Returns a host extension by id, or NULL. [any-thread]
    pub get_extension: Option<unsafe extern "C" fn(host: *const bristle_host_t, id: *const c_char) -> *const c_void>,
    /// The drawing services, the same table every target carries. Never NULL.
    pub services: *const bristle_services_t,
}
unsafe impl Versioned for bristle_host_t {}

// ---------------------------------------------------------------------------------------------
// Descriptors
// ---------------------------------------------------------------------------------------------

/// Commit after every event instead of only at `ended`.
pub const BRISTLE_BRUSH_CONTINUOUS: u32 = 0x0000_0001;
/// Wants predicted samples through `predicted`.
pub const BRISTLE_BRUSH_WANTS_PREDICTED: u32 = 0x0000_0002;
/// Wants `tick` calls between strokes.
pub const BRISTLE_BRUSH_WANTS_TICKS: u32 = 0x0000_0004;
/// Output is a pure function of (initial pixels, parameters, samples, seed, ticks).
pub const BRISTLE_BRUSH_DETERMINISTIC: u32 = 0x0000_0008;

/// Describes one brush in a library. Owned by the plugin; valid until entry->deinit().
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_descriptor_t {
    /// sizeof(bristle_descriptor_t) as the plugin compiled it.
    pub struct_size: u32,
    /// BRISTLE_BRUSH_* capability bits.
    pub flags: u32,
    /// The ABI version the brush was built with.
    pub abi: bristle_version_t,
    /// Stable reverse-DNS id.
    pub id: *const c_char,
    /// Human-readable name. Not empty.
    pub name: *const c_char,
    /// Who made it.
    pub vendor: *const c_char,
    /// The brush's own version.
    pub version: *const c_char,
    /// One or two sentences.
    pub description: *const c_char,
    /// NULL-terminated list of keywords, or NULL.
    pub tags: *const *const c_char,
}
unsafe impl Versioned for bristle_descriptor_t {}

// ---------------------------------------------------------------------------------------------
// The brush instance and its hooks
// ---------------------------------------------------------------------------------------------

/// One brush instance: created by the factory, destroyed by `destroy`. Owned by the plugin.
/// Every function pointer is required except `predicted` and `tick` (see the header).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_brush_t {
    /// sizeof(bristle_brush_t) as compiled.
    pub struct_size: u32,
    /// 0.
    pub reserved: u32,
    /// This brush's descriptor. Never NULL.
    pub descriptor: *const bristle_descriptor_t,
    /// The plugin's. The host never touches it.
    pub brush_data: *mut c_void,
    /// Frees the instance. [instance][idle]
    pub destroy: Option<unsafe extern "C" fn(brush: *const bristle_brush_t)>,
    /// Returns the brush's extension with this id, or NULL. [instance]
    pub get_extension: Option<unsafe extern "C" fn(brush: *const bristle_brush_t, id: *const c_char) -> *const c_void>,
    /// A stroke begins with its first sample. [instance][idle]
    pub begin: Option<
        unsafe extern "C" fn(
            brush: *const bristle_brush_t,
            context: *const bristle_stroke_context_t,
            sample: *const bristle_sample_t,
        ) -> bristle_status_t,
    >,
    /// One input event's samples, oldest first (stride: their struct_size). [instance][stroke]
    pub moved: Option<
        unsafe extern "C" fn(brush: *const bristle_brush_t, samples: *const bristle_sample_t, count: u32) -> bristle_status_t,
    >,
    /// Predicted samples, drawn into the preview only. [instance][stroke]
    pub predicted: Option<
        unsafe extern "C" fn(brush: *const bristle_brush_t, samples: *const bristle_sample_t, count: u32) -> bristle_status_t,
    >,
    /// The pen lifted at `sample`. [instance][stroke]
    pub ended: Option<unsafe extern "C" fn(brush: *const bristle_brush_t, sample: *const bristle_sample_t) -> bristle_status_t>,
    /// The stroke is abandoned. [instance][stroke]
    pub cancelled: Option<unsafe extern "C" fn(brush: *const bristle_brush_t)>,
    /// Advances time-driven effects. [instance][idle]
    pub tick: Option<unsafe extern "C" fn(brush: *const bristle_brush_t, t: f64, dt: f64) -> bristle_status_t>,
    /// Draws into `target` and reports the changed pixels in `*dirty`. [instance]
    pub draw: Option<
        unsafe extern "C" fn(
            brush: *const bristle_brush_t,
            target: *const bristle_target_t,
            dirty: *mut bristle_rect_t,
        ) -> bristle_status_t,
    >,
}
unsafe impl Versioned for bristle_brush_t {}

// ---------------------------------------------------------------------------------------------
// The factory
// ---------------------------------------------------------------------------------------------

/// The id to pass to entry->get_factory for the brush factory.
pub const BRISTLE_BRUSH_FACTORY_ID: &CStr =
    unsafe { CStr::from_bytes_with_nul_unchecked(b"bristle.brush-factory/1\0") };

/// Lists and creates the brushes of one library. Owned by the plugin; valid until deinit.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_brush_factory_t {
    /// sizeof(bristle_brush_factory_t) as the plugin compiled it.
    pub struct_size: u32,
    /// 0.
    pub reserved: u32,
    /// Number of brushes in the library (>= 1). [any-thread]
    pub count: Option<unsafe extern "C" fn(factory: *const bristle_brush_factory_t) -> u32>,
    /// The descriptor at `index`, or NULL. [any-thread]
    pub descriptor:
        Option<unsafe extern "C" fn(factory: *const bristle_brush_factory_t, index: u32) -> *const bristle_descriptor_t>,
    /// Creates an instance of the brush whose id equals `id` exactly, or NULL. [any-thread]
    pub create: Option<
        unsafe extern "C" fn(
            factory: *const bristle_brush_factory_t,
            host: *const bristle_host_t,
            id: *const c_char,
        ) -> *const bristle_brush_t,
    >,
}
unsafe impl Versioned for bristle_brush_factory_t {}

// ---------------------------------------------------------------------------------------------
// The entry
// ---------------------------------------------------------------------------------------------

/// What `bristle_entry_v1` returns: a static struct owned by the plugin.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_entry_t {
    /// sizeof(bristle_entry_t) as the plugin compiled it (56 since 1.2).
    pub struct_size: u32,
    /// The ABI the plugin was built with.
    pub abi: bristle_version_t,
    /// Prepares the library (reference-counted). [load]
    pub init: Option<unsafe extern "C" fn(plugin_path: *const c_char) -> bool>,
    /// Balances one successful init. [load]
    pub deinit: Option<unsafe extern "C" fn()>,
    /// Returns the factory with this id, or NULL. [any-thread]
    pub get_factory: Option<unsafe extern "C" fn(factory_id: *const c_char) -> *const c_void>,
    /// Since 1.2. The oldest host ABI this plugin accepts ({1, 0, 0}: any 1.x host).
    pub host_abi_min: bristle_version_t,
}
unsafe impl Versioned for bristle_entry_t {}

/// The type of the entry function, for hosts that dlsym it.
pub type bristle_entry_fn = Option<unsafe extern "C" fn() -> *const bristle_entry_t>;

// ---------------------------------------------------------------------------------------------
// Extension: parameters ("bristle.params/1")
// ---------------------------------------------------------------------------------------------

/// The id of the parameters extension, from brush->get_extension.
pub const BRISTLE_EXT_PARAMS: &CStr =
    unsafe { CStr::from_bytes_with_nul_unchecked(b"bristle.params/1\0") };

/// Any finite value in [min, max].
pub const BRISTLE_PARAM_FLOAT: u32 = 0;
/// A whole number in [min, max].
pub const BRISTLE_PARAM_INT: u32 = 1;
/// 0 (false) or 1 (true).
pub const BRISTLE_PARAM_BOOL: u32 = 2;
/// An index in [min, max] naming enum_names[i - min].
pub const BRISTLE_PARAM_ENUM: u32 = 3;
/// A bristle_color_t; set with set_color.
pub const BRISTLE_PARAM_COLOR: u32 = 4;

/// Describes one parameter. Owned by the plugin; valid until destroy.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_param_info_t {
    /// sizeof(bristle_param_info_t) as the plugin compiled it.
    pub struct_size: u32,
    /// BRISTLE_PARAM_*.
    pub type_: u32,
    /// Stable id: lower-case ASCII letters, digits and '-'.
    pub id: *const c_char,
    /// Human-readable name.
    pub name: *const c_char,
    /// One sentence; "" for none.
    pub description: *const c_char,
    /// e.g. "px", "%", or "".
    pub unit: *const c_char,
    /// Finite; min <= default <= max.
    pub min_value: f64,
    /// Finite.
    pub max_value: f64,
    /// Finite, in range.
    pub default_value: f64,
    /// For ENUM: (max - min + 1) names, NULL-terminated; otherwise NULL.
    pub enum_names: *const *const c_char,
    /// For COLOR: the default; otherwise zeros.
    pub default_color: bristle_color_t,
}
unsafe impl Versioned for bristle_param_info_t {}

/// The parameters extension. Setters are [idle] only.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bristle_params_t {
    /// sizeof(bristle_params_t) as the plugin compiled it.
    pub struct_size: u32,
    /// 0.
    pub reserved: u32,
    /// Number of parameters.
    pub count: Option<unsafe extern "C" fn(brush: *const bristle_brush_t) -> u32>,
    /// The parameter at `index`, or NULL.
    pub info: Option<unsafe extern "C" fn(brush: *const bristle_brush_t, index: u32) -> *const bristle_param_info_t>,
    /// Sets a numeric parameter.
    pub set_value:
        Option<unsafe extern "C" fn(brush: *const bristle_brush_t, id: *const c_char, value: f64) -> bristle_status_t>,
    /// Reads a numeric parameter into *value.
    pub get_value:
        Option<unsafe extern "C" fn(brush: *const bristle_brush_t, id: *const c_char, value: *mut f64) -> bristle_status_t>,
    /// Sets a COLOR parameter.
    pub set_color: Option<
        unsafe extern "C" fn(brush: *const bristle_brush_t, id: *const c_char, color: *const bristle_color_t) -> bristle_status_t,
    >,
    /// Reads a COLOR parameter into *color.
    pub get_color: Option<
        unsafe extern "C" fn(brush: *const bristle_brush_t, id: *const c_char, color: *mut bristle_color_t) -> bristle_status_t,
    >,
}
unsafe impl Versioned for bristle_params_t {}
