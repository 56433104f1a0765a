import BristleTestSupport
import Foundation
import Testing

/// `bristle conform` as a user runs it: exit statuses 0/1/2, the summary line, a reproduce
/// command, JSON, JUnit written to a file, and the test listing.
@Suite struct ConformCLITests {
    static func conform(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["conform"] + arguments)
    }

    @Test func aConformantBrushExitsZeroWithASummary() throws {
        let r = try Self.conform([TestEnvironment.plugin("BristleForceHue"), "--tier", "basic", "--seed", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("PASS    library.load"))
        // The summary line, then (a conformant run of every test) the per-hook table of the
        // standard sheet (CONFORMANCE.md, JSON report).
        let lines = r.stdout.split(separator: "\n")
        let summary = try #require(lines.firstIndex { $0.hasPrefix("CONFORMANT at tier basic") }, "\(r.stdout)")
        #expect(lines.dropFirst(summary + 1).first?.hasPrefix("per hook, the standard sheet") == true, "\(r.stdout)")
    }

    @Test func aFileWithoutEntryExitsOneAndAMissingFileTwo() throws {
        let noEntry = try CCompiler.buildFixture("broken", defines: ["-DNO_ENTRY"])
        let r = try Self.conform([noEntry, "--tier", "basic", "--seed", "1"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL    library.entry-present"))
        #expect(r.stdout.contains("reproduce: bristle conform"))
        #expect(try Self.conform(["/nonexistent/libnothing.so"]).status == 2)
        #expect(try Self.conform([noEntry, "--tier", "extreme"]).status == 2)
        #expect(try Self.conform([noEntry, "--no-such-flag"]).status == 2)
        #expect(try Self.conform([noEntry, "--seed", "1", "--reproduce", "2"]).status == 2)
    }

    @Test func jsonAndJUnitCarryEveryResult() throws {
        let dir = TestEnvironment.scratchDirectory("conform-junit")
        let junit = dir.appendingPathComponent("report.xml").path
        let r = try Self.conform([TestEnvironment.plugin("BristlePencil"), "--tier", "basic", "--json", "--junit", junit,
                                  "--seed", "5", "--include", "^descriptor\\."])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["schema"] as? String == "bristle-conform/1")
        #expect(json["seed"] as? Int == 5)
        let results = try #require(json["results"] as? [[String: Any]])
        // library.load runs first but is reported only when selected or failing: 4 descriptor
        // tests for each of the pencil library's 2 brushes.
        #expect(results.count == 8)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"org.bristle.eraser\" tests=\"4\" failures=\"0\""))
    }

    @Test func listTestsNamesEveryTestWithItsTier() throws {
        let r = try Self.conform(["--list-tests", "--json"])
        #expect(r.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(list.count >= 40)
        #expect(list.contains { $0["id"] as? String == "canvas.guard-pages" && $0["tier"] as? String == "standard" })
    }

    /// A brush that calls rand() (unseeded) yet sets DETERMINISTIC: the tests that compare two
    /// runs to judge something else (cancel, predictions, batching) name the nondeterminism as
    /// the cause instead of blaming what they vary.
    @Test func anUnseededRandBrushIsReportedAsNondeterministicNotAsACancelFailure() throws {
        let zoo = try ZooTests.zoo("NONDETERMINISTIC")
        let r = try Self.conform([zoo, "--tier", "strict", "--seed", "4", "--include",
                                  "^(lifecycle\\.cancel-forgets|semantics\\.predicted-never-committed|determinism\\.batching)$"])
        #expect(r.status == 1, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("FAIL") }.count == 3, "\(r.stdout)")
        for (test, blamed) in [("lifecycle.cancel-forgets", "`cancelled`"), ("semantics.predicted-never-committed", "predicted samples"),
                               ("determinism.batching", "batching")] {
            // The message is the line under the verdict.
            let at = try #require(lines.firstIndex { $0.hasPrefix("FAIL    \(test) ") }, "\(r.stdout)")
            let line = lines[at + 1]
            #expect(line.hasPrefix("        the brush is nondeterministic though it sets DETERMINISTIC: the same strokes with the "
                                  + "same seed, drawn on two fresh instances, differ first at ("), "\(line)")
            #expect(line.contains("; so this test cannot blame \(blamed). Look for unseeded randomness (rand(), random())"), "\(line)")
            #expect(!line.contains("must drop all stroke state"), "\(line)")
        }
    }
}
