/// Undo and redo for one layer, kept as the 64x64 tiles each step changed.
///
/// A *step* is one completed stroke or one clear. Recording a step keeps, for every tile whose
/// bytes the step changed, one copy of that tile: before the step while the step is undoable,
/// after it once undone (see ``TileHistoryEntry``). Memory therefore follows what the steps
/// touched, not the canvas: a stroke across four tiles costs 64 KiB on any canvas.
///
/// Rules:
/// - Recording a step empties the redo side.
/// - ``extendNewest(before:after:in:)`` folds later changes (a brush's ticks after its stroke)
///   into the newest step, while that step is the last thing recorded and has not been undone.
/// - ``budgetBytes`` caps ``bytes``. When a step or a fold goes over, the oldest steps are
///   dropped (and can no longer be undone) until the history fits; the newest step too, if it
///   alone is larger than the budget. Each drop is reported as a ``HistoryNotice``.
///
/// Not thread-safe; it belongs to one ``DrawingSession``.
public final class TileHistory {
    /// The side of a history tile, in pixels.
    public static let tileSize = 64
    /// The default memory budget: 256 MiB.
    public static let defaultBudgetBytes = 256 << 20

    /// The most memory the history keeps, in bytes (pixels plus tile indices). Lowering it
    /// drops the oldest steps at once; 0 keeps no history at all.
    public var budgetBytes: Int {
        didSet { evict() }
    }
    /// The memory the history holds now, in bytes (pixels plus 4 bytes per tile index).
    public private(set) var bytes = 0
    /// Steps that ``undo(into:mirroring:)`` can take back now.
    public var undoCount: Int { undoSide.count }
    /// Steps that ``redo(into:mirroring:)`` can re-apply now.
    public var redoCount: Int { redoSide.count }
    /// Steps dropped for the budget since the history was created.
    public private(set) var droppedSteps = 0
    /// Tiles held now, over all steps (each costs at most 16 KiB of pixels).
    public var tileCount: Int { (undoSide + redoSide).reduce(0) { $0 + $1.tiles.count } }

    let grid: TileGrid
    /// Tiles of the layer that may hold something other than transparent black: every tile a
    /// recorded step, a fold or an undo/redo touched since the last clear. A clear scans only
    /// these, so it costs what was drawn, not the canvas.
    private var drawn: TileMarks
    private var undoSide: [TileHistoryEntry] = []
    private var redoSide: [TileHistoryEntry] = []
    /// True while the newest undo step may still absorb changes (``extendNewest``).
    private var newestIsOpen = false
    private var notices: [HistoryNotice] = []

    /// A history for a `width` x `height` layer with the given budget in bytes.
    public init(width: Int, height: Int, budgetBytes: Int = TileHistory.defaultBudgetBytes) {
        grid = TileGrid(width: width, height: height, tileSize: Self.tileSize)
        drawn = TileMarks(count: grid.tileCount)
        self.budgetBytes = max(0, budgetBytes)
    }

    /// Records a step that changed `after` from `before` inside `rect`: keeps `before`'s content
    /// of the tiles under `rect` whose bytes differ, and returns those tiles' rectangles (all
    /// that differs). A step that changed nothing is still one step.
    func record(before: Layer, after: Layer, in rect: PixelRect) -> [PixelRect] {
        drawn.insert(covering: rect, of: grid)
        let changed = grid.tiles(covering: rect).filter { grid.differs($0, before, after) }
        let size = TileHistoryEntry.bytes(of: changed, grid: grid)
        if size > budgetBytes || budgetBytes == 0 {
            // The step alone is over the budget: it would be dropped with every older step as
            // soon as it was pushed, so its tiles are not even copied.
            dropEverything(andANewStepOf: size)
        } else {
            var entry = TileHistoryEntry()
            entry.append(changed, from: before, grid: grid)
            push(entry)
        }
        return changed.map { grid.rect(of: $0) }
    }

