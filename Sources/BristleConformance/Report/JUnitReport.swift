/// The report as JUnit XML for CI: one `<testsuite>` per brush (and one for the library),
/// `<failure>` for fail, `<error>` for crash and timeout, `<skipped>` for skip, and warnings
/// in `<system-out>`.
public enum JUnitReport {
    public static func render(_ report: ConformanceReport) -> String {
        var groups: [(String, [TestResult])] = []
        for r in report.results {
            let name = r.brush ?? "library"
            if let i = groups.firstIndex(where: { $0.0 == name }) { groups[i].1.append(r) } else { groups.append((name, [r])) }
        }
        let c = report.counts
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"bristle conform \(escape(report.plugin))\" tests=\"\(report.results.count)\" "
            + "failures=\"\(c[.fail] ?? 0)\" errors=\"\((c[.crash] ?? 0) + (c[.timeout] ?? 0))\" "
            + "skipped=\"\(c[.skip] ?? 0)\" time=\"\(format(report.seconds))\">\n"
        for (name, results) in groups {
            let failures = results.filter { $0.verdict == .fail }.count
            let errors = results.filter { $0.verdict == .crash || $0.verdict == .timeout }.count
            let skipped = results.filter { $0.verdict == .skip }.count
            xml += "  <testsuite name=\"\(escape(name))\" tests=\"\(results.count)\" failures=\"\(failures)\" "
                + "errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(format(results.reduce(0) { $0 + $1.seconds }))\">\n"
            xml += "    <properties><property name=\"seed\" value=\"\(report.seed)\"/>"
                + "<property name=\"tier\" value=\"\(report.tier.rawValue)\"/></properties>\n"
            for r in results {
                xml += "    <testcase classname=\"\(escape(name))\" name=\"\(escape(r.test))\" time=\"\(format(r.seconds))\""
                let detail = escape(r.message + (r.hook.map { "\nlast plugin call: \($0.description)" } ?? "")
                                    + "\nreproduce: \(r.reproduce)")
                switch r.verdict {
                case .pass: xml += "/>\n"
                case .skip: xml += ">\n      <skipped message=\"\(escape(r.message))\"/>\n    </testcase>\n"
                case .warn: xml += ">\n      <system-out>warning: \(escape(r.message))</system-out>\n    </testcase>\n"
                case .fail: xml += ">\n      <failure type=\"fail\" message=\"\(escape(r.message))\">\(detail)</failure>\n    </testcase>\n"
                case .crash, .timeout:
                    xml += ">\n      <error type=\"\(r.verdict.rawValue)\" message=\"\(escape(r.message))\">\(detail)</error>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func format(_ seconds: Double) -> String { String((seconds * 1000).rounded() / 1000) }

    /// Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case "\u{FFFE}", "\u{FFFF}": continue
            default: if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
