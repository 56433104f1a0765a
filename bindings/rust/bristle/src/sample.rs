use crate::sys;
use crate::versioned::read_versioned;

/// What kind of device produced a sample or a stroke (`BRISTLE_POINTER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerType {
    /// Not known.
    Unknown,
    /// A mouse (no pressure).
    Mouse,
    /// A pen's tip.
    Pen,
    /// The eraser end of a pen.
    Eraser,
    /// A finger.
    Touch,
}

impl PointerType {
    /// From the C value; values a later minor may add read as `Unknown`.
    pub fn from_raw(value: u32) -> PointerType {
        match value {
            sys::BRISTLE_POINTER_MOUSE => PointerType::Mouse,
            sys::BRISTLE_POINTER_PEN => PointerType::Pen,
            sys::BRISTLE_POINTER_ERASER => PointerType::Eraser,
            sys::BRISTLE_POINTER_TOUCH => PointerType::Touch,
            _ => PointerType::Unknown,
        }
    }
}

/// One pen, mouse or touch sample, in canvas pixels, copied from the host's sample (so it
/// outlives the hook). Optional channels are `Option`s: `None` when the device did not
/// measure them (their `BRISTLE_SAMPLE_HAS_*` bit is clear). Coordinates may be anything the
/// host passed, including NaN or far outside the canvas: check them before use.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    raw: sys::bristle_sample_t,
}

impl Sample {
    /// The documented defaults of every field (pressure 0.5, altitude pi/2, the rest 0).
    fn defaults() -> sys::bristle_sample_t {
        sys::bristle_sample_t {
            struct_size: std::mem::size_of::<sys::bristle_sample_t>() as u32,
            pressure: 0.5,
            altitude: std::f32::consts::FRAC_PI_2,
            ..Default::default()
        }
    }

    /// Copies the sample at `ptr`: at most its `struct_size` bytes, over the defaults.
    ///
    /// # Safety
    /// `ptr` points to a sample the host passed in the current call.
    pub unsafe fn read(ptr: *const sys::bristle_sample_t) -> Sample {
        Sample { raw: read_versioned(ptr, Sample::defaults()) }
    }

    /// A sample built from raw fields (for tests); `struct_size` is set to this crate's size.
    pub fn from_raw(raw: sys::bristle_sample_t) -> Sample {
        Sample { raw: sys::bristle_sample_t { struct_size: Sample::defaults().struct_size, ..raw } }
    }

    /// The raw fields (defaults where the host wrote less).
    pub fn raw(&self) -> &sys::bristle_sample_t {
        &self.raw
    }

    /// Canvas pixels from the left edge.
    pub fn x(&self) -> f64 {
        self.raw.x
    }

    /// Canvas pixels from the top edge (y grows downwards).
    pub fn y(&self) -> f64 {
        self.raw.y
    }

    /// Seconds since the stroke began.
    pub fn time(&self) -> f64 {
        self.raw.t
    }

    /// True when both coordinates are finite numbers.
    pub fn is_finite(&self) -> bool {
        self.raw.x.is_finite() && self.raw.y.is_finite()
    }

    /// The `BRISTLE_SAMPLE_*` flags (ignore bits you do not know).
    pub fn flags(&self) -> u32 {
        self.raw.flags
    }

    /// `value` when the device measured the channel (`flag` is set), else `None`.
    fn measured<T>(&self, flag: u32, value: T) -> Option<T> {
        if self.raw.flags & flag != 0 {
            Some(value)
        } else {
            None
        }
    }

    /// Pressure in [0, 1] after the host's pressure curve, when measured.
    pub fn pressure(&self) -> Option<f32> {
        self.measured(sys::BRISTLE_SAMPLE_HAS_PRESSURE, self.raw.pressure)
    }

    /// (force, max_force) in device units, when measured.
    pub fn force(&self) -> Option<(f32, f32)> {
        self.measured(sys::BRISTLE_SAMPLE_HAS_FORCE, (self.raw.force, self.raw.max_force))
    }

    /// (altitude, azimuth) in radians, when the tilt is measured.
    pub fn tilt(&self) -> Option<(f32, f32)> {
        self.measured(sys::BRISTLE_SAMPLE_HAS_TILT, (self.raw.altitude, self.raw.azimuth))
    }

    /// Barrel rotation in radians, when measured.
    pub fn twist(&self) -> Option<f32> {
        self.measured(sys::BRISTLE_SAMPLE_HAS_TWIST, self.raw.twist)
    }

    /// The airbrush wheel in [-1, 1], when measured.
    pub fn tangential_pressure(&self) -> Option<f32> {
        self.measured(sys::BRISTLE_SAMPLE_HAS_TANGENTIAL, self.raw.tangential_pressure)
    }

    /// Contact (width, height) in canvas pixels, when measured.
    pub fn contact(&self) -> Option<(f32, f32)> {
        self.measured(sys::BRISTLE_SAMPLE_HAS_CONTACT, (self.raw.width, self.raw.height))
    }

    /// True for an intermediate (coalesced) sample of an event.
    pub fn is_coalesced(&self) -> bool {
        self.raw.flags & sys::BRISTLE_SAMPLE_COALESCED != 0
    }

    /// True for a predicted sample (a guess of where the pen goes next).
    pub fn is_predicted(&self) -> bool {
        self.raw.flags & sys::BRISTLE_SAMPLE_PREDICTED != 0
    }

    /// The device that produced the sample.
    pub fn pointer_type(&self) -> PointerType {
        PointerType::from_raw(self.raw.pointer_type)
    }

    /// The Pointer Events `buttons` bitmask.
    pub fn buttons(&self) -> u32 {
        self.raw.buttons
    }
}
