import ArgumentParser
import BristleHost
import Glibc

/// Prints a user-facing error (one line, then a hint) to stderr and returns the exit status:
/// never a stack trace for a user error.
enum Failure {
    static func report(_ message: String, hint: String?, status: Int32) -> ExitCode {
        StandardError.line("bristle: error: \(message)")
        if let hint { StandardError.line("bristle: hint: \(hint)") }
        return ExitCode(status)
    }

    static func report(_ error: RenderError) -> ExitCode {
        report(error.description, hint: error.hint, status: error.exitStatus)
    }
}
