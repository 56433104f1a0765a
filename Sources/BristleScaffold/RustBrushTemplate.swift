/// The Rust brush project `bristle new NAME --lang rust` writes: a cargo package building a
/// `cdylib` with the `bristle` crate (the same source as Examples/rust-brush/src/lib.rs, with
/// the id and name substituted; the Cargo.toml differs only in where it finds the crate), a
/// README and a stroke script.
enum RustBrushTemplate {
    /// `Cargo.toml`. Placeholders: {{NAME}}, {{CRATE}} (the library's file name stem),
    /// {{KIT}} (the folder holding the `bristle` crate).
    static let manifest = ##"""
# Builds target/release/lib{{CRATE}}.so, a Bristle brush plugin in Rust, with
# `cargo build --release`. No registry is needed: the one dependency, the bristle crate (with
# bristle-sys beside it), is found by path.
[package]
name = "{{NAME}}"
version = "1.0.0"
edition = "2021"
rust-version = "1.63"
publish = false

[lib]
crate-type = ["cdylib"]
path = "src/lib.rs"

[dependencies]
bristle = { path = "{{KIT}}/bristle" }

[profile.release]
strip = "debuginfo"
"""##

    /// `src/lib.rs`. Placeholders: {{ID}}, {{TITLE}}.
    static let source = ##"""
//! {{ID}}: an ink pen in Rust. A round-capped line whose width follows the pen's
//! pressure, laid down with one opacity however often the stroke crosses itself.
//!
//! The brush is the type `Ink`; `bristle::export_brushes!` at the bottom turns it into the
//! plugin's one exported symbol, `bristle_entry_v1`. The `bristle` crate does the C plumbing:
//! it steps through samples by their `struct_size`, checks every argument and catches every
//! panic, so none crosses the C ABI.
use bristle::{Brush, BrushInfo, Host, Layer, Mask, Paint, Param, ParamValue, Rect, Result, Sample, Samples, Segment, StrokeContext, Target};

/// The parameters, as `bristle inspect` lists them and `--param ID=VALUE` sets them.
const PARAMS: [Param; 2] = [
    Param::float("opacity", "Opacity", 0.0, 1.0, 1.0).describe("Opacity of the whole stroke, even where it crosses itself."),
    Param::float("thinning", "Thinning", 0.0, 1.0, 0.75).describe("How much light pressure thins the line; 0 keeps the full width."),
];

/// A point of the stroke: canvas pixels and the diameter there.
#[derive(Clone, Copy, PartialEq)]
struct Point {
    x: f64,
    y: f64,
    width: f64,
}

/// The brush. The stroke's coverage accumulates in a mask the size of the canvas (with max,
/// so overlaps never darken), and every draw composites the newly covered cells over the
/// pixels as they were before the stroke.
pub struct Ink {
    opacity: f64,
    thinning: f64,
    stroke: Option<StrokeContext>, // copied in begin: the host's context dies with the call
    pending: Vec<Point>,           // received, not drawn yet
    last: Option<Point>,           // the last point drawn
    mask: Option<Mask>,            // the stroke's coverage, made at the first draw
    covered: Rect,                 // the mask cells this stroke raised
}

impl Ink {
    /// Keeps a sample for the next draw; bad input is skipped, never fatal.
    fn add(&mut self, sample: &Sample) {
        let stroke = match self.stroke {
            Some(s) => s,
            None => return,
        };
        if !sample.is_finite() {
            return;
        }
        let mut width = stroke.pixel_width(); // points times the HiDPI scale
        if let Some(pressure) = sample.pressure() {
            let p = if pressure > 0.0 { (pressure as f64).min(1.0) } else { 0.0 }; // NaN -> 0
            width *= 1.0 - self.thinning * (1.0 - p);
        }
        self.pending.push(Point { x: sample.x(), y: sample.y(), width });
    }
}

impl Brush for Ink {
    const INFO: BrushInfo = BrushInfo {
        vendor: "Example",
        description: "An ink pen: a line whose width follows the pressure, with one opacity.",
        tags: &["ink", "pen"],
        params: &PARAMS,
        ..BrushInfo::new("{{ID}}", "{{TITLE}}")
    };

