/// Everything a conformance run needs: what to test, at which tier, with which seed, and how
/// to isolate each test.
public struct ConformanceOptions: Sendable {
    public var pluginPath: String
    /// Only this brush (all brushes of the library when nil).
    public var brushID: String?
    public var tier: ConformanceTier = .standard
    /// Regex sources over test ids (kept as text so that the options stay Sendable).
    public var include: String?
    public var exclude: String?
    public var seed: UInt64 = 0
    /// Per-test limit in seconds for child processes.
    public var timeout: Double = Self.defaultTimeout
    /// The per-test limit when none is given (reproduce commands name any other).
    public static let defaultTimeout: Double = 30
    /// Run every test in this process (debugging: a crash ends the run).
    public var inProcess = false
    /// How many child processes run at once.
    public var jobs = 1
    /// Multiplies fuzzing iteration counts; 1 is the full tier.
    public var fuzzScale = 1.0
    /// The command that starts a child: an executable and the arguments that select the
    /// child mode (the CLI passes `/proc/self/exe conform-child`). Test options are appended.
    public var childCommand: [String] = ["/proc/self/exe", "conform-child"]
    /// The program name used in reproduce commands.
    public var commandName = "bristle"

    public init(pluginPath: String) { self.pluginPath = pluginPath }
}
