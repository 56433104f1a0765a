import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// End to end: the built `bristle` executable, its exit statuses (sysexits), its one-line
/// errors with hints, and its promise never to leave a partial or clobbered output file.
@Suite struct CLITests {
    static let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path

    /// Runs bristle with plugins found only beside the executable (BRISTLE_PATH unset, HOME
    /// pointed at an empty folder), so the user's machine cannot change the results.
    private func bristle(_ args: [String], environment: [String: String?] = [:]) throws -> ProcessResult {
        var env: [String: String?] = ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path]
        for (k, v) in environment { env[k] = v }
        return try ProcessResult.run(TestEnvironment.bristleExecutable.path, args, environment: env)
    }

    private func expectCleanError(_ r: ProcessResult, status: Int32, mentioning text: String,
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "exit \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("bristle: error: ") || r.stderr.hasPrefix("Error: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(text), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"), sourceLocation: sourceLocation)
    }

    @Test func rendersTheExampleLikeTheLibraryDoes() throws {
        let out = TestEnvironment.scratchDirectory("cli").appendingPathComponent("hello.png").path
        let r = try bristle(["render", Self.hello, "-o", out, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("rendered 2 stroke(s), 1 cancelled"))
        let image = try PNGCodec.read(path: out)
        let golden = try PNGCodec.read(path: GoldenImage.path("pencil/hello"))
        #expect(image.width == 320 && image.height == 200)
        #expect(image.pixels == golden.pixels)
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o044 == 0o044 } == true, "the PNG is readable by others like any new file")
    }

    @Test func flagsOverrideTheFile() throws {
        let dir = TestEnvironment.scratchDirectory("override")
        let sizeOnly = dir.appendingPathComponent("a.png").path, all = dir.appendingPathComponent("b.png").path
        let thin = dir.appendingPathComponent("c.png").path
        #expect(try bristle(["render", Self.hello, "-o", sizeOnly, "--size", "200x100"]).status == 0)
        let r = try bristle(["render", Self.hello, "-o", all, "--size", "200x100", "--color", "#00ff00",
                             "--background", "#000000", "--param", "opacity=0.5", "--param", "pressure-width=false",
                             "--brush", "org.bristle.pencil"])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGCodec.read(path: all)
        #expect(image.width == 200 && image.height == 100)
        #expect(Array(image.pixels[0..<4]) == [0, 0, 0, 255], "--background replaced white")
        // Only the overridden colour shows: half-opacity green over black, nowhere brighter.
        let greens = stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0 + 1] }
        #expect(greens.max() == 128, "--color and --param opacity=0.5 applied: \(greens.max()!)")
        #expect(stride(from: 0, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 0 && image.pixels[$0 + 2] == 0 })
        #expect(differingBytes(image.pixels, try PNGCodec.read(path: sizeOnly).pixels) > 0)
        // --width changes how much is covered.
        #expect(try bristle(["render", Self.hello, "-o", thin, "--size", "200x100", "--width", "1"]).status == 0)
        func ink(_ path: String) throws -> Int {
            let p = try PNGCodec.read(path: path).pixels
            return stride(from: 0, to: p.count, by: 4).filter { p[$0] < 250 }.count
        }
        #expect(try ink(thin) * 3 < ink(sizeOnly), "a 1-point width covers far less than the script's 6 and 14")
    }

    @Test func writesToStandardOutput() throws {
        let r = try bristle(["render", Self.hello, "-o", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.utf8.count > 100)
        #expect(r.stdout.contains("PNG") && r.stdout.contains("IHDR") && r.stdout.contains("IEND"))
    }

    @Test func fileSizeLimitIsAnIOErrorWithNoFileLeft() throws {
        let dir = TestEnvironment.scratchDirectory("fsize")
        let out = dir.appendingPathComponent("big.png").path
        let r = try ProcessResult.run("/bin/sh", ["-c", "ulimit -f 2; exec \"$0\" render \"$1\" -o \"$2\" --size 800x600",
                                                  TestEnvironment.bristleExecutable.path, Self.hello, out])
        expectCleanError(r, status: 74, mentioning: out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "no output and no temporary file")
    }

    @Test func scriptErrorsAreLocatedAndPrintOneHint() throws {
        let dir = TestEnvironment.scratchDirectory("script-errors")
        let input = dir.appendingPathComponent("p.json").path
        try "{\"actions\": [\n  {\"brush\": {\"params\": {\"wobble\": 1}}},\n  {\"stroke\": {\"events\": [{\"x\": 1, \"y\": 1}]}}]}"
            .write(toFile: input, atomically: true, encoding: .utf8)
        let r = try bristle(["render", input, "-o", dir.appendingPathComponent("x.png").path])
        expectCleanError(r, status: 65, mentioning: "\(input):2:35: brush 'org.bristle.pencil' has no parameter 'wobble'")
        let typo = dir.appendingPathComponent("t.json").path
        try #"{"actions": [{"stroke": {"events": [{"x": 1, "y": 1, "presure": 1}]}}]}"#.write(toFile: typo, atomically: true, encoding: .utf8)
        let t = try bristle(["render", typo, "-o", dir.appendingPathComponent("y.png").path])
        expectCleanError(t, status: 65, mentioning: "unknown key \"presure\"")
        #expect(t.stderr.components(separatedBy: "hint").count == 2, "exactly one hint: \(t.stderr)")
        let id = dir.appendingPathComponent("i.json").path
        try #"{"actions": [{"brush": {"id": "org.example.none"}}]}"#.write(toFile: id, atomically: true, encoding: .utf8)
        expectCleanError(try bristle(["render", id, "-o", "/tmp/never.png"]), status: 66, mentioning: "i.json:1:31: no brush with id 'org.example.none'")
    }

    @Test func transparentOutputHasNoBackground() throws {
        let out = TestEnvironment.scratchDirectory("transparent").appendingPathComponent("t.png").path
        #expect(try bristle(["render", Self.hello, "-o", out, "--transparent"]).status == 0)
        let image = try PNGCodec.read(path: out)
        #expect(image.pixels[3] == 0, "an untouched corner is transparent")
        #expect(image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 255 }, "the ink is opaque")
    }

    @Test func missingInputIs66AndWritesNothing() throws {
        let out = TestEnvironment.scratchDirectory("missing").appendingPathComponent("x.png").path
        let r = try bristle(["render", "/nonexistent/in.json", "-o", out])
        expectCleanError(r, status: 66, mentioning: "/nonexistent/in.json: no such input file")
        #expect(r.stderr.contains("bristle: hint: "))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func malformedInputIs65WithLineAndColumn() throws {
        let dir = TestEnvironment.scratchDirectory("malformed")
        let input = dir.appendingPathComponent("bad.json").path
        try "{\"actions\": [\n  {\"stroke\": {\"events\": [{\"x\": 1, \"y\": }]}}]}\n".write(toFile: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("x.png").path
        let r = try bristle(["render", input, "-o", out])
        expectCleanError(r, status: 65, mentioning: "\(input):2:")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func failedRenderNeverClobbersAnExistingOutput() throws {
        let dir = TestEnvironment.scratchDirectory("clobber")
        let out = dir.appendingPathComponent("keep.png").path
        try "precious".write(toFile: out, atomically: true, encoding: .utf8)
        let input = dir.appendingPathComponent("param.json").path
        try "{\"actions\": [{\"brush\": {\"params\": {\"nope\": 1}}}]}".write(toFile: input, atomically: true, encoding: .utf8)
        let r = try bristle(["render", input, "-o", out])
        expectCleanError(r, status: 65, mentioning: "nope")
        #expect(r.stderr.contains("param.json:1:"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "precious")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func unwritableOutputIs73() throws {
        let r = try bristle(["render", Self.hello, "-o", "/nonexistent-dir/out.png"])
        expectCleanError(r, status: 73, mentioning: "/nonexistent-dir")
    }

    @Test func unknownBrushIs66() throws {
        let r = try bristle(["render", Self.hello, "-o", "/tmp/never.png", "--brush", "org.example.nothing"])
        expectCleanError(r, status: 66, mentioning: "no brush with id 'org.example.nothing'")
        #expect(r.stderr.contains("bristle list"))
    }

    @Test func aPathToALibraryWithSeveralBrushesIsAmbiguous() throws {
        let r = try bristle(["render", Self.hello, "-o", "/tmp/never.png", "--brush", TestEnvironment.plugin("BristlePencil")])
        expectCleanError(r, status: 64, mentioning: "holds 2 brushes (org.bristle.pencil, org.bristle.eraser)")
        #expect(r.stderr.contains("BRISTLE_PATH="), "the hint says how to pick one by id")
    }

    @Test func brokenPluginIs69() throws {
        let plugin = try CCompiler.buildFixture("broken", defines: ["-DABI_MAJOR=2"])
        let r = try bristle(["render", Self.hello, "-o", "/tmp/never.png", "--brush", plugin])
        expectCleanError(r, status: 69, mentioning: "ABI 2.0.0")
    }

    @Test func usageErrorsAre64() throws {
        expectCleanError(try bristle(["render", Self.hello, "-o", "/tmp/x.png", "--size", "big"]), status: 64, mentioning: "--size")
        expectCleanError(try bristle(["render", Self.hello, "-o", "/tmp/x.png", "--param", "opacity"]), status: 64, mentioning: "NAME=VALUE")
        expectCleanError(try bristle(["render", Self.hello, "-o", "/tmp/x.png", "--param", "wobble=1"]), status: 64, mentioning: "no parameter 'wobble'")
        expectCleanError(try bristle(["render", Self.hello, "-o", "/tmp/x.png", "--color", "blurple"]), status: 64, mentioning: "blurple")
        expectCleanError(try bristle(["render", Self.hello, "-o", "/tmp/x.png", "--width", "1e300"]), status: 64, mentioning: "(0, 10000]")
        expectCleanError(try bristle(["render", Self.hello, "-o", "/tmp/x.png", "--background", "rgb(999, 0, 0)"]), status: 64, mentioning: "neither a colour")
    }

    @Test func verboseSaysTheFormatAndTheDroppedSamples() throws {
        let dir = TestEnvironment.scratchDirectory("verbose")
        let input = dir.appendingPathComponent("absurd.json").path
        try #"{"actions": [{"stroke": {"events": [{"x": 5, "y": 5}, {"x": 1e12, "y": 5}, {"x": 9, "y": 9}]}}]}"#
            .write(toFile: input, atomically: true, encoding: .utf8)
        let r = try bristle(["render", input, "-o", dir.appendingPathComponent("a.png").path, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("as native JSON"))
        #expect(r.stderr.contains("dropped 1 sample(s)"), "\(r.stderr)")
    }

    @Test func statsPrintPerEventTimes() throws {
        let out = TestEnvironment.scratchDirectory("stats").appendingPathComponent("s.png").path
        let r = try bristle(["render", Self.hello, "-o", out, "--stats"])
        #expect(r.status == 0)
        #expect(r.stderr.range(of: #"\d+ events: p50 [0-9.]+ us, p99 [0-9.]+ us per event"#, options: .regularExpression) != nil, "\(r.stderr)")
    }

    @Test func inspectShowsDescriptorAndParameters() throws {
        let text = try bristle(["inspect", TestEnvironment.plugin("BristlePencil")])
        #expect(text.status == 0)
        #expect(text.stdout.contains("org.bristle.pencil"))
        #expect(text.stdout.contains("capabilities: continuous, wants-predicted, deterministic"))
        #expect(text.stdout.contains("opacity"))
        let json = try bristle(["inspect", "org.bristle.pencil", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let brushes = object["brushes"] as! [[String: Any]]
        #expect(brushes.first?["id"] as? String == "org.bristle.pencil")
        let parameters = brushes.first?["parameters"] as! [[String: Any]]
        #expect(parameters.map { $0["id"] as! String } == ["opacity", "pressure-width", "min-width"])
        #expect(parameters[1]["type"] as? String == "bool")
    }

    @Test func inspectOfABrokenFileIs69WithTheReason() throws {
        let plugin = try CCompiler.buildFixture("broken", defines: ["-DNULL_NAME"])
        expectCleanError(try bristle(["inspect", plugin]), status: 69, mentioning: "descriptor[0].name")
        let hostile = try CCompiler.buildFixture("broken", defines: ["-DBAD_PARAM_RANGE"])
        expectCleanError(try bristle(["inspect", hostile, "--json"]), status: 69, mentioning: "within ±2^53")
    }

    @Test func listFindsTheReferenceBrushesAndReportsClashes() throws {
        let a = TestEnvironment.scratchDirectory("list-a"), b = TestEnvironment.scratchDirectory("list-b")
        let source = TestEnvironment.fixture("brushes/broken.c").path
        try CCompiler.build(source, output: a.appendingPathComponent("libone.so").path)
        try CCompiler.build(source, output: b.appendingPathComponent("libtwo.so").path)
        let r = try bristle(["list"], environment: ["BRISTLE_PATH": "\(a.path):\(b.path)"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("org.bristle.pencil"))
        #expect(r.stdout.contains("test.broken: using \(a.path)/libone.so, ignoring \(b.path)/libtwo.so"))
        let json = try bristle(["list", "--json"], environment: ["BRISTLE_PATH": "\(a.path):\(b.path)"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect((object["clashes"] as! [[String: Any]]).count == 1)
        let search = (object["searchPath"] as! [[String: Any]]).map { $0["path"] as! String }
        #expect(search.prefix(3) == [a.path, b.path, TestEnvironment.productsDirectory.path])
    }

    @Test func helpAndVersion() throws {
        let help = try bristle(["--help"])
        #expect(help.status == 0 && help.stdout.contains("render") && help.stdout.contains("inspect") && help.stdout.contains("list"))
        #expect(try bristle(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == BrushHost.version)
    }
}
