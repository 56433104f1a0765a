@testable import BristlePlay
import BristleTestSupport
import Foundation
import Glibc
import Testing

/// Real-time scheduling of the session's thread and the brush worker (`ThreadPriority`): where
/// the system permits it (these tests run as root in CI), both run under `SCHED_FIFO 10`, the
/// log and `/api/stats` say so, and a brush that spins at real-time priority is returned to
/// ordinary scheduling by `RLIMIT_RTTIME` (or killed by the kernel when it ignores `SIGXCPU`),
/// then cut short by the hook timeout while the server keeps serving. Where not permitted, the
/// server falls back to nice -4 and says that instead.
@Suite(.serialized) struct PlayRealTimeTests {
    /// Whether this process may raise a thread to real-time priority (what the server will try).
    static let realTimePermitted: Bool = {
        final class Answer: @unchecked Sendable { var permitted = false }
        let answer = Answer(), done = DispatchSemaphore(value: 0)
        Thread {
            var parameter = sched_param(sched_priority: 10)
            answer.permitted = sched_setscheduler(0, SCHED_FIFO, &parameter) == 0  // this thread only, which ends
            done.signal()
        }.start()
        done.wait()
        return answer.permitted
    }()

    /// The server's brush workers (its children) now.
    static func workers(of server: PlayProcess) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(server.pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
        }
    }

    @Test func theSchedulingInEffectIsLoggedAndInTheStats() throws {
        let server = try PlayProcess(["--canvas", "64x64"])
        let stats = try server.get("/api/stats").text
        let line = "bristle play: scheduling: "
        for _ in 0..<200 where !server.stderr.contains(line) { Thread.sleep(forTimeInterval: 0.05) }
        if Self.realTimePermitted {
            #expect(stats.contains("\"scheduling\": {\"session\": \"SCHED_FIFO 10\", \"worker\": \"SCHED_FIFO 10\"}"), "\(stats)")
            #expect(server.stderr.contains(line + "SCHED_FIFO 10 for the session's thread and the brush worker"), "\(server.stderr)")
            let worker = try #require(Self.workers(of: server).first)
            #expect(sched_getscheduler(worker) & ~0x4000_0000 == SCHED_FIFO, "the worker itself says SCHED_FIFO")
        } else {
            #expect(stats.contains("\"session\": \"nice "), "\(stats)")
            #expect(server.stderr.contains(line + "nice "), "\(server.stderr)")
        }
    }

    /// `RLIMIT_RTTIME`'s soft limit is the guard's 0.2 s once a thread was raised (the server
    /// keeps its hard limit), and what it was before around the start of a child that is none of
    /// ours (`bristle play --open`'s browser).
    @Test(.enabled(if: realTimePermitted, "real-time scheduling is not permitted here"))
    func theGuardIsSetAndLiftedForOtherChildren() throws {
        func limit() -> rlimit {
            var l = rlimit()
            getrlimit(__rlimit_resource_t(__RLIMIT_RTTIME.rawValue), &l)
            return l
        }
        let before = limit()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var parameter = sched_param(sched_priority: 0)
            defer { _ = sched_setscheduler(0, SCHED_OTHER, &parameter); done.signal() }  // this thread ends ordinary
            #expect(ThreadPriority.raise() == .realTime(priority: 10))
        }.start()
        done.wait()
        #expect(limit().rlim_cur == 200_000 && limit().rlim_max == before.rlim_max)
        let inside = ThreadPriority.withoutGuard { limit() }
        #expect(inside.rlim_cur > 200_000, "lifted (the tests run without an RLIMIT_RTTIME of their own): \(inside.rlim_cur)")
        #expect(limit().rlim_cur == 200_000, "set again after")
    }

    @Test func realTimeCanBeTurnedOff() throws {
        let server = try PlayProcess(["--canvas", "64x64"], environment: ["BRISTLE_PLAY_REALTIME": "0"])
        let stats = try server.get("/api/stats").text
        #expect(!stats.contains("SCHED_FIFO") && stats.contains("\"worker\": \"nice "), "\(stats)")
    }

    /// A brush that loops forever in `moved` at real-time priority: within a second (0.2 s of
    /// CPU) `SIGXCPU` returns its worker to ordinary scheduling, the hook timeout (3 s) ends it,
    /// and a fresh worker, at real-time priority again, draws the next stroke.
    @Test(.enabled(if: realTimePermitted, "real-time scheduling is not permitted here"))
    func aSpinningBrushIsReturnedToOrdinarySchedulingThenCutShort() throws {
        try expectSpinHandled(["-DHANG_IN_MOVED"], status: "the brush hung in moved: no answer within 3 s", demoted: true)
    }

    /// The same brush ignoring `SIGXCPU`: the kernel kills its worker at `RLIMIT_RTTIME`'s hard
    /// limit (2 s of CPU), before the hook timeout (5 s).
    @Test(.enabled(if: realTimePermitted, "real-time scheduling is not permitted here"))
    func aSpinningBrushThatIgnoresSIGXCPUIsKilledByTheKernel() throws {
        try expectSpinHandled(["-DHANG_IGNORING_SIGXCPU"], status: "the brush crashed in moved (SIGKILL", demoted: false, hookTimeout: 5)
    }

    private func expectSpinHandled(_ defines: [String], status: String, demoted: Bool, hookTimeout: Int = 3) throws {
        let brushes = try PlayIsolationTests.brushFolder(defines)
        let server = try PlayProcess(["--brushes", brushes.folder, "--canvas", "256x160", "--hook-timeout", "\(hookTimeout)"])
        let page = try server.page()
        try page.choose("test.play")
        try page.stroke([(10, 10), (20, 20)])  // the worker has loaded the brush
        let spinning = try #require(Self.workers(of: server).first)
        #expect(sched_getscheduler(spinning) & ~0x4000_0000 == SCHED_FIFO)

        // Watches the worker while the page's stroke waits for the hung `moved`.
        let policies = Policies()
        let watcher = Thread {
            let started = Date()
            while Date().timeIntervalSince(started) < Double(hookTimeout) + 10, kill(spinning, 0) == 0 {
                policies.add(sched_getscheduler(spinning) & ~0x4000_0000, at: Date().timeIntervalSince(started))
                Thread.sleep(forTimeInterval: 0.02)
            }
            policies.finish()
        }
        watcher.start()
        try page.stroke(PlayIsolationTests.zigzag)
        let said = try page.waitForStatus(containing: status)
        #expect(said.hasPrefix("test.play: "), "\(said)")
        policies.waitUntilFinished()
        #expect(kill(spinning, 0) != 0, "the spinning worker is gone")
        let seen = policies.seen
        if demoted {
            let returned = try #require(seen.first { $0.policy == SCHED_OTHER }, "the worker left real time: \(seen)")
            #expect(returned.at < 1.5, "within 0.2 s of CPU (\(returned.at) s after the stroke began)")
        } else {
            #expect(seen.allSatisfy { $0.policy == SCHED_FIFO || $0.policy < 0 }, "it kept real time until killed: \(seen)")
        }

        try page.choose("org.bristle.pencil", color: "#00aa00")
        let before = page.canvas
        try page.stroke([(10, 140), (200, 130)])
        #expect(page.canvas != before, "the next stroke draws, in a fresh worker")
        let fresh = try server.get("/api/stats").text
        #expect(fresh.contains("\"worker\": \"SCHED_FIFO 10\""), "the fresh worker runs at real time: \(fresh)")
        try PlayServerTests.expectReplayMatches(server, page)
    }

    /// The policies seen, with the seconds since watching began.
    final class Policies: @unchecked Sendable {
        private let condition = NSCondition()
        private var list: [(policy: Int32, at: Double)] = []
        private var finished = false

        func add(_ policy: Int32, at seconds: Double) { condition.withLock { list.append((policy, seconds)) } }

        func finish() {
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }

        func waitUntilFinished() {
            condition.withLock { while !finished { condition.wait() } }
        }

        var seen: [(policy: Int32, at: Double)] { condition.withLock { list } }
    }
}
