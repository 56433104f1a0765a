import Foundation
import Glibc

/// Starts the child processes of `bristle play` (brush workers, library probes) with
/// ``BristleHost/ChildLaunch``, and makes their pipes.
enum ChildSpawn {
    /// Held while pipes are created and a child is started, so that no child inherits another
    /// child's pipe ends before they are marked close-on-exec (a stray write end would hide a
    /// worker's death).
    static let lock = NSLock()

    /// A pipe whose both ends are close-on-exec; call it holding ``lock``.
    static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Reaps a child (waiting for it) after killing what is left of its group; returns the
    /// wait status.
    @discardableResult
    static func reap(_ pid: pid_t, killFirst: Bool) -> Int32 {
        if killFirst { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        kill(-pid, SIGKILL)
        return status
    }
}
