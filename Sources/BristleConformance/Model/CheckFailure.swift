/// A broken rule found in the middle of a test body; the runner turns it into a `fail`
/// verdict carrying `message`.
public struct CheckFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The test that owns this rule, when the failure is one every test would meet (a brush
    /// whose parameter table is broken cannot be created at all): that test fails, every other
    /// one skips, so the report says it once.
    public var reportedBy: String?

    public init(_ message: String, reportedBy: String? = nil) {
        self.message = message
        self.reportedBy = reportedBy
    }

    public var description: String { message }
}
