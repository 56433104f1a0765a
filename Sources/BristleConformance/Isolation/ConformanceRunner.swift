import BristleHost
import Glibc

/// Runs a selection of ``ConformanceTest``s against one plugin file and collects a
/// ``ConformanceReport``.
///
/// `library.load` runs first (it also lists the brushes); then every library-scoped test once
/// and every brush-scoped test once per brush. Each test runs in its own child process (up to
/// ``ConformanceOptions/jobs`` at once) with a deadline, so a crash, an abort, an `exit()` or a
/// hang becomes a verdict naming the plugin call in flight; with `inProcess` tests run here.
public enum ConformanceRunner {
    /// Why a run could not happen at all.
    public enum RunError: Error, Equatable, CustomStringConvertible {
        case badRegex(String, String)
        case unknownBrush(String, available: [String])
        /// `--include`/`--exclude` left no test of the tier: running nothing would say "conformant".
        case noTestSelected(ConformanceTier)
        /// The harness could not start a test's child process (not the plugin's fault).
        case harness(String)

        public var description: String {
            switch self {
            case .badRegex(let source, let reason): "invalid regular expression '\(source)': \(reason)"
            case .noTestSelected(let tier):
                "--include and --exclude leave no test of tier \(tier.rawValue) to run; see the ids with --list-tests"
            case .unknownBrush(let id, let available):
                "the plugin has no brush '\(id)'; "
                    + (NearestNames.hint(for: id, among: available).map { $0 + " It has: " } ?? "it has: ")
                    + available.joined(separator: ", ")
            case .harness(let why): "the harness could not run a test: \(why)"
            }
        }
    }

    /// Runs the tests and reports each result, in report order, to `progress` as soon as it
    /// and all before it are known.
    public static func run(_ options: ConformanceOptions,
                           progress: (TestResult) -> Void = { _ in }) throws(RunError) -> ConformanceReport {
        let include = try regex(options.include), exclude = try regex(options.exclude)
        let start = Clock.seconds()
        let selected = ConformanceCatalog.select(tier: options.tier, include: include, exclude: exclude)
        guard !selected.isEmpty else { throw .noTestSelected(options.tier) }
        let load = ConformanceCatalog.test("library.load")!
        var (results, outcomes) = try execute([(load, nil)], options, progress: { _ in })
        var loadResult = results[0]
        let loaded = outcomes[0]?.verdict == .pass
        var brushes = outcomes[0]?.brushes ?? []
        if loaded, let id = options.brushID {
            guard brushes.contains(id) else { throw .unknownBrush(id, available: brushes) }
            brushes = [id]
        }
        var report: [TestResult] = []
        if selected.contains(where: { $0.id == load.id }) || !loaded {
            let listed = brushes.prefix(8).joined(separator: ", ") + (brushes.count > 8 ? " and \(brushes.count - 8) more" : "")
            loadResult.message = loaded ? "\(brushes.count) brush(es): \(listed)" : loadResult.message
            report.append(loadResult)
            progress(loadResult)
        }
        var jobs: [(ConformanceTest, String?)] = selected.filter { $0.scope == .library && $0.id != load.id }.map { ($0, nil) }
        let brushTests = selected.filter { $0.scope == .brush }
        if loaded {
            for brush in brushes { jobs += brushTests.map { ($0, brush) } }
        }
        (results, outcomes) = try execute(jobs, options, progress: progress)
        report += results
        if !loaded, !brushTests.isEmpty {
            for test in brushTests {
                let skipped = result(test, brush: options.brushID, options, verdict: .skip,
                                     message: "the library did not load (see library.load)", hook: nil, seconds: 0)
                report.append(skipped)
                progress(skipped)
            }
        }
        return ConformanceReport(plugin: options.pluginPath, tier: options.tier, seed: options.seed,
                                 isolation: options.inProcess ? "in-process" : "child-process",
                                 results: report, seconds: Clock.seconds() - start)
    }

    /// Runs a test body here, turning a thrown ``CheckFailure`` into a `fail` outcome (a skip
    /// when another test reports that failure, see ``CheckFailure/reportedBy``).
    public static func execute(_ test: ConformanceTest, _ context: TestContext) -> TestOutcome {
        do {
            return try test.run(context)
        } catch {
            if let owner = error.reportedBy, owner != test.id {
                return .skip("\(error.message) (failed once, in \(owner))")
            }
            return .fail(error.message)
        }
    }

    private static func regex(_ source: String?) throws(RunError) -> Regex<AnyRegexOutput>? {
        guard let source else { return nil }
        do { return try Regex(source) } catch { throw .badRegex(source, "\(error)") }
    }

