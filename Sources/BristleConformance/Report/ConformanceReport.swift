import BristleHost

/// The results of one conformance run, with the verdict on the whole: conformant at the tier
/// when every result is `pass`, `warn` or `skip`.
public struct ConformanceReport: Sendable, Codable {
    /// The JSON schema identifier (see docs/CONFORMANCE.md).
    public var schema = "bristle-conform/1"
    public var plugin: String
    public var tier: ConformanceTier
    public var seed: UInt64
    /// "child-process" or "in-process".
    public var isolation: String
    public var results: [TestResult]
    public var seconds: Double
    /// Per hook numbers of the standard sheet (docs/guides/see-your-brush.md) drawn through
    /// the brush, as `bristle render --stats` reports them; nil when not measured (the brush is
    /// not conformant, or the run was asked for one test).
    public var hookStatistics: [HookStatistics.Row]?
    /// Why ``hookStatistics`` is missing when the measurement was tried and failed.
    public var hookStatisticsError: String?

    public init(plugin: String, tier: ConformanceTier, seed: UInt64, isolation: String,
                results: [TestResult], seconds: Double) {
        self.plugin = plugin
        self.tier = tier
        self.seed = seed
        self.isolation = isolation
        self.results = results
        self.seconds = seconds
    }

    /// True when no result is fail, crash or timeout.
    public var conformant: Bool { results.allSatisfy { $0.verdict.isConformant } }

    /// How many results have each verdict.
    public var counts: [Verdict: Int] {
        var c: [Verdict: Int] = [:]
        for r in results { c[r.verdict, default: 0] += 1 }
        return c
    }

    /// The final line: `conformant at tier standard: 40 pass, 2 skip ... (seed 7, 1.2 s)`.
    public var summaryLine: String {
        let parts = Verdict.allCases.compactMap { v in counts[v].map { "\($0) \(v.rawValue)" } }
        let head = conformant ? "CONFORMANT at tier \(tier.rawValue)" : "NOT CONFORMANT at tier \(tier.rawValue)"
        let time = (seconds * 10).rounded() / 10
        return "\(head): \(parts.joined(separator: ", ")) (\(results.count) results, seed \(seed), \(time) s, \(isolation))"
    }
}
