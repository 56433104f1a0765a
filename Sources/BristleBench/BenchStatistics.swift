import BristleHost

/// Order statistics of a list of durations, computed as the peers' `wl_stats` does
/// (the median of an even count is the mean of the middle two).
public struct BenchStatistics: Sendable, Equatable {
    public var min: Double
    public var median: Double
    public var max: Double
    public var mean: Double

    /// Statistics of `values` (at least one).
    public init(_ values: [Double]) {
        precondition(!values.isEmpty)
        let v = values.sorted()
        let n = v.count
        min = v[0]
        max = v[n - 1]
        mean = v.reduce(0, +) / Double(n)
        median = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])
    }

    /// The `q` quantile (0...1) of `values` by the nearest-rank method; nil when empty.
    public static func quantile(_ q: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let v = values.sorted()
        let rank = Int((q * Double(v.count)).rounded(.up))
        return v[Swift.min(v.count - 1, Swift.max(0, rank - 1))]
    }
}