    fn new(_host: &Host) -> Ink {
        Ink { opacity: 1.0, thinning: 0.75, stroke: None, pending: Vec::new(), last: None, mask: None, covered: Rect::default() }
    }

    fn set_param(&mut self, param: &'static Param, value: ParamValue) {
        match param.id {
            "opacity" => self.opacity = value.number(),
            "thinning" => self.thinning = value.number(),
            _ => {}
        }
    }

    fn begin(&mut self, stroke: &StrokeContext, sample: &Sample) -> Result {
        if let Some(mask) = self.mask.as_mut() {
            mask.clear_rect(self.covered); // the last stroke's coverage
        }
        self.covered = Rect::default();
        self.stroke = Some(*stroke);
        self.pending.clear();
        self.last = None;
        self.add(sample); // a tap is a dot: a zero-length segment
        Ok(())
    }

    fn moved(&mut self, samples: &Samples) -> Result {
        for sample in samples.iter() {
            self.add(&sample);
        }
        Ok(())
    }

    fn ended(&mut self, sample: &Sample) -> Result {
        self.add(sample); // the committed draw that follows still sees it
        Ok(())
    }

    fn cancelled(&mut self) {
        self.pending.clear(); // the host restores the pixels itself
    }

    fn draw(&mut self, target: &mut Target) -> Result {
        let stroke = match self.stroke {
            Some(s) if target.layer() == Layer::Committed => s,
            _ => return Ok(()), // nothing provisional to preview
        };
        let mask = match self.mask.as_mut() {
            Some(m) if m.width() == target.width() && m.height() == target.height() => m,
            _ => {
                self.covered = Rect::default();
                self.mask.insert(Mask::new(target.width(), target.height())?)
            }
        };
        let mut raised = Rect::default();
        for p in self.pending.drain(..) {
            if let Some(last) = self.last {
                if p.x == last.x && p.y == last.y {
                    continue; // no double dot
                }
            }
            let from = self.last.unwrap_or(p);
            let segment = Segment::new((from.x, from.y, from.width), (p.x, p.y, p.width));
            raised = raised.union(target.mask_segment(mask, &segment)?);
            self.last = Some(p);
        }
        self.covered = self.covered.union(raised);
        if !raised.is_empty() {
            let paint = Paint::color(stroke.color()).with_opacity(self.opacity as f32);
            target.composite_mask(mask, raised, &paint, true)?; // over the pre-stroke pixels
        }
        Ok(())
    }
}

bristle::export_brushes!(Ink);
"""##

    /// `README.md`.
    static let readme = ##"""
# {{TITLE}}

A Bristle brush plugin in Rust: `{{ID}}`, an ink pen whose width follows the pen's pressure,
laid down with one opacity. Made with `bristle new {{NAME}} --lang rust`.

Build it (needs `cargo` and `rustc` 1.63 or later; no crates registry: the one dependency,
the `bristle` crate, is found by path):

```sh
cargo build --release
```

Render a stroke script through it, and check it against the ABI:

```sh
bristle render stroke.json -o out.png --brush target/release/lib{{CRATE}}.so
bristle conform target/release/lib{{CRATE}}.so --tier strict
```

`stroke.json` is any Bristle stroke script (see `docs/stroke-format.md` in Bristle). The brush
is the type `Ink` in `src/lib.rs`; `bristle::export_brushes!` exports it as the plugin's one
symbol, `bristle_entry_v1`. The `bristle` crate steps through samples by their `struct_size`
and catches every panic at the C boundary; its documentation (`cargo doc --open`) and
Bristle's `docs/ABI.md` explain every hook.

Draw with it live, with your pen, in a browser: run this in this folder, open the URL it
prints, and pick `{{ID}}`. Each `cargo build --release` replaces the library, and the next
stroke uses the new build (see "Draw with your brush live" in Bristle's `docs/guides/`):

```sh
bristle play --brushes target/release
```
"""##
}
