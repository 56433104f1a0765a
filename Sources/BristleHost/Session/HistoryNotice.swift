/// The history dropped its oldest steps to stay within its memory budget: those steps can no
/// longer be undone. Returned by ``DrawingSession/takeHistoryNotices()``; the CLI prints it
/// as a warning.
public struct HistoryNotice: Equatable, Sendable, CustomStringConvertible {
    /// How many steps were dropped at once.
    public var droppedSteps: Int
    /// The memory they held, in bytes.
    public var freedBytes: Int
    /// The budget in force, in bytes.
    public var budgetBytes: Int
    /// Steps left to undo after the drop.
    public var remainingSteps: Int

    public init(droppedSteps: Int, freedBytes: Int, budgetBytes: Int, remainingSteps: Int) {
        self.droppedSteps = droppedSteps
        self.freedBytes = freedBytes
        self.budgetBytes = budgetBytes
        self.remainingSteps = remainingSteps
    }

    public var description: String {
        "the undo history reached its budget of \(Self.size(budgetBytes)): dropped the \(droppedSteps) oldest step(s) (\(Self.size(freedBytes))); \(remainingSteps) step(s) can still be undone"
    }

    /// A byte count for people: whole MiB from 1 MiB up, else KiB (one decimal), else bytes.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 20 { return "\((Double(bytes) / Double(1 << 20) * 10).rounded() / 10) MiB" }
        if bytes >= 1 << 10 { return "\((Double(bytes) / Double(1 << 10) * 10).rounded() / 10) KiB" }
        return "\(bytes) bytes"
    }
}
