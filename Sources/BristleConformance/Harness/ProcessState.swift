import Glibc

/// The process-wide state a brush shares with its host and must leave as it found it: the
/// working directory, the umask, the calling thread's signal mask, every signal's action, the
/// locale, the environment and the floating-point mode. ``changes(since:)`` names what differs.
struct ProcessState: Equatable {
    var directory: String
    var umask: mode_t
    var signalMask: UInt
    /// Every catchable signal's handler, flags and mask.
    var actions: [Int32: [Int]]
    var locale: String
    var threadLocale: Int
    var environment: [String]
    /// The rounding mode and the control registers (x86-64: the x87 control word and MXCSR
    /// without its sticky status flags, so traps and flush-to-zero too; arm64: FPCR).
    var floatingPoint: [Int]

    static func capture() -> ProcessState {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let directory = getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? "(unknown)"
        let mask = Glibc.umask(0)
        Glibc.umask(mask)
        var set = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &set)
        var actions: [Int32: [Int]] = [:]
        for signal in 1..<Int32(65) where signal != SIGKILL && signal != SIGSTOP {
            var action = sigaction()
            guard sigaction(signal, nil, &action) == 0 else { continue }
            // Field by field, and only the mask bits of signals 1...64: glibc fills the rest of
            // sa_mask with whatever its stack held.
            actions[signal] = [unsafeBitCast(action.__sigaction_handler, to: Int.self), Int(action.sa_flags),
                               Int(bitPattern: UInt(action.sa_mask.__val.0))]
        }
        var environment: [String] = []
        var e = environ
        while let entry = e.pointee {
            environment.append(String(cString: entry))
            e += 1
        }
        return ProcessState(directory: directory, umask: mask, signalMask: set.__val.0, actions: actions,
                            locale: setlocale(LC_ALL, nil).map { String(cString: $0) } ?? "(none)",
                            threadLocale: Int(bitPattern: uselocale(nil)), environment: environment.sorted(),
                            floatingPoint: floatingPointMode())
    }

    /// One sentence per difference from `baseline`; empty when nothing changed.
    func changes(since baseline: ProcessState) -> [String] {
        var out: [String] = []
        if directory != baseline.directory {
            out.append("changed the working directory from \(baseline.directory) to \(directory) (chdir)")
        }
        if umask != baseline.umask {
            out.append("changed the umask from 0\(String(baseline.umask, radix: 8)) to 0\(String(umask, radix: 8))")
        }
        if signalMask != baseline.signalMask { out.append("changed the calling thread's signal mask (sigprocmask)") }
        let signals = actions.keys.filter { actions[$0] != baseline.actions[$0] }.sorted()
        if !signals.isEmpty {
            out.append("changed the action of signal(s) \(signals.map(Self.signalName).joined(separator: ", ")) (signal/sigaction)")
        }
        if locale != baseline.locale || threadLocale != baseline.threadLocale {
            out.append("changed the locale from \"\(baseline.locale)\" to \"\(locale)\" (setlocale/uselocale)")
        }
        if environment != baseline.environment {
            let added = Set(environment).subtracting(baseline.environment).sorted()
            let removed = Set(baseline.environment).subtracting(environment).sorted()
            out.append("changed the environment (setenv/putenv/unsetenv): "
                       + (added.map { "+\($0)" } + removed.map { "-\($0)" }).prefix(4).joined(separator: ", "))
        }
        if floatingPoint != baseline.floatingPoint {
            out.append("changed the floating-point mode (rounding, traps, flush-to-zero: fesetround/fesetenv/MXCSR) "
                       + "from \(baseline.floatingPoint.map { "0x" + String($0, radix: 16) }) to \(floatingPoint.map { "0x" + String($0, radix: 16) })")
        }
        return out
    }

    private static func floatingPointMode() -> [Int] {
        var env = fenv_t()
        fegetenv(&env)
        #if arch(x86_64)
        return [Int(fegetround()), Int(env.__control_word), Int(env.__mxcsr & ~0x3F)]
        #elseif arch(arm64)
        return [Int(fegetround()), Int(env.__fpcr)]
        #else
        return [Int(fegetround())]
        #endif
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
                                      SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                      SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE",
                                      SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGCHLD: "SIGCHLD", SIGCONT: "SIGCONT",
                                      SIGTSTP: "SIGTSTP", SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGURG: "SIGURG",
                                      SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGVTALRM: "SIGVTALRM", SIGPROF: "SIGPROF",
                                      SIGWINCH: "SIGWINCH", SIGIO: "SIGIO", SIGSYS: "SIGSYS"]
        return names[signal] ?? "\(signal)"
    }
}
