/// What an undo, a redo or a clear did to the canvas.
public struct HistoryChange: Equatable, Sendable {
    /// The steps asked for.
    public var requested: Int
    /// The steps carried out: fewer than ``requested`` when the history held fewer.
    public var performed: Int
    /// The smallest rectangle holding every pixel that may have changed (the union of the
    /// restored 64x64 tiles, clipped to the canvas); repaint it. Empty when nothing changed.
    public var dirty: PixelRect

    public init(requested: Int, performed: Int, dirty: PixelRect) {
        self.requested = requested
        self.performed = performed
        self.dirty = dirty
    }

    /// True when the history held fewer steps than asked for.
    public var isShort: Bool { performed < requested }
}
