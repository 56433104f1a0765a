import BristleHost

/// What `bristle render --stats --json` prints: the per-event times and the per-hook rows.
struct RenderStatsReport: Encodable {
    /// Input events played, and their median and 99th-percentile time in microseconds.
    var events: Int
    var p50Microseconds: Double
    var p99Microseconds: Double
    var hooks: [HookStatistics.Row]
}
