//! Write Bristle brush plugins in safe Rust.
//!
//! A brush is a type implementing [`Brush`]: a descriptor ([`BrushInfo`]) with its
//! parameters ([`Param`]), and the hooks of one stroke (`begin`, `moved`, `ended`,
//! `cancelled`, and optionally `predicted` and `tick`) plus `draw`. [`export_brushes!`] turns
//! one or more such types into the plugin's one exported symbol, `bristle_entry_v1`, with the
//! entry, factory, instance and parameter tables of the C ABI (`include/bristle/bristle.h`,
//! whose raw bindings are [`sys`]).
//!
//! What the layer does so a brush does not have to:
//! - **Panics never cross the ABI.** Every hook runs inside `catch_unwind`; a panic becomes
//!   `BRISTLE_FAILED` (and one line in the host's log), so the host abandons the stroke
//!   cleanly instead of unwinding into C. Build with the default `panic = "unwind"`: with
//!   `panic = "abort"` a panic ends the host's process.
//! - **The stride rule.** [`Samples`] steps through an event's samples by their
//!   `struct_size`, never by `size_of`, and [`Sample`] copies no more than the host wrote
//!   (fields a smaller, older sample lacks read as their documented defaults).
//! - **Versions.** Services added in 1.1 return [`Status::Unsupported`] on a 1.0 host instead
//!   of calling through a missing pointer, dirty rectangles go to the 1.2 dirty list only when
//!   the host passed one, and the entry declares that it runs on any 1.x host.
//! - **Honest dirty rectangles.** Every drawing call through [`Target`] reports the rectangle
//!   it changed; pixels written by hand are reported with [`Target::mark_dirty`].
//! - **Parameters.** Values are checked, clamped and rounded as the header requires, refused
//!   during a stroke, stored per instance, and handed to [`Brush::set_param`].
//! - **Hostile calls.** NULL arguments, hooks at the wrong time and unknown pixel formats are
//!   refused with the right status before the brush runs.
//!
//! A complete brush: a round dot at every sample, in the user's colour and width (times the
//! HiDPI scale).
//!
//! ```
//! use bristle::*;
//!
//! #[derive(Default)]
//! struct Dots {
//!     stroke: Option<StrokeContext>,
//!     pending: Vec<(f64, f64)>,
//! }
//!
//! impl Brush for Dots {
//!     const INFO: BrushInfo = BrushInfo { vendor: "Example", ..BrushInfo::new("org.example.dots", "Dots") };
//!
//!     fn new(_host: &Host) -> Dots {
//!         Dots::default()
//!     }
//!     fn begin(&mut self, stroke: &StrokeContext, sample: &Sample) -> Result {
//!         self.stroke = Some(*stroke);
//!         self.pending = vec![(sample.x(), sample.y())];
//!         Ok(())
//!     }
//!     fn moved(&mut self, samples: &Samples) -> Result {
//!         self.pending.extend(samples.iter().filter(|s| s.is_finite()).map(|s| (s.x(), s.y())));
//!         Ok(())
//!     }
//!     fn ended(&mut self, _sample: &Sample) -> Result {
//!         Ok(())
//!     }
//!     fn cancelled(&mut self) {
//!         self.pending.clear();
//!     }
//!     fn draw(&mut self, target: &mut Target) -> Result {
//!         let stroke = match self.stroke {
//!             Some(s) if target.layer() == Layer::Committed => s,
//!             _ => return Ok(()),
//!         };
//!         let paint = Paint::color(stroke.color());
//!         for (x, y) in self.pending.drain(..) {
//!             target.fill_disc(x, y, stroke.pixel_width() / 2.0, &paint)?; // reported dirty
//!         }
//!         Ok(())
//!     }
//! }
//!
//! bristle::export_brushes!(Dots);
//! # fn main() { assert!(!bristle_entry_v1().is_null()); }
//! ```
//!
//! The crate has no dependencies beyond `bristle-sys` and compiles with Rust 1.63 and later.

pub use bristle_sys as sys;

mod brush;
mod brush_info;
mod color;
mod host;
mod mask;
mod paint;
mod param;
mod pattern;
mod rect;
mod sample;
mod samples;
mod segment;
mod status;
mod stroke_context;
mod stroke_style;
mod target;
mod versioned;

#[doc(hidden)]
pub mod export;

pub use brush::Brush;
pub use brush_info::BrushInfo;
pub use color::Color;
pub use host::{Host, LogLevel};
pub use mask::Mask;
pub use paint::{Blend, Paint};
pub use param::{Param, ParamKind, ParamValue};
pub use pattern::Pattern;
pub use rect::Rect;
pub use sample::{PointerType, Sample};
pub use samples::Samples;
pub use segment::Segment;
pub use status::{Result, Status};
pub use stroke_context::StrokeContext;
pub use stroke_style::{Cap, Join, StrokeStyle};
pub use target::{Base, Layer, Pixels, Target};
