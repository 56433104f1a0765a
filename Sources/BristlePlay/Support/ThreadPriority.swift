import Glibc
import Synchronization

/// The scheduling of the threads that answer the page: the session's, the epoll thread and the
/// brush worker's.
///
/// Where the system permits it (root, `CAP_SYS_NICE`, or an `RLIMIT_RTPRIO` of at least
/// ``realTimePriority``), they run under `SCHED_FIFO` at a low real-time priority, as audio
/// servers' threads do (JACK, PipeWire): a real-time thread that wakes takes a core from any
/// ordinary thread at once, so a browser drawing the page on the same cores no longer delays
/// the answer. Elsewhere they run at nice -4, the priority of a user-interactive dispatch queue
/// (libdispatch gives its threads an absolute nice value by QoS on Linux), silently.
/// `BRISTLE_PLAY_REALTIME=0` in the environment keeps them at nice -4 (to compare, or on a
/// machine where the server must never take a core from anything).
///
/// The guard, because the worker runs a stranger's brush: every process that raises a thread
/// sets `RLIMIT_RTTIME`'s soft limit (the CPU time a real-time thread may run without sleeping)
/// to ``burstMicroseconds``, and the worker its hard limit to ``killMicroseconds``
/// (``guardAgainstBrushes()``). At the soft limit the kernel sends `SIGXCPU`, whose handler
/// returns the thread to ordinary scheduling at nice -4, where the server's hang watchdog (the
/// hook timeout) still ends a brush that never answers; a brush that ignores `SIGXCPU` and keeps
/// running gets `SIGKILL` from the kernel at the worker's hard limit. ``reassert()`` raises a
/// thread that was returned again (the worker does before each request, the session's thread
/// after each turn). Real-time priority is not inherited: a child process or thread created by
/// a raised thread starts ordinary (`SCHED_RESET_ON_FORK`).
public enum ThreadPriority {
    /// The nice value libdispatch gives its threads of user-interactive QoS on Linux, whatever
    /// the process's (the cooperative pool's threads, user-initiated, get -2).
    static let userInteractiveNice: Int32 = -4
    /// `SCHED_FIFO` priority, of 1 (lowest) to 99: above every ordinary thread, below the
    /// kernel's interrupt threads (50) and audio servers (PipeWire's 88, rtkit's default 20).
    static let realTimePriority: Int32 = 10
    /// `RLIMIT_RTTIME`'s soft limit: 0.2 s of CPU without sleeping (an input event's request
    /// takes well under a millisecond; rebuilding a long session may take seconds, at ordinary
    /// priority after the first 0.2 s).
    static let burstMicroseconds: rlim_t = 200_000
    /// `RLIMIT_RTTIME`'s hard limit: `SIGKILL` for a thread that ignored the soft one.
    static let killMicroseconds: rlim_t = 2_000_000
    /// `SCHED_RESET_ON_FORK` of <linux/sched.h>.
    private static let resetOnFork: Int32 = 0x4000_0000
    /// The environment variable that turns real-time scheduling off (`0`).
    static let environmentSwitch = "BRISTLE_PLAY_REALTIME"

    /// A thread's scheduling, as the server's log and `GET /api/stats` name it.
    enum Scheduling: Equatable, Sendable, CustomStringConvertible {
        case realTime(priority: Int32)
        case nice(Int32)

        var description: String {
            switch self {
            case .realTime(let priority): return "SCHED_FIFO \(priority)"
            case .nice(let value): return "nice \(value)"
            }
        }

