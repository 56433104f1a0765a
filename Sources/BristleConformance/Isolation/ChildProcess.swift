import BristleHost
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
            throw CheckFailure("cannot create temporary files in \(UnlinkedFile.directory) for a child process (set TMPDIR to a writable folder)")
        }
        hookFile = hook
        resultFile = result
        outputFile = output
        switch ChildLaunch.start(arguments, redirect: [(1, output.fd), (2, output.fd), (3, hook.fd), (4, result.fd)]) {
        case .success(let pid): self.pid = pid
        case .failure(let failure): throw CheckFailure(failure.reason)
        }
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
