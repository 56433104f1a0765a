import ArgumentParser
import BristleBench
import BristleHost
import Glibc

/// `bristle bench`: the peers' benchmark workload (shared/bench/peers/WORKLOAD.md) on Bristle.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the benchmark cases of the peers' workload and print their timings.",
        discussion: """
            Each case runs --warmup untimed repetitions, then --reps timed ones; the canvas is \
            reset before each outside the timed region. Times are CLOCK_MONOTONIC wall and \
            process CPU time. --json prints one line per case with the peers' keys. With \
            --callgrind, run under `valgrind --tool=callgrind --collect-atstart=no`: collection \
            is switched on only around the timed region of measured repetitions. \
            Cases: \(BenchRegistry.names.joined(separator: ", ")).
            """)

    @Option(name: .customLong("case"), help: ArgumentHelp("Run only this case (repeatable); default all.", valueName: "NAME"))
    var cases: [String] = []

    @Option(help: "Timed repetitions per case.")
    var reps = 11

    @Option(help: "Untimed warm-up repetitions per case.")
    var warmup = 1

    @Option(help: ArgumentHelp("Draw only the first K segments of the 10,000-sample stroke.", valueName: "K"))
    var segments = BenchWorkload.sampleCount - 1

    @Option(help: ArgumentHelp("Write bristle_<case>.png for each case into DIR.", valueName: "DIR"))
    var png: String?

    @Flag(help: "Print one JSON line per case (the peers' format).")
    var json = false

    @Flag(help: "Toggle callgrind collection around the timed region (run under valgrind).")
    var callgrind = false

    func validate() throws {
        for name in cases where BenchRegistry.entry(named: name) == nil {
            throw ValidationError("unknown case '\(name)'; valid cases: \(BenchRegistry.names.joined(separator: ", "))")
        }
        guard (1...BenchOptions.maximumReps).contains(reps) else {
            throw ValidationError("--reps must be 1...\(BenchOptions.maximumReps), not \(reps)")
        }
        guard (0...BenchOptions.maximumReps).contains(warmup) else {
            throw ValidationError("--warmup must be 0...\(BenchOptions.maximumReps), not \(warmup)")
        }
        let most = BenchWorkload.sampleCount - 1
        guard (1...most).contains(segments) else {
            throw ValidationError("--segments must be 1...\(most), not \(segments)")
        }
        if let png, !Paths.isDirectory(png) {
            throw ValidationError("--png \(png): no such folder; create it first (mkdir -p \(png))")
        }
    }

    func run() throws {
        var options = BenchOptions()
        options.reps = reps
        options.warmup = warmup
        options.segments = segments
        options.pngDirectory = png
        options.callgrind = callgrind
        if callgrind && !BenchRunner.callgrindAvailable {
            StandardError.line("bristle: warning: built without <valgrind/callgrind.h>; --callgrind toggles nothing")
        }
        let names = cases.isEmpty ? BenchRegistry.names : cases
        for name in names {
            let entry = BenchRegistry.entry(named: name)!
            do {
                let benchCase = try entry.make(options)
                let result = try BenchRunner.run(benchCase, options: options)
                print(json ? result.jsonLine : result.text)
                fflush(nil)
            } catch {
                throw Failure.report("\(name): \(error.message)", hint: error.hint, status: error.exitStatus)
            }
        }
    }
}
