import BristleHost
import Foundation

/// Asks a child process (`bristle inspect --json LIBRARY`) what a plugin library holds, so
/// that a library whose `init` or factory crashes or hangs cannot take the server down.
enum LibraryProbe {
    /// How long a library may take to load and list its brushes.
    static let timeout = 20.0

    /// The library's report, or why it cannot be used (the loader's own message).
    static func probe(_ library: String, bristle: String) -> Result<PluginReport, ProbeFailure> {
        let run = CommandRun([bristle, "inspect", "--json", library], timeout: timeout)
        switch run.ending {
        case .exited(0):
            guard let report = try? JSONDecoder().decode(PluginReport.self, from: Data(run.output)) else {
                return .failure(ProbeFailure(reason: "bristle inspect printed no report"))
            }
            return .success(report)
        case .exited(let status):
            return .failure(ProbeFailure(reason: message(run.errors) ?? "bristle inspect failed with status \(status)"))
        case .signaled(let signal):
            return .failure(ProbeFailure(reason: "it crashed while loading (\(WorkerFailure.signalName(signal)))"))
        case .timedOut:
            return .failure(ProbeFailure(reason: "it did not finish loading within \(Int(timeout)) s"))
        case .notStarted(let why):
            return .failure(ProbeFailure(reason: "cannot run bristle inspect: \(why)"))
        }
    }

    /// The CLI's `bristle: error: ...` and `bristle: hint: ...` lines as one sentence.
    private static func message(_ errors: [UInt8]) -> String? {
        let lines = String(decoding: errors, as: UTF8.self).split(separator: "\n").map(String.init)
        let error = lines.first { $0.hasPrefix("bristle: error: ") }.map { String($0.dropFirst(16)) }
        let hint = lines.first { $0.hasPrefix("bristle: hint: ") }.map { String($0.dropFirst(15)) }
        guard let error else { return lines.last }
        return hint.map { "\(error) (\($0))" } ?? error
    }
}

/// Why a library cannot be used.
struct ProbeFailure: Error, Equatable {
    var reason: String
}
