/// A brush written in Swift: a small type the kit drives through the C ABI's hooks.
///
/// The kit creates one value per brush instance with ``init(host:)`` and calls the hooks in
/// the order `bristle.h` describes: `begin`, then `moved`/`predicted` for each event, then
/// `ended` or `cancelled`; `draw(into:)` follows every hook except `cancelled`. The kit does
/// everything else: descriptors, the factory, the entry, the parameters extension, state checks
/// (a hook called at the wrong time never reaches the brush) and honest dirty rectangles
/// (``Canvas`` records every pixel it changes).
///
/// A hook that cannot go on throws a ``BrushFailure``; the host then abandons the stroke. Bad
/// input (NaN coordinates, huge widths) is not a failure: clamp or skip it. Never trap: a trap
/// in a brush kills the host process.
public protocol Brush {
    /// What the brush is: id, name, capabilities. Read once, when the library is loaded.
    static var descriptor: BrushDescriptor { get }

    /// The brush's parameters (`--param ID=VALUE`), in the order hosts list them. Read once.
    static var parameters: [Parameter] { get }

    /// Makes a new instance. `host` lives as long as the instance.
    init(host: Host) throws(BrushFailure)

    /// A stroke begins at `sample`. `stroke` holds the colour, width, seed and parameters.
    mutating func begin(_ stroke: Stroke, at sample: Sample) throws(BrushFailure)

    /// One input event's samples, oldest first (at least one).
    mutating func moved(_ samples: [Sample]) throws(BrushFailure)

    /// Where the stroke is expected to go next; drawn into the preview only. Called only when
    /// the descriptor has `.wantsPredicted`.
    mutating func predicted(_ samples: [Sample]) throws(BrushFailure)

    /// The pen lifted at `sample`; a committed draw follows, then the stroke is over.
    mutating func ended(at sample: Sample) throws(BrushFailure)

    /// The stroke is abandoned: drop stroke state. The host restores the pixels itself.
    mutating func cancelled()

    /// Time-driven effects after lift; a committed draw follows. Called only when the
    /// descriptor has `.wantsTicks`.
    mutating func tick(time: Double, delta: Double) throws(BrushFailure)

    /// Draws into `canvas` (the committed layer or the preview: `canvas.layer`).
    mutating func draw(into canvas: Canvas) throws(BrushFailure)
}

extension Brush {
    /// No parameters unless the brush declares some.
    public static var parameters: [Parameter] { [] }

    /// Ignores predictions.
    public mutating func predicted(_ samples: [Sample]) throws(BrushFailure) {}

    /// Ignores ticks.
    public mutating func tick(time: Double, delta: Double) throws(BrushFailure) {}
}
