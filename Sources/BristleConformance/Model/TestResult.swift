/// One test's verdict in a report: which test, on which brush, what happened, the plugin call
/// in flight when a child died, the seed, how long it took, and how to run it again alone.
public struct TestResult: Sendable, Codable, Equatable {
    public var test: String
    /// The brush id for brush-scoped tests; nil for library tests.
    public var brush: String?
    public var tier: ConformanceTier
    public var verdict: Verdict
    public var message: String
    /// The last plugin call, for crashes and timeouts (and failures, when one was recorded).
    public var hook: HookRecord?
    public var seed: UInt64
    public var seconds: Double
    /// A shell command that runs this test alone with the same seed.
    public var reproduce: String

    public init(test: String, brush: String?, tier: ConformanceTier, verdict: Verdict, message: String,
                hook: HookRecord?, seed: UInt64, seconds: Double, reproduce: String) {
        self.test = test
        self.brush = brush
        self.tier = tier
        self.verdict = verdict
        self.message = message
        self.hook = hook
        self.seed = seed
        self.seconds = seconds
        self.reproduce = reproduce
    }
}
