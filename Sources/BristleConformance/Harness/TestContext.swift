import BristleHost

/// What a test body works with: the plugin file, the brush under test, the seed, how much
/// fuzzing to do, and the recorder every plugin call goes through. Built by the child process
/// (or by the runner with `--in-process`).
public final class TestContext: @unchecked Sendable {
    /// The plugin file as given (resolved by the loader).
    public let pluginPath: String
    /// The brush id for brush-scoped tests; nil for library tests.
    public let brushID: String?
    /// The run's seed; every random choice of a test derives from it.
    public let seed: UInt64
    /// Multiplies the iteration counts of the fuzzing tests (1 = the full tier).
    public let fuzzScale: Double
    public let recorder: HookRecorder

    public init(pluginPath: String, brushID: String?, seed: UInt64, fuzzScale: Double = 1,
                recorder: HookRecorder) {
        self.pluginPath = pluginPath
        self.brushID = brushID
        self.seed = seed
        self.fuzzScale = fuzzScale
        self.recorder = recorder
    }

    /// `n` scaled by ``fuzzScale``, at least 1.
    public func iterations(_ n: Int) -> Int { max(1, Int((Double(n) * fuzzScale).rounded())) }

    /// The library, loaded and validated by the host's loader.
    public func library() throws(CheckFailure) -> PluginLibrary {
        do {
            return try recorder.record("load \(pluginPath) (dlopen, bristle_entry_v1, init, descriptors)") {
                () throws(PluginLoadError) -> PluginLibrary in try PluginLoader.load(path: pluginPath)
            }
        } catch {
            throw CheckFailure("the library does not load: \(error.description)")
        }
    }

    /// A fresh instance of the brush under test, created and validated by the host.
    public func makeBrush(host: BrushHost) throws(CheckFailure) -> Brush {
        guard let id = brushID else { throw CheckFailure("no brush id given to a brush test") }
        let library = try library()
        do {
            return try recorder.record("factory->create(\"\(id)\")") { () throws(BrushError) -> Brush in
                try Brush(id: id, library: library, host: host)
            }
        } catch {
            throw CheckFailure("creating brush '\(id)' failed: \(error.description)")
        }
    }

    /// A driver for a fresh instance on fresh guarded canvases; `sampleStructSize` overrides the
    /// size at which it lays out samples (the host's choice for the brush by default).
    public func makeDriver(width: Int = 96, height: Int = 64, placement: GuardedCanvas.Placement = .endAligned,
                           checks: DriverChecks = .all, host: BrushHost = BrushHost(logHandler: { _, _ in }),
                           sampleStructSize: Int? = nil) throws(CheckFailure) -> StrokeDriver {
        try StrokeDriver(brush: makeBrush(host: host), host: host, width: width, height: height, seed: seed,
                         recorder: recorder, placement: placement, checks: checks, sampleStructSize: sampleStructSize)
    }

    /// A random generator for the test `id`, derived from the seed.
    public func random(_ id: String) -> SeededRandom { SeededRandom.forTest(id, seed: seed) }
}