        /// The scheduling of thread (or process) `tid`; 0 is the calling thread. Nil when it is
        /// gone.
        static func of(_ tid: pid_t) -> Scheduling? {
            let raw = sched_getscheduler(tid)
            guard raw >= 0 else { return nil }
            let policy = raw & ~ThreadPriority.resetOnFork
            if policy == SCHED_FIFO || policy == SCHED_RR {
                var parameter = sched_param()
                guard sched_getparam(tid, &parameter) == 0 else { return nil }
                return .realTime(priority: parameter.sched_priority)
            }
            errno = 0
            let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid))
            return errno == 0 ? .nice(value) : nil
        }
    }

    /// Raises the calling thread: `SCHED_FIFO` at ``realTimePriority`` where permitted (with the
    /// guard), nice -4 otherwise (or keeps its own nice value when even that is not permitted:
    /// not root, no `RLIMIT_NICE`, as libdispatch's threads do). Returns what is in effect.
    @discardableResult
    static func raise() -> Scheduling {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, userInteractiveNice)  // 0: this thread
        if realTimeWanted && guardInstalled {
            var parameter = sched_param(sched_priority: realTimePriority)
            if sched_setscheduler(0, SCHED_FIFO | resetOnFork, &parameter) == 0 {
                realTimeGranted.store(true, ordering: .relaxed)
                return .realTime(priority: realTimePriority)
            }
        }
        return Scheduling.of(0) ?? .nice(userInteractiveNice)
    }

    /// Raises the calling thread again if the guard returned it to ordinary scheduling (one
    /// system call when it did not; none where real time was never granted).
    static func reassert() {
        guard realTimeGranted.load(ordering: .relaxed), sched_getscheduler(0) & ~resetOnFork != SCHED_FIFO else { return }
        _ = raise()
    }

    /// Whether a thread of this process was ever raised to real time (then the others may be).
    private static let realTimeGranted = Atomic<Bool>(false)

    /// False when `BRISTLE_PLAY_REALTIME=0`.
    private static let realTimeWanted: Bool = {
        guard let value = getenv(environmentSwitch) else { return true }
        return String(cString: value) != "0"
    }()

    /// Runs `body`, which starts a child that is none of ours (the user's browser), with the
    /// process's `RLIMIT_RTTIME` soft limit as it was before the guard, so that the child does
    /// not inherit it.
    public static func withoutGuard<T>(_ body: () -> T) -> T {
        var guarded = rlimit()
        guard getrlimit(rtTime, &guarded) == 0 else { return body() }
        var original = rlimit(rlim_cur: min(originalLimit.rlim_cur, guarded.rlim_max), rlim_max: guarded.rlim_max)
        _ = setrlimit(rtTime, &original)
        defer { _ = setrlimit(rtTime, &guarded) }
        return body()
    }

    /// For the brush worker, before ``raise()``: also lowers `RLIMIT_RTTIME`'s hard limit to
    /// ``killMicroseconds``, so that the kernel kills a brush that ignores `SIGXCPU` (a hard
    /// limit cannot be raised again without privilege, so the server keeps its own).
    static func guardAgainstBrushes() {
        var limit = rlimit()
        guard getrlimit(rtTime, &limit) == 0 else { return }
        limit.rlim_max = min(limit.rlim_max, killMicroseconds)
        limit.rlim_cur = min(limit.rlim_cur, limit.rlim_max)
        _ = setrlimit(rtTime, &limit)
    }

    private static let rtTime = __rlimit_resource_t(__RLIMIT_RTTIME.rawValue)

    /// `RLIMIT_RTTIME` before the guard (unlimited unless a parent set it).
    private static let originalLimit: rlimit = {
        var limit = rlimit(rlim_cur: rlim_t.max, rlim_max: rlim_t.max)  // RLIM_INFINITY
        _ = getrlimit(rtTime, &limit)
        return limit
    }()

    /// Sets `RLIMIT_RTTIME`'s soft limit to ``burstMicroseconds`` and the `SIGXCPU` handler, once
    /// per process; false when that fails (then no thread is raised: real time without the guard
    /// is not an option).
    private static let guardInstalled: Bool = {
        var limit = originalLimit
        limit.rlim_cur = min(burstMicroseconds, limit.rlim_max)
        guard setrlimit(rtTime, &limit) == 0 else { return false }
        // glibc's signal(): SA_RESTART, and the handler stays after a delivery. SIG_ERR is -1.
        return unsafeBitCast(signal(SIGXCPU, leaveRealTime), to: Int.self) != -1
    }()
}

/// `SIGXCPU`'s handler: the thread that ran too long at real-time priority goes back to
/// ordinary scheduling (its nice value, -4, is kept). Async-signal-safe: one system call.
private func leaveRealTime(_ signal: Int32) {
    var parameter = sched_param(sched_priority: 0)
    _ = sched_setscheduler(0, SCHED_OTHER, &parameter)
}
