@testable import BristlePlay
import FlyingSocks
import Glibc
import Synchronization
import Testing

/// The server's socket pool: a task waiting for a socket resumes when it is ready, and with
/// `CancellationError` when the task is cancelled or the pool stops.
@Suite struct DirectSocketPoolTests {
    private static func pair() throws -> (Socket, Socket) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw SocketError.makeFailed("socketpair") }
        return (Socket(file: .init(rawValue: fds[0])), Socket(file: .init(rawValue: fds[1])))
    }

    @Test(.timeLimit(.minutes(1))) func aWaitEndsWhenTheSocketIsReadyOrTheTaskIsCancelledOrThePoolStops() async throws {
        let pool = DirectSocketPool()
        try await pool.prepare()
        let running = Task { try await pool.run() }
        let (a, b) = try Self.pair()

        let readable = Atomic<Int>(0)
        let reader = Task {
            try await pool.suspendSocket(a, untilReadyFor: [.read])
            readable.store(1, ordering: .releasing)
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(readable.load(ordering: .acquiring) == 0, "nothing to read yet")
        var byte: UInt8 = 7
        #expect(write(b.file.rawValue, &byte, 1) == 1)
        try await reader.value
        #expect(readable.load(ordering: .acquiring) == 1)
        #expect(read(a.file.rawValue, &byte, 1) == 1)

        let writable = Task { try await pool.suspendSocket(b, untilReadyFor: [.write]) }
        try await writable.value  // an empty send buffer is ready at once

        let cancelled = Task { try await pool.suspendSocket(a, untilReadyFor: [.read]) }
        try await Task.sleep(for: .milliseconds(20))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }

        let early = Task {
            while !Task.isCancelled { await Task.yield() }
            try await pool.suspendSocket(a, untilReadyFor: [.read])
        }
        early.cancel()
        await #expect(throws: CancellationError.self, "a task cancelled before it waits") { try await early.value }

        let stranded = Task { try await pool.suspendSocket(a, untilReadyFor: [.read]) }
        try await Task.sleep(for: .milliseconds(20))
        running.cancel()
        await #expect(throws: CancellationError.self) { try await stranded.value }
        await #expect(throws: CancellationError.self) { try await running.value }
        await #expect(throws: CancellationError.self, "after the pool stopped") {
            try await pool.suspendSocket(a, untilReadyFor: [.read])
        }
        try a.close()
        try b.close()
    }
}
