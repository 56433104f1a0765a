/// A broken rule found in the middle of a test body; the runner turns it into a `fail`
/// verdict carrying `message`.
public struct CheckFailure: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
