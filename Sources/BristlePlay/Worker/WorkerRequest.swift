/// What the server asks its brush worker to do: the code of a request frame (``WorkerPipe``).
/// Every request gets one ``WorkerReply``.
enum WorkerRequest: UInt8 {
    /// Payload: a whole stroke script as JSON (the recording so far). The worker renders it,
    /// as `bristle render` would, into the session it then draws on; the reply holds the whole
    /// committed layer as one patch.
    case start = 1
    /// Payload: one action as JSON (`brush`, `undo`, `redo`, `clear` or `ticks`).
    case action = 2
    /// Payload: a stroke object as JSON (its `pointerType` and first event): begins a stroke.
    case begin = 3
    /// Payload: one event as JSON: continues the stroke.
    case move = 4
    /// No payload: ends the stroke on its last sample.
    case end = 5
    /// No payload: cancels the stroke.
    case cancel = 6
}
