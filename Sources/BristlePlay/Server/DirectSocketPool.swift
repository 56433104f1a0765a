import FlyingSocks
import Foundation
import Synchronization

/// A socket pool for FlyingFox with fewer wake-ups than its own: one plain thread waits in
/// `epoll_wait` (FlyingSocks' `ePoll` queue) and resumes the tasks waiting for a socket right
/// there. FlyingFox's pool is an actor that sends each `epoll_wait` to a dispatch queue and
/// resumes the waiting tasks from the actor, so that a message from a page woke a dispatch
/// thread, then the actor's task, then the reading task (and the wait was queued anew each
/// time); here it wakes the epoll thread, then the reading task. The epoll thread runs at
/// real-time priority where permitted (``ThreadPriority``), like the session's.
///
/// Same contract as FlyingFox's pool: a task suspended for some events of a socket is resumed
/// when one of them is ready (with `SocketError.disconnected` when the socket reports an error
/// or hang-up), or with `CancellationError` when it is cancelled or the pool stops (the task
/// running ``run()`` is cancelled).
final class DirectSocketPool: AsyncSocketPool {
    private struct Waiter {
        var id: UInt64
        var events: Socket.Events
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var queue: FlyingSocks.ePoll
        var waiting: [Socket.FileDescriptor: [Waiter]] = [:]
        var nextID: UInt64 = 0
        var stopped = false
        var runner: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State(queue: FlyingSocks.ePoll(triggering: .edge, maxEvents: 64, logger: .disabled)))

    func prepare() async throws {
        try state.withLock { try $0.queue.open() }
    }

    /// Starts the epoll thread and returns when the calling task is cancelled.
    func run() async throws {
        // The thread's copy only waits (and closes the queue at the end); the one in `state`
        // is changed under the lock. Both name the same epoll file.
        nonisolated(unsafe) let queue = state.withLock { $0.queue }
        Thread { [self] in
            Thread.current.name = "bristle-epoll"
            ThreadPriority.raise()
            loop(queue)
        }.start()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (runner: CheckedContinuation<Void, any Error>) in
                let stopped = state.withLock { s in
                    if !s.stopped { s.runner = runner }
                    return s.stopped
                }
                if stopped { runner.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            stop()
        }
    }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // A cancellation sets the task's flag before it runs `cancel`, which waits for the
                // lock: either the flag is seen here, or `cancel` finds the waiter.
                let failure: (any Error)? = state.withLock { s in
                    if s.stopped || Task.isCancelled { return CancellationError() }
                    s.waiting[socket.file, default: []].append(Waiter(id: id, events: events, continuation: continuation))
                    do { try s.queue.addEvents(events, for: socket.file) } catch {
                        s.waiting[socket.file]?.removeLast()
                        if s.waiting[socket.file]?.isEmpty == true { s.waiting[socket.file] = nil }
                        return error
                    }
                    return nil
                }
                if let failure { continuation.resume(throwing: failure) }
            }
        } onCancel: {
            cancel(id, socket.file)
        }
    }

    /// The epoll thread: waits for notifications until the queue is stopped, then closes it.
    private func loop(_ queue: ePoll) {
        while true {
            let notifications: [EventNotification]
            do { notifications = try queue.getNotifications() } catch { break }  // stopped
            for notification in notifications { deliver(notification) }
        }
        var closing = queue
        try? closing.close()
    }

    /// Resumes the tasks waiting for what `notification` reports, and stops watching for the
    /// events no task waits for any more.
    private func deliver(_ notification: EventNotification) {
        let fd = notification.file
        let failed = !notification.errors.isEmpty
        let ready: Socket.Events = failed || notification.events.isEmpty ? [.read, .write] : notification.events
        let woken = state.withLock { s -> [Waiter] in
            guard let list = s.waiting[fd] else { return [] }
            let woken = list.filter { !$0.events.isDisjoint(with: ready) }
            guard !woken.isEmpty else { return [] }
            let kept = list.filter { $0.events.isDisjoint(with: ready) }
            s.waiting[fd] = kept.isEmpty ? nil : kept
            unwatch(woken, kept: kept, fd: fd, in: &s)
            return woken
        }
        for waiter in woken {
            if failed { waiter.continuation.resume(throwing: SocketError.disconnected) } else { waiter.continuation.resume() }
        }
    }

    private func cancel(_ id: UInt64, _ fd: Socket.FileDescriptor) {
        let waiter = state.withLock { s -> Waiter? in
            guard let list = s.waiting[fd], let i = list.firstIndex(where: { $0.id == id }) else {
                return nil  // already resumed, or not registered yet (then refused as cancelled)
            }
            var kept = list
            let waiter = kept.remove(at: i)
            s.waiting[fd] = kept.isEmpty ? nil : kept
            unwatch([waiter], kept: kept, fd: fd, in: &s)
            return waiter
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }

    /// Stops watching `fd` for the events of `gone` that none of `kept` waits for.
    private func unwatch(_ gone: [Waiter], kept: [Waiter], fd: Socket.FileDescriptor, in s: inout State) {
        let remaining = kept.reduce(into: Socket.Events()) { $0.formUnion($1.events) }
        let unwatched = gone.reduce(into: Socket.Events()) { $0.formUnion($1.events) }.subtracting(remaining)
        try? s.queue.removeEvents(unwatched, for: fd)
    }

    /// Ends the pool: the epoll thread stops and every waiting task gets `CancellationError`.
    private func stop() {
        let (waiters, runner) = state.withLock { s -> ([Waiter], CheckedContinuation<Void, any Error>?) in
            guard !s.stopped else { return ([], nil) }
            s.stopped = true
            try? s.queue.stop()
            defer {
                s.waiting = [:]
                s.runner = nil
            }
            return (s.waiting.values.flatMap { $0 }, s.runner)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: CancellationError()) }
        runner?.resume(throwing: CancellationError())
    }
}
