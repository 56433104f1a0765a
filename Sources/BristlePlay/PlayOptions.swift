import BristleHost

/// How `bristle play` runs (the CLI's flags, and what tests change).
public struct PlayOptions: Sendable {
    /// The port on 127.0.0.1; 0 picks a free one.
    public var port: UInt16 = 0
    /// Folders whose `.so` files are watched and hot-reloaded.
    public var brushDirectories: [String] = []
    public var canvasWidth = RenderOptions.defaultCanvasSize.width
    public var canvasHeight = RenderOptions.defaultCanvasSize.height
    /// The `bristle` executable, re-run as `play-worker` (the brush worker) and `inspect --json`
    /// (probing a library).
    public var executable = "/proc/self/exe"
    /// Directories of the plugin search path; nil means ``BristleHost/PluginSearchPath``'s.
    public var searchDirectories: [String]?
    /// Where copies of watched libraries go; nil makes a new folder in `TMPDIR` (or /tmp).
    public var libraryDirectory: String?
    /// How long one request (a hook and its draws) may take before the brush counts as hung.
    public var hookTimeout = 5.0
    /// How long rebuilding the session in a fresh worker may take.
    public var rebuildTimeout = 120.0
    /// How often the `--brushes` folders are looked at, in seconds.
    public var pollInterval = 0.25

    /// Benchmark only (`--stand-in`): input messages are answered at once with a fixed patch
    /// and never reach a brush (``StandInAnswer``): the floor of the page's input-to-paint.
    public var standIn = false
    /// Benchmark only (`--stand-in-delay`): the stand-in answers this many seconds after a
    /// message arrived (spinning, so to the microsecond), as if it drew: what the browser adds
    /// to a late answer, apart from the host.
    public var standInDelay = 0.0

    /// The largest canvas side `bristle play` accepts.
    public static let maximumSide = 8192

    public init() {}
}
