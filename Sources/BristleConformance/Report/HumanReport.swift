import Foundation

/// The text report: one line per result (verdict, test, brush, time), the details and a
/// reproduce command under every non-passing line, then the summary line.
public enum HumanReport {
    /// The line (and details) for one result.
    public static func lines(for r: TestResult) -> String {
        let label = r.verdict.rawValue.uppercased().padding(toLength: 7, withPad: " ", startingAt: 0)
        let subject = r.brush.map { "\(r.test) [\($0)]" } ?? r.test
        let ms = Int((r.seconds * 1000).rounded())
        var text = "\(label) \(subject) (\(ms) ms)"
        if r.verdict == .pass || r.verdict == .skip || r.verdict == .warn {
            if !r.message.isEmpty { text += ": \(r.message)" }
            return text + "\n"
        }
        text += "\n        \(r.message)\n"
        if let hook = r.hook, !r.message.contains(hook.call) { text += "        last plugin call: \(hook.description)\n" }
        text += "        reproduce: \(r.reproduce)\n"
        return text
    }

    /// The whole report.
    public static func render(_ report: ConformanceReport) -> String {
        report.results.map(lines(for:)).joined() + report.summaryLine + "\n"
    }
}
