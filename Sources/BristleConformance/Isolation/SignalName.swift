import Glibc

/// Names a signal for verdicts: `SIGSEGV (segmentation fault: an invalid memory access, such
/// as a write into a guard page)`.
enum SignalName {
    /// "SIGSEGV", or "signal 40".
    static func short(_ signal: Int32) -> String {
        let name = describe(signal)
        return name.hasPrefix("SIG") ? String(name.prefix { $0 != " " }) : name
    }

    static func describe(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV (segmentation fault: an invalid memory access, e.g. a write into a guard page)"
        case SIGBUS: "SIGBUS (bus error: a misaligned or unmapped access)"
        case SIGABRT: "SIGABRT (abort(), a failed assert or a Swift trap)"
        case SIGILL: "SIGILL (illegal instruction: often a Swift or __builtin_trap)"
        case SIGTRAP: "SIGTRAP (a trap or breakpoint)"
        case SIGFPE: "SIGFPE (arithmetic exception, e.g. integer division by zero)"
        case SIGKILL: "SIGKILL (killed from outside, e.g. by the kernel when memory ran out)"
        case SIGXFSZ: "SIGXFSZ (file size limit: the plugin wrote more than 64 MiB of output)"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
