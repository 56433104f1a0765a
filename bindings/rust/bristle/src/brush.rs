use crate::brush_info::BrushInfo;
use crate::host::Host;
use crate::param::{Param, ParamValue};
use crate::sample::Sample;
use crate::samples::Samples;
use crate::status::Result;
use crate::stroke_context::StrokeContext;
use crate::target::Target;

/// A brush: its descriptor and the hooks of the drawing loop (docs/ABI.md section 4).
///
/// The host drives one instance through strokes: `begin`, then `moved` for every input event,
/// then `ended` (or `cancelled`), each followed by a `draw` (except `cancelled`). Calls on one
/// instance never overlap, but may come from different threads, hence `Send`.
///
/// - A **continuous** brush ([`BrushInfo::continuous`]) draws the new part of the stroke
///   into the committed layer after every event.
/// - A non-continuous brush draws its whole current shape into the preview after every
///   event (the host restores what the previous preview draw reported) and the final shape
///   into the committed layer after `ended`.
///
/// A hook returns `Err` for a failure the host reports (it then abandons the stroke). Bad
/// input (NaN coordinates, pressure out of range) is not a failure: clamp or skip it. A panic
/// in a hook is caught and reported as [`Status::Failed`](crate::Status::Failed).
pub trait Brush: Send + Sized + 'static {
    /// The descriptor: id, name, capabilities and parameters.
    const INFO: BrushInfo;

    /// A new instance. Every parameter is then set to its default through `set_param`.
    fn new(host: &Host) -> Self;

    /// A parameter changed (between strokes only): `value` is already checked, clamped and
    /// rounded. Called once per parameter with its default right after `new`.
    fn set_param(&mut self, param: &'static Param, value: ParamValue) {
        let _ = (param, value);
    }

    /// A stroke begins at `sample`. Forget what should not carry over from earlier strokes.
    fn begin(&mut self, stroke: &StrokeContext, sample: &Sample) -> Result;

    /// One input event's samples, oldest first (the last is the event's own position). Any
    /// predicted samples received earlier are now stale.
    fn moved(&mut self, samples: &Samples) -> Result;

    /// Where the stroke is expected to go next (only with [`BrushInfo::wants_predicted`]);
    /// draw them into the preview only and forget them at the next event.
    fn predicted(&mut self, samples: &Samples) -> Result {
        let _ = samples;
        Ok(())
    }

    /// The pen lifted at `sample`. A committed `draw` follows; then the stroke is over.
    fn ended(&mut self, sample: &Sample) -> Result;

    /// The stroke is abandoned; the host restores the pixels itself. Drop the stroke's state.
    fn cancelled(&mut self);

    /// Time-driven effects between strokes (only with [`BrushInfo::wants_ticks`]): `t`
    /// seconds since the last stroke ended, `dt` since the previous tick.
    fn tick(&mut self, t: f64, dt: f64) -> Result {
        let _ = (t, dt);
        Ok(())
    }

    /// Draws into `target` (its [`Layer`](crate::Layer) says which). Changes made through
    /// the target's services are reported dirty automatically.
    fn draw(&mut self, target: &mut Target) -> Result;
}
