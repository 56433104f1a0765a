/// What a render did, for `--verbose` and `--stats`.
public struct RenderStats: Sendable {
    public var strokes = 0
    public var cancelledStrokes = 0
    public var events = 0
    public var ticks = 0
    /// Ticks requested for a brush that does not want them (ignored).
    public var ignoredTicks = 0
    /// Samples dropped for a non-finite or absurd coordinate (see ``RenderOptions/absurdCoordinate``).
    public var droppedSamples = 0
    /// Frames written with ``RenderOptions/frames``.
    public var framesWritten = 0
    /// Script parameters skipped because `--brush` chose a brush without them.
    public var skippedParameters: [String] = []
    /// Brushes used, by id, in order of first use.
    public var brushes: [String] = []
    /// Time of each input event (hook + draw + preview update), when measured.
    public var eventNanoseconds: [UInt64] = []
    /// Steps taken back by `undo` actions and re-applied by `redo` actions.
    public var undoneSteps = 0
    public var redoneSteps = 0
    /// History steps dropped to stay within the budget (``RenderOptions/historyBudgetBytes``).
    public var droppedHistorySteps = 0
    /// The undo history's memory at the end, in bytes.
    public var historyBytes = 0
    /// Located problems that did not stop the render, in script order, each ready to print
    /// (`FILE:LINE:COLUMN: what happened`): an undo or redo asking for more steps than the
    /// history held, and the first time the history dropped steps for its budget.
    public var warnings: [String] = []

    /// The `q` quantile (0...1) of the event times in microseconds, or nil without samples.
    public func eventMicroseconds(quantile q: Double) -> Double? {
        guard !eventNanoseconds.isEmpty else { return nil }
        let sorted = eventNanoseconds.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * q).rounded())))
        return Double(sorted[index]) / 1000
    }
}
