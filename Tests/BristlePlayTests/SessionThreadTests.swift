@testable import BristlePlay
import Foundation
import Glibc
import Synchronization
import Testing

/// The session's thread: jobs and messages run in the order posted, messages that waited
/// together reach `drain` as one batch, timers run at their deadline, `sync` answers, and the
/// thread runs at the priority of a user-interactive dispatch queue.
@Suite struct SessionThreadTests {
    @Test func jobsAndMessagesRunInOrderAndWaitingMessagesComeAsOneBatch() async {
        let log = Mutex<[String]>([])
        let thread = SessionThread<Int>()
        // Everything is posted before the thread starts, so it all waits together.
        thread.send(1)
        thread.send(2)
        thread.async { log.withLock { $0.append("job") } }
        thread.send(3)
        thread.start(name: "test-session") { batch in log.withLock { $0.append(batch.map(String.init).joined(separator: "+")) } }
        let seen = await thread.sync { log.withLock { $0 } }
        #expect(seen == ["1+2", "job", "3"])
        thread.send(4)
        #expect(await thread.sync { log.withLock { $0.last } } == "4", "a message posted later is drained on its own")
        thread.stop()
    }

    @Test func timersRunAtTheirDeadlineInDeadlineOrder() async throws {
        let log = Mutex<[(String, Double)]>([])
        let thread = SessionThread<Int>()
        thread.start(name: "test-session") { _ in }
        let start = Clock.seconds()
        thread.after(0.06) { log.withLock { $0.append(("late", Clock.seconds())) } }
        thread.after(0.02) { log.withLock { $0.append(("early", Clock.seconds())) } }
        thread.async { log.withLock { $0.append(("now", Clock.seconds())) } }
        let deadline = Clock.seconds() + 10
        while log.withLock({ $0.count }) < 3, Clock.seconds() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let seen = log.withLock { $0 }
        #expect(seen.map(\.0) == ["now", "early", "late"])
        #expect(seen.count == 3 && seen[1].1 - start >= 0.02 && seen[2].1 - start >= 0.06, "no timer runs before its deadline")
        thread.stop()
    }

    @Test func theThreadRunsAtTheNiceValueOfAUserInteractiveQueue() async {
        let thread = SessionThread<Int>()
        thread.start(name: "test-session") { _ in }
        let nice = await thread.sync { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        thread.stop()
        if geteuid() == 0 {
            #expect(nice == ThreadPriority.userInteractiveNice)
        } else {
            // Without the right to lower its nice value the thread keeps the process's.
            #expect(nice == getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
    }
}
