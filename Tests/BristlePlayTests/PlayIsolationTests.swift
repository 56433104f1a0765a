import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// A brush that crashes, hangs, fails or writes out of bounds ends only its worker; a new
/// build of a watched library is used by the next stroke; a build that cannot load keeps the
/// old one. After each, recording.json still renders to canvas.png.
@Suite(.serialized) struct PlayIsolationTests {
    /// Builds Tests/Fixtures/play/playbrush.c with `defines` into `path`.
    static func build(_ path: String, _ defines: [String] = []) throws {
        try CCompiler.build(TestEnvironment.fixture("play/playbrush.c").path, output: path, defines: defines)
    }

    /// A `--brushes` folder holding playbrush built with `defines`, and its library path.
    static func brushFolder(_ defines: [String]) throws -> (folder: String, library: String) {
        let folder = TestEnvironment.scratchDirectory("play-brushes").path
        let library = folder + "/libplay.so"
        try build(library, defines)
        return (folder, library)
    }

    static let zigzag: [(Double, Double)] = [(20, 20), (60, 40), (100, 20), (140, 40), (180, 20), (220, 40)]

    /// Draws with the pencil, then with the broken brush, then with the pencil again; the
    /// broken stroke leaves no pixel and the status names the hook.
    func expectIsolated(_ defines: [String], status: String, arguments: [String] = []) throws {
        let brushes = try Self.brushFolder(defines)
        let server = try PlayProcess(["--brushes", brushes.folder, "--canvas", "256x160"] + arguments)
        let page = try server.page()
        try page.choose("org.bristle.pencil")
        try page.stroke([(10, 100), (120, 110)])
        let before = page.canvas
        let png = try server.get("/api/canvas.png").body

        try page.choose("test.play", color: "#ff0000")
        try page.stroke(Self.zigzag)
        let said = try page.waitForStatus(containing: status)
        #expect(said.hasPrefix("test.play: "), "\(said)")
        #expect(page.canvas == before, "the page shows the committed pixels again")
        #expect(try server.get("/api/canvas.png").body == png, "the committed canvas survived")

        try page.choose("org.bristle.pencil", color: "#00aa00")
        try page.stroke([(10, 140), (200, 130)])
        #expect(page.canvas != before, "the next stroke draws, in a fresh worker")
        try PlayServerTests.expectReplayMatches(server, page)
        #expect(server.stderr.contains(status), "the terminal says so too")
    }

    @Test func aCrashInMovedEndsOnlyTheWorker() throws {
        try expectIsolated(["-DCRASH_IN_MOVED=3"], status: "the brush crashed in moved (SIGSEGV")
    }

    @Test func aWriteFarPastTheLayerEndsOnlyTheWorker() throws {
        try expectIsolated(["-DWRITE_PAST_LAYER"], status: "the brush crashed in draw (SIGSEGV")
    }

    @Test func aHangIsCutShort() throws {
        try expectIsolated(["-DHANG_IN_MOVED"], status: "the brush hung in moved: no answer within 1 s", arguments: ["--hook-timeout", "1"])
    }

    @Test func aFailingHookCancelsTheStroke() throws {
        try expectIsolated(["-DFAIL_IN_MOVED=2"], status: "moved")
    }

    @Test func theCrashedStrokeIsRecordedAsCancelledWithTheEventsBeforeTheCrash() throws {
        let brushes = try Self.brushFolder(["-DCRASH_IN_MOVED=3"])
        let server = try PlayProcess(["--brushes", brushes.folder])
        let page = try server.page()
        try page.choose("test.play")
        try page.stroke(Self.zigzag)
        _ = try page.waitForStatus(containing: "crashed in moved")
        let recording = try StrokeScriptReader.parse(try server.get("/api/recording.json").text, sourcePath: "r.json")
        let strokes = recording.actions.compactMap { action -> StrokeSpec? in
            if case .stroke(let s) = action.kind { return s } else { return nil }
        }
        // down, move 1, move 2 were played; move 3 crashed.
        #expect(strokes.count == 1 && strokes[0].cancelled && strokes[0].events.count == 3)
        try PlayServerTests.expectReplayMatches(server, page)
    }

