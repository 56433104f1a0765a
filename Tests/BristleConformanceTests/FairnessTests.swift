import BristleConformance
import BristleTestSupport
import Foundation
import Glibc
import Testing

/// Issue 12, points 6 and 7: the harness is fair to correct brushes. Brushes written from the
/// docs alone, doing unusual but allowed things, pass the strict tier; a slow brush gets a
/// warning, never a failure; and a verdict does not change when the machine is loaded.
@Suite struct FairnessTests {
    /// Correct brushes written from docs/ABI.md and bristle.h only (Tests/Fixtures/brushes/
    /// stranger_*.c, their headers say what is unusual about each), with the skips their
    /// flags call for, each naming its reason.
    @Test(arguments: [
        ("stranger_laser", [
            "layout.sample-stride": "does not set DETERMINISTIC", "lifecycle.cancel-forgets": "does not set DETERMINISTIC",
            "semantics.predicted-never-committed": "does not set DETERMINISTIC",
            "determinism.render-twice": "does not set DETERMINISTIC", "determinism.batching": "does not set DETERMINISTIC",
            "determinism.long-session": "does not set DETERMINISTIC",
            "determinism.instances-independent": "does not set DETERMINISTIC",
        ]),
        ("stranger_stipple", [
            "layout.sample-stride": "does not set DETERMINISTIC", "lifecycle.cancel-forgets": "does not set DETERMINISTIC",
            "lifecycle.ticks": "does not set WANTS_TICKS", "semantics.commit-after-ended": "is CONTINUOUS",
            "semantics.predicted-never-committed": "does not set WANTS_PREDICTED",
            "determinism.render-twice": "does not set DETERMINISTIC", "determinism.batching": "does not set DETERMINISTIC",
            "determinism.long-session": "does not set DETERMINISTIC",
            "determinism.instances-independent": "does not set DETERMINISTIC",
        ]),
    ])
    func correctBrushesWrittenFromTheDocsPassStrict(fixture: String, skips: [String: String]) throws {
        let report = try ZooTests.run(CCompiler.buildFixture(fixture), timeout: 60)
        #expect(ZooTests.nonPassing(report) == skips.mapValues { _ in Verdict.skip },
                "\(report.results.filter { $0.verdict != .pass }.map { "\($0.test): \($0.message)" })")
        for (test, reason) in skips {
            let r = try #require(report.results.first { $0.test == test })
            #expect(r.message.contains(reason), "\(test): \(r.message)")
        }
        #expect(report.conformant)
    }

    /// A slow but correct brush (zoo SLOW_DRAW spins in every draw) is warned about its time
    /// per sample and stays conformant; and with the CPU it runs on shared with five busy
    /// loops, so that its wall time passes a timeout its own time stays under, the verdict is
    /// the same: timeouts count the child's own time (docs/CONFORMANCE.md, Isolation).
    @Test func aSlowBrushIsWarnedNeverFailedAndItsVerdictIgnoresTheMachinesLoad() throws {
        let zoo = try ZooTests.zoo("SLOW_DRAW")
        let cpu = try Self.firstAllowedCPU()
        let calm = try Self.timePerSample(zoo, cpu: cpu, timeout: 60)
        #expect(calm.verdict == .warn && calm.message.hasSuffix("us per sample (harness included)"), "\(calm.message)")
        // The unloaded wall time bounds the test's own time; half as much again is its timeout.
        let timeout = (max(1, calm.seconds * 1.5) * 10).rounded(.up) / 10
        // Busy loops on that CPU, which end by themselves should this process die first.
        let spinners = try (0..<5).map { _ in
            try Process.run(URL(fileURLWithPath: "/usr/bin/taskset"),
                            arguments: ["-c", "\(cpu)", "/bin/sh", "-c", "while kill -0 \(getpid()) 2>/dev/null; do :; done"])
        }
        defer {
            for spinner in spinners {
                kill(spinner.processIdentifier, SIGKILL) // SIGKILL: this process may block SIGTERM, and children inherit that
                spinner.waitUntilExit()
            }
        }
        let loaded = try Self.timePerSample(zoo, cpu: cpu, timeout: timeout)
        #expect(loaded.verdict == .warn, "\(loaded.verdict): \(loaded.message)")
        #expect(loaded.seconds > timeout, "the load must stretch the wall time (\(loaded.seconds) s) past the timeout (\(timeout) s), or this test proves nothing")
    }

    /// `robustness.time-per-sample` of `plugin`, run by the CLI pinned to `cpu` (its children
    /// inherit the pinning).
    static func timePerSample(_ plugin: String, cpu: Int, timeout: Double) throws -> TestResult {
        let r = try ProcessResult.run("/usr/bin/taskset", ["-c", "\(cpu)", TestEnvironment.bristleExecutable.path, "conform",
                                                           plugin, "--tier", "strict", "--include", "^robustness\\.time-per-sample$",
                                                           "--seed", "7", "--timeout", "\(timeout)", "--json"])
        struct Report: Decodable { var results: [TestResult] }
        let report = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8))
        return try #require(report.results.first { $0.test == "robustness.time-per-sample" }, "\(r.stdout)\(r.stderr)")
    }

    /// The first CPU this process may run on (`Cpus_allowed_list` of /proc/self/status).
    static func firstAllowedCPU() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        return try #require(Int(list.prefix { $0.isNumber }), "\(line)")
    }
}
