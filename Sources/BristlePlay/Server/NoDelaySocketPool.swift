import FlyingSocks
import Glibc
import Synchronization

/// A socket pool (``DirectSocketPool`` in the server) with Nagle's algorithm turned off for the
/// server's connections: the first time the listening socket waits for a connection (the
/// socket that waits to read and has `SO_ACCEPTCONN`), it gets `TCP_NODELAY`, which Linux
/// passes on to every socket it accepts. Without it, a small patch written while the previous one is not yet acknowledged
/// waits for the page's delayed ACK (up to 40 ms on loopback). ``PlayServer`` announces its
/// URL only once ``listenerReady`` is true, so no connection is accepted before.
final class NoDelaySocketPool<Base: AsyncSocketPool>: AsyncSocketPool {
    private let base: Base
    private let ready = Atomic<Bool>(false)
    private let failure = Mutex<String?>(nil)

    init(_ base: Base) { self.base = base }

    /// True once the listening socket has `TCP_NODELAY`.
    var listenerReady: Bool { ready.load(ordering: .acquiring) }

    /// Why setting `TCP_NODELAY` failed, if it did.
    var problem: String? { failure.withLock { $0 } }

    func prepare() async throws { try await base.prepare() }

    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        if !ready.load(ordering: .acquiring), events.contains(.read),
           (try? socket.getValue(for: BoolSocketOption(name: SO_ACCEPTCONN))) == true {
            do {
                try socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            ready.store(true, ordering: .releasing)
        }
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
