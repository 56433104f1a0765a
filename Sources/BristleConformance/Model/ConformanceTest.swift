/// One conformance check as a value, shared by the CLI (`bristle conform`) and the project's
/// tests: a stable id (`group.name`), the tier that includes it, its scope, a sentence for
/// `--list-tests`, and the body, which runs inside a child process (or in-process with
/// `--in-process`).
///
/// The body gets a ``TestContext`` (the plugin path, the brush id for brush-scoped tests, the
/// seed, the hook recorder) and returns a ``TestOutcome``; it may also throw ``CheckFailure``.
public struct ConformanceTest: Sendable {
    public let id: String
    public let tier: ConformanceTier
    public let scope: TestScope
    public let summary: String
    public let run: @Sendable (TestContext) throws(CheckFailure) -> TestOutcome

    public init(_ id: String, tier: ConformanceTier, scope: TestScope, _ summary: String,
                run: @escaping @Sendable (TestContext) throws(CheckFailure) -> TestOutcome) {
        self.id = id
        self.tier = tier
        self.scope = scope
        self.summary = summary
        self.run = run
    }

    /// The group: the part of the id before the first dot (`library`, `canvas`, ...).
    public var group: String { String(id.prefix { $0 != "." }) }
}
