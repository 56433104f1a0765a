import Glibc

/// One test's child process: the harness executable started with `posix_spawn` in its own
/// process group, with fd 3 = the hook record file, fd 4 = the result file, stdout and stderr
/// into a scratch file and stdin from /dev/null. The parent polls it with `waitpid(WNOHANG)`
/// and kills the whole group when its deadline passes.
///
/// The deadline is the timeout in the child's own time: the time its main thread spent
/// runnable but waiting for a CPU (`/proc/PID/schedstat`, a machine loaded by other work) is
/// added to it, up to ``maximumStretch`` times the timeout, so a verdict does not depend on
/// how busy the machine was. A brush spinning or blocked in a hook still times out.
final class ChildProcess {
    /// How a child ended.
    enum Ending {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
    }

    let pid: pid_t
    let hookFile: ScratchFile
    let resultFile: ScratchFile
    let outputFile: ScratchFile
    let started: Double
    let deadline: Double
    private let timeout: Double

    /// At most this many timeouts of waiting for a CPU are forgiven on top of the timeout.
    static let maximumStretch = 9.0

    /// Starts `arguments[0]` with `arguments`; throws a sentence when it cannot start.
    init(arguments: [String], timeout: Double) throws(CheckFailure) {
        guard let hook = ScratchFile(), let result = ScratchFile(), let output = ScratchFile() else {
            throw CheckFailure("cannot create temporary files in \(ScratchFile.directory) for a child process (set TMPDIR to a writable folder)")
        }
        hookFile = hook
        resultFile = result
        outputFile = output
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.fd, 1)
        posix_spawn_file_actions_adddup2(&actions, output.fd, 2)
        posix_spawn_file_actions_adddup2(&actions, hook.fd, 3)
        posix_spawn_file_actions_adddup2(&actions, result.fd, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, no blocked signals and every signal at its default action: a
        // harness running on a thread that blocks or ignores signals (a test runner, an app)
        // must not pass that on, or SIGXFSZ, SIGPIPE and friends would not stop a plugin.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // No Swift crash backtracer in children: a crash is expected here and is reported by
        // the parent; symbolicating it would cost seconds per crashing test.
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var e = environ
        while let entry = e.pointee {
            if strncmp(entry, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(entry)) }
            e += 1
        }
        environment.append(nil)
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environment)
        guard status == 0 else {
            throw CheckFailure("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        started = Clock.seconds()
        deadline = started + timeout
        self.timeout = timeout
    }

    /// Kills the child's group and reaps it (the harness gives up on this test).
    func terminate() {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// The ending if the child is done (or overdue, after killing its group); nil while it runs.
    /// The group is killed while the child is still an unreaped zombie, so its id cannot have
    /// been reused by an unrelated process.
    func poll() -> Ending? {
        var info = siginfo_t()
        let exited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0
            && info._sifields._sigchld.si_pid == pid
        guard exited || overdue() else { return nil }
        kill(-pid, SIGKILL) // the child (when overdue) and anything the plugin left in its group
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        guard exited else { return .timedOut }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    /// True once the child has had `timeout` seconds of its own (wall time minus its wait for
    /// a CPU).
    private func overdue() -> Bool {
        let now = Clock.seconds()
        guard now >= deadline else { return false }
        return now >= deadline + min(waitedForCPU(), timeout * Self.maximumStretch)
    }

    /// Seconds the child's main thread has spent runnable but not running (the second field
    /// of /proc/PID/schedstat, in nanoseconds); 0 when the kernel does not say.
    private func waitedForCPU() -> Double {
        let fd = open("/proc/\(pid)/schedstat", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let fields = String(decoding: bytes.prefix(max(0, n)), as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let waiting = UInt64(fields[1]) else { return 0 }
        return Double(waiting) / 1e9
    }
}
