import BristleConformance
import Foundation
import FoundationXML
import Testing

/// JUnit XML stays well formed whatever text a plugin puts into a verdict: XML 1.0 cannot
/// carry control characters or U+FFFE and U+FFFF, so they are left out.
@Suite struct JUnitReportTests {
    @Test func textXMLCannotCarryIsLeftOutAndTheReportParses() throws {
        let hostile = "id 'a\u{FFFF}b\u{FFFE}c\u{1}d' <&>\"'"
        let result = TestResult(test: "library.load", brush: nil, tier: .basic, verdict: .fail, message: hostile,
                                hook: HookRecord(call: "load \(hostile)", inFlight: false), seed: 1, seconds: 0.01,
                                reproduce: "bristle conform x.so")
        let report = ConformanceReport(plugin: "lib\u{FFFF}.so", tier: .basic, seed: 1, isolation: "child-process",
                                       results: [result], seconds: 0.01)
        let xml = JUnitReport.render(report)
        #expect(!xml.unicodeScalars.contains { $0.value == 0xFFFF || $0.value == 0xFFFE || $0.value == 1 })
        #expect(xml.contains("id &apos;abcd&apos; &lt;&amp;&gt;&quot;&apos;"))
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }
}
