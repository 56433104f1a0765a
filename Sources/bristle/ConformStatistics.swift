import BristleConformance
import BristleHost
import Foundation

/// The per-hook table `bristle conform` adds to a conformant brush's report: the standard
/// sheet (``StandardSheet``) drawn through the plugin by `bristle render --stats --json` in a
/// child process (a brush is never run in the process that reports on it).
enum ConformStatistics {
    /// Fills `report.hookStatistics`, or `hookStatisticsError` when the render failed.
    static func measure(plugin: String, brush: String?, into report: inout ConformanceReport) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bristle-conform-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let script = dir.appendingPathComponent("sheet.json")
            let choice = StandardSheet.BrushChoice(idOrPath: Paths.absolute(plugin), id: brush)
            try Data(StandardSheet.script(brush: choice).utf8).write(to: script)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            process.arguments = ["render", script.path, "-o", dir.appendingPathComponent("sheet.png").path, "--stats", "--json"]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let first = String(decoding: stderr, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "exit \(process.terminationStatus)"
                report.hookStatisticsError = first
                return
            }
            report.hookStatistics = try JSONDecoder().decode(Measured.self, from: stdout).hooks
        } catch {
            report.hookStatisticsError = "cannot measure the hooks: \(error)"
        }
    }

    /// The part of `bristle render --stats --json` read back.
    private struct Measured: Decodable { var hooks: [HookStatistics.Row] }
}
