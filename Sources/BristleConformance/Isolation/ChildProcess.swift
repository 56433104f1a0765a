import BristleHost
import Glibc

/// One test's child process: the harness executable started with `posix_spawn` in its own
/// process group, with fd 3 = the hook record file, fd 4 = the result file, stdout and stderr
/// into a scratch file and stdin from /dev/null. The parent polls it with `waitpid(WNOHANG)`
/// and kills the whole group when its deadline passes.
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

    /// Starts `arguments[0]` with `arguments`; throws a sentence when it cannot start.
    init(arguments: [String], timeout: Double) throws(CheckFailure) {
        guard let hook = ScratchFile(), let result = ScratchFile(), let output = ScratchFile() else {
            throw CheckFailure("cannot create temporary files in \(ScratchFile.directory) for a child process (set TMPDIR to a writable folder)")
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
        guard exited || Clock.seconds() >= deadline else { return nil }
        kill(-pid, SIGKILL) // the child (when overdue) and anything the plugin left in its group
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        guard exited else { return .timedOut }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }
}
