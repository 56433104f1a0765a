import Glibc

/// The scheduling priority of the server's own threads (the session's, the epoll thread) and
/// of its brush worker.
enum ThreadPriority {
    /// The nice value libdispatch gives its threads of user-interactive QoS on Linux, whatever
    /// the process's (the cooperative pool's threads, user-initiated, get -2).
    static let userInteractiveNice: Int32 = -4

    /// Gives the calling thread the priority of a user-interactive dispatch queue (what the
    /// session was before it had a thread): on a busy machine the thread that answers the page
    /// must not wait behind the tasks that feed it. Linux keeps the nice value per thread; without
    /// the right to lower it (not root, no `RLIMIT_NICE`) the thread keeps its own, as
    /// libdispatch's threads do.
    static func userInteractive() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, userInteractiveNice)  // 0: this thread
    }
}
