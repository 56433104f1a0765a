/// A stroke script: a canvas and the actions to play on it. See `docs/stroke-format.md`.
public struct StrokeScript: Equatable, Sendable {
    public var canvas: CanvasSpec
    public var actions: [ScriptAction]
    /// The script's path as the caller gave it (used in error messages).
    public var sourcePath: String
    /// Warnings and notes from importing a recording (units not understood, measurements
    /// treated as absent), each a full line; the renderer adds them to its warnings.
    public var warnings: [String] = []

    public init(canvas: CanvasSpec = CanvasSpec(), actions: [ScriptAction] = [], sourcePath: String) {
        self.canvas = canvas
        self.actions = actions
        self.sourcePath = sourcePath
    }

    /// The absolute folder relative paths in the script resolve against.
    public var baseDirectory: String { StrokeScriptPaths.directory(of: sourcePath) }
}
