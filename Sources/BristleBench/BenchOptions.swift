import BristleHost

/// How `bristle bench` runs its cases (the peers' options, WORKLOAD.md section 5).
public struct BenchOptions: Sendable, Equatable {
    /// Timed repetitions per case (the statistics are over these).
    public var reps = 11
    /// Untimed repetitions before them.
    public var warmup = 1
    /// How many segments of the 10,000-sample stroke to draw (a prefix of the same curve).
    public var segments = BenchWorkload.sampleCount - 1
    /// Where to write `bristle_<case>.png` after each case; nil writes none.
    public var pngDirectory: String?
    /// Toggle callgrind collection around the timed region of every measured repetition.
    public var callgrind = false

    public init() {}

    /// Largest accepted `reps`/`warmup`.
    public static let maximumReps = 10_000
}