    @Test func aNewBuildIsUsedByTheNextStrokeAndABrokenOneKeepsTheOld() throws {
        let brushes = try Self.brushFolder(["-DINK=0x0000ff"])
        let server = try PlayProcess(["--brushes", brushes.folder, "--canvas", "200x120"])
        let page = try server.page()
        #expect(page.brushes.first?["id"] as? String == "test.play", "the watched brush comes first")
        try page.choose("test.play")
        try page.stroke([(20, 30), (180, 30)])
        #expect(Array(page.canvas[(30 * 200 + 100) * 4..<(30 * 200 + 100) * 4 + 3]) == [0, 0, 255])

        // A build writes the library in place.
        let started = Date()
        try Self.build(brushes.library, ["-DINK=0xff0000"])
        _ = try page.waitForStatus(containing: "reloaded libplay.so (test.play)")
        let seconds = Date().timeIntervalSince(started)
        try page.stroke([(20, 80), (180, 80)])
        #expect(Array(page.canvas[(80 * 200 + 100) * 4..<(80 * 200 + 100) * 4 + 3]) == [255, 0, 0], "the new build drew")
        #expect(Array(page.canvas[(30 * 200 + 100) * 4..<(30 * 200 + 100) * 4 + 3]) == [0, 0, 255], "the old stroke stays")
        print("hot reload: the new build was in use \(String(format: "%.2f", seconds)) s after cc started")

        // Not a library: it cannot load, and the red build stays in use.
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: brushes.library))
        _ = try page.waitForStatus(containing: "libplay.so cannot be loaded")
        // A library whose init crashes: the probe says so, the server carries on.
        try Self.build(brushes.library, ["-DCRASH_IN_INIT"])
        #expect(try page.waitForStatus(containing: "crashed while loading").contains("previous version stays in use"))
        try page.stroke([(20, 100), (180, 100)])
        #expect(Array(page.canvas[(100 * 200 + 100) * 4..<(100 * 200 + 100) * 4 + 3]) == [255, 0, 0])

        let recording = try server.get("/api/recording.json").text
        let copies = Set(recording.matches(of: /"path": "([^"]+)"/).map { String($0.1) })
        #expect(copies.count == 2, "each stroke names the copy it was drawn with: \(copies)")
        #expect(copies.allSatisfy { FileManager.default.fileExists(atPath: $0) && $0 != brushes.library })
        try PlayServerTests.expectReplayMatches(server, page)
    }
}

/// What a `bristle new` project's README promises: `bristle play --brushes .` in the project
/// offers its brush and draws with it.
@Suite struct PlayScaffoldTests {
    @Test func aNewCProjectPlaysFromItsFolder() throws {
        let dir = TestEnvironment.scratchDirectory("play-new")
        let made = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["new", "my-brush", "--lang", "c", "--dir", dir.path + "/my-brush"])
        #expect(made.status == 0, "\(made.stderr)")
        let project = dir.appendingPathComponent("my-brush")
        let readme = try String(contentsOf: project.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```sh\nbristle play --brushes .\n```"))
        let include = TestEnvironment.packageRoot.appendingPathComponent("include").path
        let build = try ProcessResult.run("/usr/bin/env", ["make", "BRISTLE_INCLUDE=\(include)"], currentDirectory: project)
        #expect(build.status == 0, "\(build.stderr)")
        let server = try PlayProcess(["--brushes", project.path])
        let page = try server.page()
        #expect(page.brushes.first?["id"] as? String == "org.example.my-brush")
        try page.choose("org.example.my-brush")
        try page.stroke([(100, 100), (300, 200), (500, 120)])
        #expect(PlayServerTests.inked(page) > 500)
        try PlayServerTests.expectReplayMatches(server, page)
    }
}
