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

    /// The `q` quantile (0...1) of the event times in microseconds, or nil without samples.
    public func eventMicroseconds(quantile q: Double) -> Double? {
        guard !eventNanoseconds.isEmpty else { return nil }
        let sorted = eventNanoseconds.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * q).rounded())))
        return Double(sorted[index]) / 1000
    }
}
