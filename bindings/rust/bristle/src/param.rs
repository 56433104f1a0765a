use crate::color::Color;

/// What a parameter holds, with its range and default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// Any finite value in [min, max].
    Float {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// The value a new instance starts with.
        default: f64,
    },
    /// A whole number in [min, max].
    Int {
        /// Smallest value.
        min: i32,
        /// Largest value.
        max: i32,
        /// The value a new instance starts with.
        default: i32,
    },
    /// On or off (0 or 1).
    Bool {
        /// The value a new instance starts with.
        default: bool,
    },
    /// One of `names`, by index.
    Enum {
        /// The choices, in order (at least one).
        names: &'static [&'static str],
        /// The index a new instance starts with.
        default: u32,
    },
    /// A colour (straight alpha).
    Color {
        /// The colour a new instance starts with.
        default: Color,
    },
}

/// One parameter of a brush (`bristle.params/1`): what `--param ID=VALUE` sets between
/// strokes. The layer checks, clamps and rounds values, stores them per instance and hands
/// them to [`Brush::set_param`](crate::Brush::set_param).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Stable id: lower-case ASCII letters, digits and '-', unique within the brush.
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// One sentence, or "".
    pub description: &'static str,
    /// e.g. "px", "%", or "".
    pub unit: &'static str,
    /// Type, range and default.
    pub kind: ParamKind,
}

impl Param {
    /// A parameter with no description and no unit.
    pub const fn new(id: &'static str, name: &'static str, kind: ParamKind) -> Param {
        Param { id, name, description: "", unit: "", kind }
    }

    /// A floating-point parameter in [min, max].
    pub const fn float(id: &'static str, name: &'static str, min: f64, max: f64, default: f64) -> Param {
        Param::new(id, name, ParamKind::Float { min, max, default })
    }

    /// The same parameter with a one-sentence description.
    pub const fn describe(self, description: &'static str) -> Param {
        Param { description, ..self }
    }

    /// The same parameter with a unit ("px", "%").
    pub const fn unit(self, unit: &'static str) -> Param {
        Param { unit, ..self }
    }

    /// (min, max, default) as the C ABI carries them (all zero for a colour).
    pub fn range(&self) -> (f64, f64, f64) {
        match self.kind {
            ParamKind::Float { min, max, default } => (min, max, default),
            ParamKind::Int { min, max, default } => (min as f64, max as f64, default as f64),
            ParamKind::Bool { default } => (0.0, 1.0, if default { 1.0 } else { 0.0 }),
            ParamKind::Enum { names, default } => (0.0, names.len().saturating_sub(1) as f64, default as f64),
            ParamKind::Color { .. } => (0.0, 0.0, 0.0),
        }
    }

    /// The value a new instance starts with.
    pub fn default_value(&self) -> ParamValue {
        match self.kind {
            ParamKind::Color { default } => ParamValue::Color(default),
            _ => ParamValue::Number(self.range().2),
        }
    }

    /// `value` as `set_value` must store it: clamped to [min, max], rounded for whole-number
    /// kinds. `None` for a colour parameter or a non-finite value (refused with BAD_ARG).
    pub fn accept(&self, value: f64) -> Option<f64> {
        if !value.is_finite() || matches!(self.kind, ParamKind::Color { .. }) {
            return None;
        }
        let (min, max, _) = self.range();
        let clamped = value.max(min).min(max);
        Some(if matches!(self.kind, ParamKind::Float { .. }) { clamped } else { clamped.round() })
    }
}

/// A parameter's value as the brush receives it: a number (whole for Int, Bool and Enum)
/// or a colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// A Float, Int, Bool (0 or 1) or Enum (index) value, already in range.
    Number(f64),
    /// A Color value, components in [0, 1].
    Color(Color),
}

impl ParamValue {
    /// The number, or 0 for a colour.
    pub fn number(&self) -> f64 {
        match self {
            ParamValue::Number(v) => *v,
            ParamValue::Color(_) => 0.0,
        }
    }

    /// The colour, or transparent black for a number.
    pub fn color(&self) -> Color {
        match self {
            ParamValue::Color(c) => *c,
            ParamValue::Number(_) => Color::default(),
        }
    }
}
