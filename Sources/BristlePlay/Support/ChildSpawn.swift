import Foundation
import Glibc

/// Starts the child processes of `bristle play` (brush workers, library probes): each in its
/// own process group (so it can be killed whole), with no blocked signals and every signal at
/// its default action (so a crash ends it even when a server thread blocks or ignores
/// signals), standard input from /dev/null, and no Swift backtracer (a crash is reported by
/// the server; symbolicating it would take seconds).
enum ChildSpawn {
    /// Held while pipes are created and a child is started, so that no child inherits another
    /// child's pipe ends before they are marked close-on-exec (a stray write end would hide a
    /// worker's death).
    static let lock = NSLock()

    /// Why a child could not be started.
    struct Failure: Error {
        var reason: String
    }

    /// Starts `command` with `redirect` (target descriptor, source descriptor) applied in
    /// order; returns its process id or why it could not start. Call it holding ``lock``.
    static func start(_ command: [String], redirect: [(target: Int32, source: Int32)]) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, source) in redirect { posix_spawn_file_actions_adddup2(&actions, source, target) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var e = environ
        while let entry = e.pointee {
            if strncmp(entry, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(entry)) }
            e += 1
        }
        environment.append(nil)
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, &attributes, argv, environment)
        guard status == 0 else {
            return .failure(Failure(reason: "\(command[0]): \(String(cString: strerror(status)))"))
        }
        return .success(pid)
    }

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
