import BristleHost
import Glibc

/// How a brush worker was lost, and in which hook: what `#bristle-status` tells the user.
struct WorkerFailure: Error, Equatable, CustomStringConvertible {
    enum Ending: Equatable {
        /// Killed by a signal (a crash: SIGSEGV, SIGABRT, SIGBUS...).
        case signaled(Int32)
        /// Exited on its own (a brush called exit).
        case exited(Int32)
        /// Did not answer within the time limit, and was killed.
        case hung(seconds: Double)
        /// Answered with something that is not a reply.
        case garbled
        /// Could not be started.
        case notStarted(String)
    }

    var ending: Ending
    /// The plugin call it was in, from the ``HookTrace``.
    var hook: BrushHook?

    var description: String {
        let place = hook.map { " in \($0.name)" } ?? ""
        switch ending {
        case .signaled(let signal):
            return "the brush crashed\(place) (\(Self.signalName(signal)))"
        case .exited(let status):
            return "the brush ended its process\(place) (exit status \(status))"
        case .hung(let seconds):
            return "the brush hung\(place): no answer within \(JSONText.number(seconds)) s"
        case .garbled:
            return "the brush worker sent a garbled reply\(place) (did the brush write to fd 4?)"
        case .notStarted(let reason):
            return "cannot start a brush worker: \(reason)"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV, a bad memory access"
        case SIGBUS: return "SIGBUS, a bad memory access"
        case SIGABRT: return "SIGABRT, abort()"
        case SIGFPE: return "SIGFPE, an arithmetic error"
        case SIGILL: return "SIGILL, an illegal instruction (a Swift trap?)"
        case SIGTRAP: return "SIGTRAP, a trap (a Swift runtime error?)"
        case SIGKILL: return "SIGKILL"
        case SIGXFSZ: return "SIGXFSZ, output too large"
        default: return "signal \(signal)"
        }
    }
}
