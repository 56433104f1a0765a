import Foundation
import Glibc

/// The one thread that runs a ``PlaySession``: a plain thread (not a task of the cooperative
/// pool, which it would block while the brush worker draws) that sleeps on a condition
/// variable until something is posted, then runs what waits in order.
///
/// Two kinds of work are posted: jobs (closures) and the pages' input messages. Consecutive
/// messages that waited together are handed to the `drain` function given at ``start(drain:)``
/// as one batch, so that a backlog can be played as one event. Messages posted while the
/// thread works are taken at its next turn without a sleep: a message costs the thread one
/// wake-up at most, not the two of a queue's hop (the enqueue waking a pool thread, which
/// then takes the job). The thread runs at real-time priority where permitted
/// (``ThreadPriority``), raised again after a turn that ran too long for it.
///
/// Timers (``after(_:_:)``) run on the thread too, at or after their deadline, in deadline order.
final class SessionThread<Message: Sendable>: @unchecked Sendable {
    private enum Item {
        case job(@Sendable () -> Void)
        case message(Message)
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`:
    private var items: [Item] = []
    private var timers: [(deadline: Double, job: @Sendable () -> Void)] = []
    private var stopping = false

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)  // deadlines are `Clock.seconds()`
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Starts the thread; `drain` gets every batch of messages. The thread keeps this object
    /// alive until ``stop()``.
    func start(name: String, drain: @escaping @Sendable ([Message]) -> Void) {
        Thread { [self] in
            Thread.current.name = name
            ThreadPriority.raise()
            run(drain)
        }.start()
    }

    /// Ends the thread after the work it is doing; what waits is dropped.
    func stop() {
        post { $0.stopping = true }
    }

    /// Runs `job` on the thread, after everything posted before.
    func async(_ job: @escaping @Sendable () -> Void) {
        post { $0.items.append(.job(job)) }
    }

    /// Hands `message` to the thread's `drain`, after everything posted before.
    func send(_ message: Message) {
        post { $0.items.append(.message(message)) }
    }

    /// Runs `job` on the thread `seconds` from now (or later, when the thread is busy).
    func after(_ seconds: Double, _ job: @escaping @Sendable () -> Void) {
        let deadline = Clock.seconds() + seconds
        post { this in
            this.timers.append((deadline, job))
            this.timers.sort { $0.deadline < $1.deadline }
        }
    }

    /// Runs `job` on the thread and waits for its result.
    func sync<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            async { continuation.resume(returning: job()) }
        }
    }

    private func post(_ change: (SessionThread) -> Void) {
        pthread_mutex_lock(mutex)
        change(self)
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
    }

    private func run(_ drain: ([Message]) -> Void) {
        while true {
            pthread_mutex_lock(mutex)
            while !stopping && items.isEmpty && (timers.first.map { $0.deadline > Clock.seconds() } ?? true) {
                if let deadline = timers.first?.deadline {
                    var until = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
                    pthread_cond_timedwait(condition, mutex, &until)
                } else {
                    pthread_cond_wait(condition, mutex)
                }
            }
            if stopping {
                pthread_mutex_unlock(mutex)
                return
            }
            let now = Clock.seconds()
            let due = timers.prefix { $0.deadline <= now }.map(\.job)
            timers.removeFirst(due.count)
            let batch = items
            items = []
            pthread_mutex_unlock(mutex)
            var messages: [Message] = []
            for item in batch {
                switch item {
                case .message(let message):
                    messages.append(message)
                case .job(let job):
                    if !messages.isEmpty { drain(messages) }
                    messages = []
                    job()
                }
            }
            if !messages.isEmpty { drain(messages) }
            due.forEach { $0() }
            ThreadPriority.reassert()
        }
    }
}
