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
        "the undo history reached its budget of \(ByteCount.text(budgetBytes)): dropped the \(droppedSteps) oldest step(s) (\(ByteCount.text(freedBytes))); \(remainingSteps) step(s) can still be undone"
    }
}