    /// Runs the jobs (in children or here) and returns their results in job order, with the
    /// outcomes the tests returned (nil for crashes and timeouts). Throws ``RunError/harness(_:)``
    /// when a child process cannot be started, after stopping the ones in flight.
    private static func execute(_ jobs: [(ConformanceTest, String?)], _ options: ConformanceOptions,
                                progress: (TestResult) -> Void) throws(RunError) -> ([TestResult], [TestOutcome?]) {
        var results = [TestResult?](repeating: nil, count: jobs.count)
        var outcomes = [TestOutcome?](repeating: nil, count: jobs.count)
        var reported = 0
        func flush() {
            while reported < jobs.count, let r = results[reported] {
                progress(r)
                reported += 1
            }
        }
        if options.inProcess {
            for (i, (test, brush)) in jobs.enumerated() {
                let recorder = HookRecorder()
                let context = TestContext(pluginPath: options.pluginPath, brushID: brush, seed: options.seed,
                                          fuzzScale: options.fuzzScale, recorder: recorder)
                let begin = Clock.seconds()
                let outcome = execute(test, context)
                outcomes[i] = outcome
                results[i] = result(test, brush: brush, options, verdict: outcome.verdict, message: outcome.message,
                                    hook: outcome.verdict == .fail ? recorder.snapshot : nil,
                                    seconds: Clock.seconds() - begin)
                flush()
            }
            return (results.map { $0! }, outcomes)
        }
        var running: [(index: Int, child: ChildProcess)] = []
        var next = 0
        while next < jobs.count || !running.isEmpty {
            while running.count < max(1, options.jobs), next < jobs.count {
                let (test, brush) = jobs[next]
                var arguments = options.childCommand + ["--plugin", options.pluginPath, "--test", test.id,
                                                        "--seed", String(options.seed), "--fuzz-scale", String(options.fuzzScale)]
                if let brush { arguments += ["--brush", brush] }
                do {
                    running.append((next, try ChildProcess(arguments: arguments, timeout: options.timeout)))
                } catch {
                    // Not a verdict on the plugin: stop the tests in flight and say it could not run.
                    running.forEach { $0.child.terminate() }
                    throw .harness(error.message)
                }
                next += 1
            }
            var stillRunning: [(index: Int, child: ChildProcess)] = []
            for job in running {
                guard let ending = job.child.poll() else {
                    stillRunning.append(job)
                    continue
                }
                let (test, brush) = jobs[job.index]
                let (outcome, r) = conclude(test, brush: brush, child: job.child, ending: ending, options)
                outcomes[job.index] = outcome
                results[job.index] = r
            }
            running = stillRunning
            flush()
            if !running.isEmpty { usleep(2000) }
        }
        flush()
        return (results.map { $0! }, outcomes)
    }

    /// Turns a finished child into a result.
    private static func conclude(_ test: ConformanceTest, brush: String?, child: ChildProcess,
                                 ending: ChildProcess.Ending, _ options: ConformanceOptions) -> (TestOutcome?, TestResult) {
        let seconds = Clock.seconds() - child.started
        let hookBytes = child.hookFile.bytes(at: 0, count: HookRecorder.size)
        let hook = hookBytes.withUnsafeBufferPointer { HookRecord(bytes: $0) }
        let output = String(decoding: child.outputFile.contents(limit: 600), as: UTF8.self)
            .split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | ")
        let tail = output.isEmpty ? "" : "; last output: \(output)"
        let place = " " + (hook?.description ?? "before the first plugin call")
        switch ending {
        case .timedOut:
            return (nil, result(test, brush: brush, options, verdict: .timeout,
                                message: "no result after \(options.timeout) s of its own time: the process was killed\(place)",
                                hook: hook, seconds: seconds))
        case .signaled(let signal):
            // The fault handler's note says which buffer the access hit (a guard page, or memory
            // taken back after the hook that received it returned).
            let message = hook?.note.map { "\($0); the process died of \(SignalName.short(signal))\(place)" }
                ?? "the process died of \(SignalName.describe(signal))\(place)"
            return (nil, result(test, brush: brush, options, verdict: .crash, message: message + tail,
                                hook: hook, seconds: seconds))
        case .exited(let code):
            if code == 0, let outcome = ResultChannel.read(child.resultFile) {
                return (outcome, result(test, brush: brush, options, verdict: outcome.verdict, message: outcome.message,
                                        hook: outcome.verdict == .fail ? hook : nil, seconds: seconds))
            }
            // The exit handler notes exit(); _exit() and quick_exit() leave no note.
            let why = hook?.note
                ?? "the process exited with status \(code) before the test finished (a brush must never call exit(), _exit() or quick_exit())"
            return (nil, result(test, brush: brush, options, verdict: .crash, message: "\(why)\(place)\(tail)",
                                hook: hook, seconds: seconds))
        }
    }

    private static func result(_ test: ConformanceTest, brush: String?, _ options: ConformanceOptions,
                               verdict: Verdict, message: String, hook: HookRecord?, seconds: Double) -> TestResult {
        var command = [options.commandName, "conform", ShellQuote.quote(options.pluginPath)]
        if let brush { command += ["--brush", ShellQuote.quote(brush)] }
        command += ["--tier", test.tier.rawValue, "--include", ShellQuote.quote("^\(test.id)$"),
                    "--reproduce", String(options.seed)]
        if options.fuzzScale != 1 { command += ["--fuzz-scale", String(options.fuzzScale)] }
        if options.timeout != ConformanceOptions.defaultTimeout { command += ["--timeout", String(options.timeout)] }
        return TestResult(test: test.id, brush: brush, tier: test.tier, verdict: verdict, message: message, hook: hook,
                          seed: options.seed, seconds: seconds, reproduce: command.joined(separator: " "))
    }
}
