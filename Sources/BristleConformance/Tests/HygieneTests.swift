import BristleHost
import Glibc

/// The `hygiene` group (strict): a brush runs inside somebody else's process and must leave
/// it as it found it. Each test loads the library, creates the brush, draws the canvas stroke
/// set (predictions, cancel, ticks), destroys it and balances `init` with `deinit`, checking
/// after every step and every plugin call: process-wide state, file descriptors, threads,
/// and (over many strokes) memory.
enum HygieneTests {
    /// More heap than this per stroke, growing in both halves of the measurement, is a leak.
    static let leakBytesPerStroke = 64
    /// More mapped memory than this per stroke (outside malloc) is a leak too.
    static let leakMappedBytesPerStroke = 1024
    /// Strokes in each half of the memory measurement.
    static let strokesPerHalf = 60

    static let all: [ConformanceTest] = [
        ConformanceTest("hygiene.process-state", tier: .strict, scope: .brush,
                        "Loading and init, create, strokes with predictions, cancel and ticks, destroy and deinit leave the working directory, umask, signal mask, signal actions, locale, environment and floating-point mode (rounding, traps, flush-to-zero) as they found them.") { ctx throws(CheckFailure) in
            let baseline = ProcessState.capture()
            try session(ctx) { call throws(CheckFailure) in
                let changes = ProcessState.capture().changes(since: baseline)
                guard changes.isEmpty else {
                    throw CheckFailure("\(call) \(changes.joined(separator: "; ")): the process belongs to the host, "
                                       + "and a brush leaves its global state as it found it")
                }
            }
            return .pass
        },
        ConformanceTest("hygiene.file-descriptors", tier: .strict, scope: .brush,
                        "Through the same session, the brush never closes, replaces or writes to a file descriptor it did not open (stdout included; writes to stderr are a warning), and leaves none of its own open after destroy and deinit (a warning).") { ctx throws(CheckFailure) in
            let output = try PrivateOutput()
            defer { output.restore() }
            let baseline = DescriptorTable.capture()
            var stderrCall: String?
            try session(ctx) { call throws(CheckFailure) in
                let now = DescriptorTable.capture()
                let misuse = now.misuse(of: baseline, tolerating: output.descriptors.union([2]))
                guard misuse.isEmpty else {
                    throw CheckFailure("\(call) \(misuse.joined(separator: "; ")): descriptors belong to whoever opened them"
                                       + output.written(stream: 1).map { "; it wrote \($0)" }.orEmpty)
                }
                if stderrCall == nil, now.written(to: 2, since: baseline) > 0 { stderrCall = call }
            }
            var warnings: [String] = []
            if let call = stderrCall, let text = output.written(stream: 2) {
                warnings.append("\(call) wrote to stderr (\(text)); log through host->log, which the host shows or keeps")
            }
            let left = DescriptorTable.capture().added(since: baseline)
            if !left.isEmpty {
                warnings.append("\(left.count) file descriptor(s) the brush opened are still open after destroy and deinit: "
                                + left.prefix(4).map { "\($0.0) (\($0.1))" }.joined(separator: ", "))
            }
            return warnings.isEmpty ? .pass : TestOutcome(.warn, warnings.joined(separator: "; "))
        },
        ConformanceTest("hygiene.threads", tier: .strict, scope: .brush,
                        "Loading and init start no thread (bristle.h: init must be cheap: no threads), and every thread the brush starts later has ended once it is destroyed and deinit has balanced init.") { ctx throws(CheckFailure) in
            let before = ThreadList.capture()
            var firstStarter: String?
            try session(ctx) { call throws(CheckFailure) in
                let now = ThreadList.capture()
                if call == loadStep, now.count > before.count {
                    throw CheckFailure("\(call) started \(now.added(since: before)): init must be cheap and start no "
                                       + "threads (bristle.h); start them when a stroke needs them and join them by destroy")
                }
                if firstStarter == nil, now.count > before.count { firstStarter = call }
            }
            let after = ThreadList.settled(towards: before.count)
            guard after.count <= before.count else {
                return .fail("\(firstStarter ?? "a plugin call") started \(after.added(since: before)), still running after "
                             + "destroy and the last deinit: a brush joins every thread it starts before destroy (or the "
                             + "last deinit) returns, or the host cannot unload or fork safely")
            }
            return .pass
        },
        ConformanceTest("hygiene.memory-growth", tier: .strict, scope: .brush,
                        "Over 2 x \(strokesPerHalf) more strokes (after a warm-up, the same seeded strokes with predictions, cancels and ticks), neither the heap (mallinfo2) nor the mapped memory grows in both halves by more than \(leakBytesPerStroke) and \(leakMappedBytesPerStroke) bytes per stroke.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            driver.fill(StandardStrokes.paper)
            var rng = ctx.random("hygiene.memory-growth")
            let wantsPredicted = driver.brush.descriptor.capabilities.contains(.wantsPredicted)
            let cycle = (0..<6).map { _ in StandardStrokes.random(&rng, width: 96, height: 64, maxSamples: 60, predicted: wantsPredicted) }
            func draw(_ n: Int) throws(CheckFailure) {
                for i in 0..<n {
                    try driver.draw(cycle[i % cycle.count])
                    if i % cycle.count == 0 { try driver.tick(frames: 1) }
                }
            }
            try draw(3 * cycle.count)
            let m0 = MemoryUse.now()
            try draw(strokesPerHalf)
            let m1 = MemoryUse.now()
            try draw(strokesPerHalf)
            let m2 = MemoryUse.now()
            for (name, first, second, limit) in [("heap in use (malloc)", m1.heap - m0.heap, m2.heap - m1.heap, leakBytesPerStroke),
                                                 ("mapped memory", m1.mapped - m0.mapped, m2.mapped - m1.mapped, leakMappedBytesPerStroke)]
                where first > limit * strokesPerHalf && second > limit * strokesPerHalf {
                return .fail("the \(name) grew by \(first) bytes over \(strokesPerHalf) strokes and by \(second) over the next "
                             + "\(strokesPerHalf) (about \((first + second) / (2 * strokesPerHalf)) bytes per stroke): memory a "
                             + "stroke allocates is freed or reused by the next one, and everything by destroy")
            }
            return TestOutcome(.pass, "heap \(m2.heap - m0.heap) bytes, mapped \(m2.mapped - m0.mapped) bytes over \(2 * strokesPerHalf) strokes")
        },
    ]

    /// How the first step of a session is named.
    static let loadStep = "loading the library (dlopen, its static constructors, bristle_entry_v1, init)"

    /// Loads the library, creates the brush, draws the canvas stroke set, destroys the brush and
    /// balances the loader's init with a deinit, calling `check` with a description after each
    /// step and after every plugin call of the strokes.
    static func session(_ ctx: TestContext, check: @escaping (String) throws(CheckFailure) -> Void) throws(CheckFailure) {
        _ = try ctx.library()
        try check(loadStep)
        var driver: StrokeDriver? = try ctx.makeDriver(width: 96, height: 64)
        try check("factory->create(\"\(ctx.brushID ?? "")\")")
        driver!.afterEachCall = check
        try CanvasTests.drawEverything(on: driver!)
        driver = nil
        try check("brush->destroy()")
        let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
        raw.deinitialize()
        try check("entry->deinit()")
    }
}

private extension Optional where Wrapped == String {
    var orEmpty: String { self ?? "" }
}
