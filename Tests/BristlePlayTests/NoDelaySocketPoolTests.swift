@testable import BristlePlay
import FlyingSocks
import Glibc
import Testing

/// Nagle's algorithm is off on the server's connections: the pool gives the listening socket
/// `TCP_NODELAY`, and what it accepts inherits it.
@Suite struct NoDelaySocketPoolTests {
    /// A pool that never waits (the test accepts by hand).
    private struct Immediate: AsyncSocketPool {
        func prepare() async throws {}
        func run() async throws {}
        func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {}
    }

    private static var noDelay: BoolSocketOption { BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY) }

    @Test func theListenerAndWhatItAcceptsHaveNoDelay() async throws {
        let pool = NoDelaySocketPool(Immediate())
        let listener = try Socket(domain: AF_INET)
        try listener.bind(to: .inet(ip4: "127.0.0.1", port: 0))
        try listener.listen()
        // A socket that is not listening is left alone and does not count.
        let bystander = try Socket(domain: AF_INET)
        try await pool.suspendSocket(bystander, untilReadyFor: .read)
        #expect(!pool.listenerReady)
        #expect(try bystander.getValue(for: Self.noDelay) == false)
        try await pool.suspendSocket(listener, untilReadyFor: .connection)
        #expect(pool.listenerReady && pool.problem == nil)
        #expect(try listener.getValue(for: Self.noDelay))

        guard case .ip4(_, let port) = try listener.sockname() else {
            Issue.record("the listener has no IPv4 address")
            return
        }
        let client = try Socket(domain: AF_INET)
        try client.connect(to: .inet(ip4: "127.0.0.1", port: port))
        let accepted = Socket(file: try listener.accept().file)
        #expect(try accepted.getValue(for: Self.noDelay), "an accepted connection inherits TCP_NODELAY")
        for socket in [accepted, client, bystander, listener] { try socket.close() }
    }
}
