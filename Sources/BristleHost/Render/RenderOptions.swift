/// Settings for ``ScriptRenderer``. Every non-nil value overrides what the script says
/// (the CLI's flags are these).
public struct RenderOptions: Sendable {
    /// A brush id, or a path to a `.so` (contains `/` or ends in `.so`), used for every brush
    /// action and for strokes before any brush action.
    public var brush: String?
    /// Stroke width in points.
    public var width: Double?
    public var color: RGBAColor?
    /// `NAME=VALUE` pairs applied after the script's own parameters.
    public var parameters: [(name: String, value: String)] = []
    public var canvasSize: (width: Int, height: Int)?
    public var background: BackgroundSpec?
    /// Export without the background (a transparent PNG).
    public var transparent = false
    public var seed: UInt64?
    /// Directories to find brushes in; nil means ``PluginSearchPath/directories(environment:executableDirectory:)``.
    public var searchDirectories: [String]?
    /// Measure the time of every input event (``RenderStats/eventNanoseconds``).
    public var measureEvents = false
    /// Record every hook and service call in ``ScriptRenderer/timeline`` (`--trace`, `--stats`).
    public var recordHooks = false
    /// With ``recordHooks``: also count the pixels each draw actually changed (`--stats`).
    public var countChangedPixels = false
    /// Applied to measured pressure before brushes see it.
    public var pressureCurve: PressureCurve = .identity
    /// Frames (ticks of the 60 Hz clock) to run after the script, each written as
    /// `framesDirectory/frame-0001.png`...; the output is the picture after the last one.
    public var frames = 0
    /// Where ``frames`` are written; required when `frames > 0`.
    public var framesDirectory: String?
    /// Files the output (and frames) must never replace, besides the files the render reads,
    /// which are always protected (see ``ScriptRenderer/render(_:toPNG:)``). A batch puts
    /// every input here.
    public var protectedPaths: [String] = []
    /// The undo history's memory budget in bytes; nil means
    /// ``TileHistory/defaultBudgetBytes`` (256 MiB), 0 keeps no history.
    public var historyBudgetBytes: Int?

    /// Samples with a coordinate beyond this many pixels from the origin are dropped (and
    /// counted): no canvas is that large, and the rasteriser could do nothing useful with them.
    public static let absurdCoordinate = 1e7

    /// The brush used when neither the script nor the options choose one.
    public static let defaultBrush = "org.bristle.pencil"
    /// The canvas size when neither the script, the options nor a background image give one.
    public static let defaultCanvasSize = (width: 1024, height: 768)
    /// The stroke width when nothing sets one, in points.
    public static let defaultWidth = 4.0

    public init() {}
}
