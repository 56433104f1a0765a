import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle render` with the formats of issue 14: Quick, Draw! (`--drawing`, `--out-dir`),
/// SVC, and the warnings of the InkML importer.
@Suite struct InkFormatsCLITests {
    private func bristle(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    private static let drawings = """
        {"word":"cat","drawing":[[[10,60,110],[50,0,50]],[[40,80],[40,60]]]}
        {"word":"cat","drawing":[[[0,100,200],[0,80,0],[0,50,120]]]}
        {"word":"cat","drawing":[[[0,255],[0,255]]]}

        """

    @Test func quickDrawRendersOneDrawingWithOAndEveryDrawingWithOutDir() throws {
        let dir = TestEnvironment.scratchDirectory("qd-cli")
        let input = dir.appendingPathComponent("cats.ndjson")
        try Self.drawings.write(to: input, atomically: true, encoding: .utf8)
        let first = dir.appendingPathComponent("first.png").path, second = dir.appendingPathComponent("second.png").path
        let r0 = try bristle(["render", input.path, "-o", first, "--size", "128x128", "--verbose"])
        #expect(r0.status == 0 && r0.stderr.contains("as Google Quick, Draw! ndjson"), "\(r0.stderr)")
        #expect(try bristle(["render", input.path, "-o", second, "--size", "128x128", "--drawing", "1"]).status == 0)
        #expect(try PNGCodec.read(path: first).pixels != PNGCodec.read(path: second).pixels, "--drawing 1 is another drawing")
        let missing = try bristle(["render", input.path, "-o", second, "--drawing", "3"])
        #expect(missing.status == 65 && missing.stderr.contains("found only 3 drawing(s)"), "\(missing.stderr)")
        #expect(try bristle(["render", input.path, "-o", second, "--drawing", "-1"]).status == 64)

        let out = TestEnvironment.scratchDirectory("qd-cli-out")
        let all = try bristle(["render", input.path, "--out-dir", out.path, "--size", "128x128", "--verbose"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stderr.contains("3 of 3 rendered"), "\(all.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["cats-0.png", "cats-1.png", "cats-2.png"])
        #expect(try PNGCodec.read(path: out.appendingPathComponent("cats-1.png").path).pixels == PNGCodec.read(path: second).pixels,
                "a batch drawing equals the single render")
    }

    @Test func aBadDrawingFailsAloneInABatch() throws {
        let dir = TestEnvironment.scratchDirectory("qd-bad")
        let input = dir.appendingPathComponent("mixed.ndjson")
        try (Self.drawings + "{\"drawing\":[[[1,2],[3]]]}\n").write(to: input, atomically: true, encoding: .utf8)
        let out = TestEnvironment.scratchDirectory("qd-bad-out")
        let r = try bristle(["render", input.path, "--out-dir", out.path, "--size", "64x64"])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("3 of 4 rendered") && r.stderr.contains("mixed.ndjson:4:"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == 3)
    }

    @Test func unitWarningsAndConstantChannelNotesReachStderr() throws {
        let dir = TestEnvironment.scratchDirectory("units-cli")
        let input = dir.appendingPathComponent("tilt.inkml")
        try """
            <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="OTx" units="furlong"/><channel name="F" max="1"/></traceFormat>
            <trace>0 0 5 1, 50 10 6 1, 100 0 7 1</trace></ink>
            """.write(to: input, atomically: true, encoding: .utf8)
        let r = try bristle(["render", input.path, "-o", dir.appendingPathComponent("t.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("tilt.inkml:1:") && r.stderr.contains(": warning: channel OTx is ignored"), "\(r.stderr)")
        #expect(r.stderr.contains("note: pressure is 1 in every sample"), "\(r.stderr)")
    }

    /// Real captures (Tests/Fixtures/ink, see NOTICE.md there) rendered by the CLI with the
    /// default pencil, compared pixel by pixel with Tests/Golden/ink/ (regenerate with
    /// BRISTLE_UPDATE_GOLDEN=1 swift test --filter InkFormatsCLITests, and look at them).
    @Test(arguments: [("quickdraw-simplified.ndjson", ["--drawing", "3"], "ink/quickdraw-bee"),
                      ("bdalab-jack.svc", [], "ink/bdalab-jack-svc")])
    func realCapturesRenderTheirGoldens(_ fixture: String, _ extra: [String], _ golden: String) throws {
        let out = TestEnvironment.scratchDirectory("ink-golden").appendingPathComponent("\(fixture).png").path
        let r = try bristle(["render", TestEnvironment.fixture("ink/" + fixture).path, "-o", out, "--size", "320x240"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGCodec.read(path: out)
        let mismatch = try GoldenImage.compare(image.pixels, width: image.width, height: image.height, name: golden)
        #expect(mismatch == nil, "\(mismatch.map { "\($0)" } ?? "")")
    }
}
