#if !BRISTLE_LIBFUZZER
import BristleHost
import Foundation
import Glibc
import Synchronization

/// `bristle-fuzz`: a seeded mutation fuzzer over every input format of `bristle render`.
///
/// ```
/// bristle-fuzz [--format NAME|all] [--seconds S] [--timeout S] [--seed N]
///              [--seeds DIR]... [--work DIR] [--write-seeds DIR]
/// ```
///
/// For each format (the time split evenly), it replays that format's seeds, then renders
/// mutations of them (``Mutator``) through ``FuzzTarget`` until the time is up. Before each
/// run the input is saved as `WORK/last-input`, so a crash leaves its reproducer; a run
/// longer than `--timeout` seconds (default 10) is a hang: the input is saved as
/// `WORK/hang-FORMAT` and the fuzzer exits with status 1. Exit status 0 means no crash, no
/// hang and no broken promise. `--write-seeds DIR` writes the seeds, one folder per format,
/// and the mutation tokens as a dictionary, for libFuzzer (`scripts/fuzz.sh`), and exits.
@main
struct FuzzDriver {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func value(_ flag: String) -> String? {
            guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(i...(i + 1)) }
            return arguments[i + 1]
        }
        func values(_ flag: String) -> [String] {
            var found: [String] = []
            while let v = value(flag) { found.append(v) }
            return found
        }
        let formatName = value("--format") ?? "all"
        let seconds = value("--seconds").flatMap(Double.init) ?? 60
        let timeout = value("--timeout").flatMap(Double.init) ?? 10
        let seed = value("--seed").flatMap(UInt64.init) ?? 1
        let seedFolders = values("--seeds")
        let work = value("--work") ?? "/tmp/bristle-fuzz-\(getpid())"
        let writeSeeds = value("--write-seeds")
        guard arguments.isEmpty, seconds > 0, timeout > 0,
              let formats = formatName == "all" ? FuzzFormat.all : FuzzFormat.named(formatName).map({ [$0] }) else {
            fail("usage: bristle-fuzz [--format \(FuzzFormat.all.map(\.name).joined(separator: "|"))|all] [--seconds S] [--timeout S] [--seed N] [--seeds DIR]... [--work DIR] [--write-seeds DIR]")
        }
        let corpus = SeedCorpus(folders: seedFolders.isEmpty ? ["Tests", "Examples"] : seedFolders)
        if let writeSeeds {
            write(corpus, formats: formats, into: writeSeeds)
            return
        }
        makeDirectories(work)
        let watchdog = Watchdog(limit: timeout, folder: work)
        let target = FuzzTarget(folder: work + "/run")
        var total = 0
        for format in formats {
            let seeds = corpus.seeds(of: format)
            guard !seeds.isEmpty else { fail("no seed of format \(format.name) under \(seedFolders)") }
            var mutator = Mutator(seed: seed &+ UInt64(total))
            var outcomes: [FuzzTarget.Outcome: Int] = [:]
            let deadline = now() + seconds / Double(formats.count)
            var runs = 0
            while runs < seeds.count || now() < deadline {
                let bytes = runs < seeds.count ? seeds[runs] : mutator.mutate(seeds[mutator.below(seeds.count)], splicingFrom: seeds)
                BristleFuzz.write(bytes, to: work + "/last-input")
                watchdog.start(format: format.name, input: bytes)
                outcomes[target.run(bytes, variant: UInt64(runs)), default: 0] += 1
                watchdog.stop()
                runs += 1
            }
            total += runs
            let summary = outcomes.sorted { "\($0.key)" < "\($1.key)" }.map { outcome, count in
                switch outcome {
                case .rendered: return "\(count) rendered"
                case .refused(let status): return "\(count) refused (\(status))"
                }
            }
            print("bristle-fuzz: \(format.name): \(runs) runs from \(seeds.count) seeds: \(summary.joined(separator: ", "))")
        }
        unlink(work + "/last-input")
        print("bristle-fuzz: \(total) runs over \(formats.count) format(s): no crash, no hang, no broken promise")
    }

    /// Writes each format's seeds into `folder/NAME/`, and the mutator's tokens as a libFuzzer
    /// dictionary, `folder/bristle.dict`.
    static func write(_ corpus: SeedCorpus, formats: [FuzzFormat], into folder: String) {
        makeDirectories(folder)
        let dictionary = Mutator.dictionary.map { token in
            "\"" + token.map { b in
                b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16).leftPadded()
            }.joined() + "\""
        }
        BristleFuzz.write(Array((dictionary.joined(separator: "\n") + "\n").utf8), to: folder + "/bristle.dict")
        for format in formats {
            mkdir(folder + "/" + format.name, 0o755)
            for (i, bytes) in corpus.seeds(of: format).enumerated() {
                BristleFuzz.write(bytes, to: folder + "/" + format.name + "/seed-\(i)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        StandardError.write(message + "\n")
        exit(64)
    }
}

extension String {
    /// Two hexadecimal digits.
    fileprivate func leftPadded() -> String { count < 2 ? "0" + self : self }
}

/// Seconds on the monotonic clock.
func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Ends the process when one run takes longer than `limit` seconds, saving its input.
final class Watchdog: Sendable {
    private struct Run { var format: String; var input: [UInt8]; var started: Double }
    private let current = Mutex<Run?>(nil)

    init(limit: Double, folder: String) {
        let thread = Thread { [self] in
            while true {
                usleep(100_000)
                guard let run = current.withLock({ $0 }), now() - run.started > limit else { continue }
                let path = folder + "/hang-" + run.format
                BristleFuzz.write(run.input, to: path)
                StandardError.write("bristle-fuzz: hang: a run of \(run.format) took more than \(limit) s; its input is in \(path)\n")
                _exit(1)
            }
        }
        thread.start()
    }

    func start(format: String, input: [UInt8]) { current.withLock { $0 = Run(format: format, input: input, started: now()) } }
    func stop() { current.withLock { $0 = nil } }
}
#endif
