/// What a test's body concludes: a verdict and, for anything but a pass, a sentence saying
/// what was observed and what the ABI expects. A body reports failures by returning an outcome
/// (or throwing a ``CheckFailure``), never by trapping.
public struct TestOutcome: Sendable, Codable, Equatable {
    public var verdict: Verdict
    public var message: String
    /// Brush ids the test found (only `library.load` fills it: the runner uses it to plan the
    /// per-brush tests).
    public var brushes: [String]

    public init(_ verdict: Verdict, _ message: String = "", brushes: [String] = []) {
        self.verdict = verdict
        self.message = message
        self.brushes = brushes
    }

    public static let pass = TestOutcome(.pass)

    /// A failure with an explanation.
    public static func fail(_ message: String) -> TestOutcome { TestOutcome(.fail, message) }

    /// A skip with the absent precondition.
    public static func skip(_ message: String) -> TestOutcome { TestOutcome(.skip, message) }
}
