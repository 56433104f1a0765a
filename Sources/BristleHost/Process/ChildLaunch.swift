import CBristleProcess
import Glibc

/// Starts the helper processes that run plugins apart from the host (`bristle conform`'s test
/// children, `bristle play`'s brush worker and library probes), and lets them end with their
/// parent.
public enum ChildLaunch {
    /// Why a child could not be started.
    public struct Failure: Error, Sendable {
        public var reason: String
    }

    /// Starts `arguments[0]` with `arguments`, applying `redirect` (target descriptor, source
    /// descriptor) in order after standard input is opened on /dev/null; every other descriptor
    /// (above the highest target, or 2) is closed in the child, close-on-exec or not, so it
    /// holds no file another thread of the host had open at that moment. The child gets its own
    /// process group (so it can be killed whole), no blocked signals and every signal at its
    /// default action (a parent thread that blocks or ignores SIGXFSZ, SIGPIPE... must not pass
    /// that on, or they would not stop a plugin), and no Swift backtracer (a crash there is
    /// expected and reported by the parent; symbolicating it would take seconds).
    public static func start(_ arguments: [String], redirect: [(target: Int32, source: Int32)]) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, source) in redirect { posix_spawn_file_actions_adddup2(&actions, source, target) }
        let closeFrom = max(2, redirect.map(\.target).max() ?? 2) + 1
        let closing = CBristleProcess_close_from(&actions, closeFrom)
        if closing != 0 {
            return .failure(Failure(reason: "cannot prepare the start of \(arguments[0]): \(String(cString: strerror(closing)))"))
        }
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
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
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
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environment)
        guard status == 0 else {
            return .failure(Failure(reason: "cannot start \(arguments[0]): \(String(cString: strerror(status)))"))
        }
        return .success(pid)
    }

    /// In a child: starts a thread that kills the child's process group (itself and anything a
    /// plugin started in it) once the parent is gone. The parent holds the deadlines, so a brush
    /// hung in a hook would otherwise spin on as an orphan after the parent was interrupted.
    public static func endWithParent() {
        let parent = UnsafeMutableRawPointer(bitPattern: Int(getppid()))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { parent in
            while getppid() == pid_t(Int(bitPattern: parent)) { usleep(100_000) }
            kill(0, SIGKILL)
            return nil
        }, parent)
        if started == 0 { pthread_detach(thread) }
    }
}
