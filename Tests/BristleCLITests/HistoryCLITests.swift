import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle render` with a session script: undo/redo/clear, `--history-budget`, and the
/// warnings printed when the history could not do all that was asked.
@Suite struct HistoryCLITests {
    static let session = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/session.json").path

    private func bristle(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    @Test func theSessionRendersLikeItsGoldenWithAndWithoutBackground() throws {
        let dir = TestEnvironment.scratchDirectory("cli-session")
        for (flags, golden) in [([String](), "sessions/multi-tool"), (["--transparent"], "sessions/multi-tool-transparent")] {
            let out = dir.appendingPathComponent("\(golden.split(separator: "/").last!).png").path
            let r = try bristle(["render", Self.session, "-o", out, "--verbose"] + flags)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("warning"), "\(r.stderr)")
            #expect(r.stderr.contains("history: undid 4 step(s), redid 2, dropped 0 for the budget"), "\(r.stderr)")
            #expect(try PNGCodec.read(path: out).pixels == PNGCodec.read(path: GoldenImage.path(golden)).pixels)
        }
    }

    @Test func aShortUndoAndAZeroBudgetWarnButSucceed() throws {
        let dir = TestEnvironment.scratchDirectory("cli-short")
        let input = dir.appendingPathComponent("short.json").path
        try """
            {"canvas": {"width": 64, "height": 64},
             "actions": [
              {"stroke": {"events": [{"x": 5, "y": 5}, {"x": 60, "y": 60}]}},
              {"undo": 2}]}
            """.write(toFile: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("short.png").path
        let r = try bristle(["render", input, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "bristle: \(input):4:3: warning: undo 2 did 1: the history held only 1 step(s) to undo\n")
        #expect(try PNGCodec.read(path: out).pixels.allSatisfy { $0 == 255 }, "the stroke was undone: white")

        let none = try bristle(["render", input, "-o", out, "--history-budget", "0"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stderr.contains("\(input):3:3: warning: the undo history reached its budget of 0 bytes"), "\(none.stderr)")
        #expect(none.stderr.contains("\(input):4:3: warning: undo 2 did 0"), "\(none.stderr)")
        #expect(try PNGCodec.read(path: out).pixels.contains { $0 != 255 }, "with no history the stroke stays")
    }

    @Test func aNegativeBudgetIsAUsageError() throws {
        let r = try bristle(["render", Self.session, "-o", "/tmp/never.png", "--history-budget=-1"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--history-budget must be a number of MiB"), "\(r.stderr)")
    }
}
