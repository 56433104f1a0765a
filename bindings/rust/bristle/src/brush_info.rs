use crate::param::Param;
use crate::sys;

/// What the host lists about a brush (its `bristle_descriptor_t`) and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BrushInfo {
    /// Stable reverse-DNS id, e.g. "org.example.ink": printable ASCII, no spaces, at most 255
    /// bytes. Change it only when behaviour changes incompatibly.
    pub id: &'static str,
    /// Human-readable name (not empty).
    pub name: &'static str,
    /// Who made it.
    pub vendor: &'static str,
    /// The brush's own version, e.g. "1.0.0".
    pub version: &'static str,
    /// One or two sentences.
    pub description: &'static str,
    /// Keywords ("pencil", "shape").
    pub tags: &'static [&'static str],
    /// Commit after every event (pencil) instead of only at `ended` (line, rectangle).
    pub continuous: bool,
    /// Wants predicted samples through `predicted` (drawn into the preview only).
    pub wants_predicted: bool,
    /// Wants `tick` calls between strokes.
    pub wants_ticks: bool,
    /// Output is a pure function of (initial pixels, parameters, samples, seed, ticks).
    pub deterministic: bool,
    /// The parameters, in the order the host lists them.
    pub params: &'static [Param],
}

impl BrushInfo {
    /// A continuous, deterministic brush with no parameters; change fields with struct update
    /// syntax: `BrushInfo { params: &PARAMS, ..BrushInfo::new(id, name) }`.
    pub const fn new(id: &'static str, name: &'static str) -> BrushInfo {
        BrushInfo {
            id,
            name,
            vendor: "",
            version: "1.0.0",
            description: "",
            tags: &[],
            continuous: true,
            wants_predicted: false,
            wants_ticks: false,
            deterministic: true,
            params: &[],
        }
    }

    /// The `BRISTLE_BRUSH_*` flags.
    pub fn flags(&self) -> u32 {
        let mut flags = 0;
        for (on, bit) in [
            (self.continuous, sys::BRISTLE_BRUSH_CONTINUOUS),
            (self.wants_predicted, sys::BRISTLE_BRUSH_WANTS_PREDICTED),
            (self.wants_ticks, sys::BRISTLE_BRUSH_WANTS_TICKS),
            (self.deterministic, sys::BRISTLE_BRUSH_DETERMINISTIC),
        ] {
            if on {
                flags |= bit;
            }
        }
        flags
    }
}