    /// Records a clear of `layer` (to transparent black), before it happens: keeps every tile
    /// that holds something and returns their rectangles, which are all the clear has to
    /// empty. Scans only the tiles drawn since the last clear (the layer changes only
    /// through the steps this history records), so a clear of an empty canvas costs nothing.
    func recordClear(of layer: Layer) -> [PixelRect] {
        let kept = drawn.tiles.filter { grid.hasContent($0, in: layer) }
        drawn.removeAll()
        var entry = TileHistoryEntry()
        entry.append(kept, from: layer, grid: grid)
        push(entry)
        newestIsOpen = false
        return kept.map { grid.rect(of: $0) }
    }

    /// Folds a change of `after` from `before` inside `rect` into the newest step, when it is
    /// open: tiles it does not hold yet are added with `before`'s content (their content before
    /// the step, since only folded changes touched them since). Otherwise the change becomes
    /// part of the picture that undo returns to. Returns true when the change was folded.
    @discardableResult
    func extendNewest(before: Layer, after: Layer, in rect: PixelRect) -> Bool {
        drawn.insert(covering: rect, of: grid)
        guard newestIsOpen, var entry = undoSide.popLast() else { return false }
        let old = entry.bytes
        let held = Set(entry.tiles)
        entry.append(grid.tiles(covering: rect).filter { !held.contains($0) && grid.differs($0, before, after) },
                     from: before, grid: grid)
        bytes += entry.bytes - old
        undoSide.append(entry)
        evict()
        return true
    }

    /// Takes back the newest step: swaps its tiles into `layer`, copies them into `mirrors`,
    /// and returns their union, or nil when there is nothing to undo.
    func undo(into layer: Layer, mirroring mirrors: [Layer]) -> PixelRect? {
        guard var entry = undoSide.popLast() else { return nil }
        let dirty = entry.swap(with: layer, mirroring: mirrors, grid: grid)
        for tile in entry.tiles { drawn.insert(tile) }
        redoSide.append(entry)
        newestIsOpen = false
        return dirty
    }

    /// Re-applies the step undone last: as ``undo(into:mirroring:)``, the other way.
    func redo(into layer: Layer, mirroring mirrors: [Layer]) -> PixelRect? {
        guard var entry = redoSide.popLast() else { return nil }
        let dirty = entry.swap(with: layer, mirroring: mirrors, grid: grid)
        for tile in entry.tiles { drawn.insert(tile) }
        undoSide.append(entry)
        newestIsOpen = false
        return dirty
    }

    /// Returns the notices produced since the last call, oldest first, and forgets them.
    func takeNotices() -> [HistoryNotice] {
        defer { notices.removeAll() }
        return notices
    }

    private func push(_ entry: TileHistoryEntry) {
        bytes -= redoSide.reduce(0) { $0 + $1.bytes }
        redoSide.removeAll()
        undoSide.append(entry)
        bytes += entry.bytes
        newestIsOpen = true
        evict()
    }

    /// What ``push(_:)`` then ``evict()`` do with a step of `size` bytes that alone is over the
    /// budget: the redo side emptied, every undo step and the new one dropped, one notice.
    private func dropEverything(andANewStepOf size: Int) {
        redoSide.removeAll()
        let freed = undoSide.reduce(0) { $0 + $1.bytes } + size
        let dropped = undoSide.count + 1
        undoSide.removeAll()
        bytes = 0
        newestIsOpen = false
        droppedSteps += dropped
        notices.append(HistoryNotice(droppedSteps: dropped, freedBytes: freed, budgetBytes: budgetBytes, remainingSteps: 0))
    }

    /// Drops the oldest undo steps, then the farthest redo steps, until ``bytes`` fits (with a
    /// budget of 0, until no step is left, even steps that changed nothing).
    private func evict() {
        var dropped = 0, freed = 0
        while bytes > budgetBytes || budgetBytes == 0 {
            let entry: TileHistoryEntry
            if !undoSide.isEmpty {
                entry = undoSide.removeFirst()
                if undoSide.isEmpty { newestIsOpen = false }
            } else if !redoSide.isEmpty {
                entry = redoSide.removeFirst()
            } else {
                break
            }
            bytes -= entry.bytes
            freed += entry.bytes
            dropped += 1
        }
        guard dropped > 0 else { return }
        droppedSteps += dropped
        notices.append(HistoryNotice(droppedSteps: dropped, freedBytes: freed, budgetBytes: budgetBytes,
                                     remainingSteps: undoSide.count))
    }
}
