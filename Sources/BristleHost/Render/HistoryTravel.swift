/// A run of a script's `undo` and `redo` actions, folded into one net move through the
/// history that is applied only when something else happens (a stroke, a clear, ticks, a
/// brush change, the end of the script).
///
/// Undo and redo each swap a step's tiles, so 500 undo/redo pairs of a stroke covering the
/// canvas would copy the canvas 1,000 times; folded, they cost nothing, and any run costs what
/// its net move costs. Each action still learns how many steps it did, exactly as if it had
/// run on its own: undo can take back what the history holds plus what the run redid, redo
/// what it holds undone plus what the run undid.
struct HistoryTravel {
    /// The net move so far: negative steps undo, positive redo.
    private(set) var offset = 0
    /// True when an undo or redo action is waiting to be applied.
    private(set) var isPending = false

    /// Folds `undo steps`; returns what it did (fewer steps than asked when the history,
    /// after the run so far, holds fewer).
    mutating func undo(_ steps: Int, in history: TileHistory) -> HistoryChange {
        let performed = min(steps, history.undoCount + offset)
        offset -= performed
        isPending = true
        return HistoryChange(requested: steps, performed: performed, dirty: .empty)
    }

    /// Folds `redo steps`; see ``undo(_:in:)``.
    mutating func redo(_ steps: Int, in history: TileHistory) -> HistoryChange {
        let performed = min(steps, history.redoCount - offset)
        offset += performed
        isPending = true
        return HistoryChange(requested: steps, performed: performed, dirty: .empty)
    }

    /// Applies the net move to `session` (nothing when no action is waiting) and starts a new run.
    mutating func apply(to session: DrawingSession) throws(SessionError) {
        guard isPending else { return }
        try session.travel(by: offset)
        offset = 0
        isPending = false
    }
}
