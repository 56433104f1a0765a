import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Issue 15 end to end: files that are not files, outputs that would replace an input,
/// interrupted exports, canvases larger than the memory the process may use, and messages that
/// quote hostile text. Every run is bounded by `timeout`, so a hang fails instead of blocking.
@Suite struct HostileInputTests {
    static let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path
    static let tiny = """
        {"canvas": {"width": 32, "height": 24}, "actions": [{"stroke": {"events": [{"x": 2, "y": 2}, {"x": 30, "y": 20}]}}]}
        """

    /// Runs bristle under `timeout 60` (status 124 when it hangs), with plugins found only
    /// beside the executable.
    private func bristle(_ args: [String], in directory: URL? = nil) throws -> ProcessResult {
        try ProcessResult.run("/usr/bin/timeout", ["60", TestEnvironment.bristleExecutable.path] + args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path],
                              currentDirectory: directory)
    }

    /// A one-line error, then at most a hint line: the documented form.
    private func expectOneLineError(_ r: ProcessResult, status: Int32, mentioning texts: [String],
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first?.hasPrefix("bristle: error: ") == true, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(lines.count == 1 || (lines.count == 2 && lines.last!.hasPrefix("bristle: hint: ")), "\(r.stderr)",
                sourceLocation: sourceLocation)
        for text in texts { #expect(r.stderr.contains(text), "\(text) in \(r.stderr)", sourceLocation: sourceLocation) }
    }

    private func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: Point 2: files that are not files

    @Test func aFIFOADirectoryOrADeviceIsRefusedAtOnceWherever() throws {
        let dir = TestEnvironment.scratchDirectory("not-files")
        let fifo = dir.appendingPathComponent("pipe.png").path, fifoSO = dir.appendingPathComponent("pipe.so").path
        #expect(mkfifo(fifo, 0o600) == 0 && mkfifo(fifoSO, 0o600) == 0)
        let folder = dir.appendingPathComponent("folder.png").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("s.json").path
        try write(Self.tiny, script)
        let out = dir.appendingPathComponent("out.png").path
        for (what, path) in [("a FIFO", fifo), ("a directory", folder), ("a character device", "/dev/null")] {
            // The input, the background image (flag and script), and the brush (flag and script).
            let scriptBackground = dir.appendingPathComponent("bg.json").path
            try write(#"{"canvas": {"width": 8, "height": 8, "background": {"image": "\#(path)"}}, "actions": []}"#, scriptBackground)
            let brushPath = path == fifo ? fifoSO : path
            let scriptBrush = dir.appendingPathComponent("brush.json").path
            try write(#"{"actions": [{"brush": {"path": "\#(brushPath)"}}, {"stroke": {"events": [{"x": 1, "y": 1}]}}]}"#, scriptBrush)
            var runs = [[path, "-o", out], [scriptBackground, "-o", out], [script, "-o", out, "--brush", brushPath],
                        [scriptBrush, "-o", out]]
            // --background takes a path ending in .png (anything else is a usage error).
            if path.hasSuffix(".png") { runs.append([script, "-o", out, "--background", path]) }
            for args in runs {
                let r = try bristle(["render"] + args)
                expectOneLineError(r, status: 66, mentioning: ["not a regular file", what])
            }
        }
        #expect(!FileManager.default.fileExists(atPath: out), "nothing was written")
    }

    // MARK: Point 5: the user's files are sacred

    @Test func theOutputNeverReplacesAFileTheRenderReads() throws {
        let dir = TestEnvironment.scratchDirectory("sacred")
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let input = dir.appendingPathComponent("in.json").path
        try write(Self.tiny, input)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: input)
        #expect(link(input, dir.appendingPathComponent("hard.json").path) == 0)
        let original = try #require(bytes(input))
        for output in [input, sub.path + "/../in.json", dir.appendingPathComponent("link.json").path,
                       dir.appendingPathComponent("hard.json").path, "in.json"] {
            let r = try bristle(["render", input, "-o", output], in: dir)
            expectOneLineError(r, status: 73, mentioning: ["refusing to write the output over"])
            #expect(bytes(input) == original, "\(output): the input is untouched")
        }
        // The background image, given by the script or by the flag, and a brush plugin.
        let background = dir.appendingPathComponent("paper.png").path
        try PNGCodec.write(rgba: [200, 180, 150, 255], width: 1, height: 1, to: background)
        let paper = try #require(bytes(background))
        let withBackground = dir.appendingPathComponent("bg.json").path
        try write(#"{"canvas": {"width": 8, "height": 8, "background": "paper.png"}, "actions": []}"#, withBackground)
        for args in [[withBackground, "-o", background], [input, "-o", background, "--background", background]] {
            expectOneLineError(try bristle(["render"] + args), status: 73, mentioning: ["paper.png"])
            #expect(bytes(background) == paper)
        }
        let brush = dir.appendingPathComponent("libPencilCopy.so").path
        try FileManager.default.copyItem(atPath: TestEnvironment.plugin("BristlePencil"), toPath: brush)
        let plugin = try #require(bytes(brush))
        expectOneLineError(try bristle(["render", input, "-o", brush, "--brush", brush]), status: 73, mentioning: ["libPencilCopy.so"])
        #expect(bytes(brush) == plugin)
    }

    @Test func outDirNeverWritesOverAnInputAndRendersTheOthers() throws {
        let dir = TestEnvironment.scratchDirectory("sacred-batch")
        // paper.json's output would be paper.png, the background image it reads.
        let background = dir.appendingPathComponent("paper.png").path
        try PNGCodec.write(rgba: [200, 180, 150, 255], width: 1, height: 1, to: background)
        let paper = try #require(bytes(background))
        try write(#"{"canvas": {"width": 8, "height": 8, "background": "paper.png"}, "actions": []}"#,
                  dir.appendingPathComponent("paper.json").path)
        try write(Self.tiny, dir.appendingPathComponent("other.json").path)
        let r = try bristle(["render", dir.path, "--out-dir", dir.path])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("paper.json") && r.stderr.contains("refusing to write the output over"), "\(r.stderr)")
        #expect(bytes(background) == paper, "the background image is untouched")
        #expect(try PNGCodec.read(path: dir.appendingPathComponent("other.png").path).width == 32, "the other input rendered")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedExportLeavesNoTemporaryFile(_ signal: Int32) throws {
        let dir = TestEnvironment.scratchDirectory("interrupted")
        let script = dir.appendingPathComponent("big.json").path
        // A large canvas whose export takes long enough to be interrupted while the temporary
        // file exists.
        try write(#"{"canvas": {"width": 8192, "height": 8192}, "actions": [{"stroke": {"events": [{"x": 1, "y": 1}, {"x": 8000, "y": 8000}]}}]}"#, script)
        let process = Process()
        process.executableURL = TestEnvironment.bristleExecutable
        process.arguments = ["render", script, "-o", dir.appendingPathComponent("out.png").path]
        process.environment = ["HOME": TestEnvironment.scratchDirectory("home").path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        func temporaryFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".tmp-") }
        }
        while temporaryFiles().isEmpty && process.isRunning && Date() < deadline { usleep(2_000) }
        try #require(!temporaryFiles().isEmpty, "the export started")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            #expect(process.terminationStatus == signal, "the signal still ends the process")
            #expect(temporaryFiles().isEmpty, "no hidden temporary file is left behind")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
        } else {
            // The export finished between the check and the signal: a complete file, no temporary one.
            #expect(temporaryFiles().isEmpty)
        }
    }

    // MARK: Point 1: memory that cannot be had

    @Test func aCanvasBeyondTheMemoryLimitExits71NamingTheSizeAndTheMemory() throws {
        let dir = TestEnvironment.scratchDirectory("memory")
        let script = dir.appendingPathComponent("huge.json").path
        try write(#"{"canvas": {"width": 16384, "height": 16384}, "actions": [{"stroke": {"events": [{"x": 1, "y": 1}]}}]}"#, script)
        let out = dir.appendingPathComponent("huge.png").path
        // 1.5 GiB of address space: enough to start, not for two 1 GiB layers.
        let r = try ProcessResult.run("/bin/bash", ["-c", "ulimit -v 1572864; exec timeout 60 \"$0\" render \"$1\" -o \"$2\"",
                                                    TestEnvironment.bristleExecutable.path, script, out],
                                      environment: ["HOME": TestEnvironment.scratchDirectory("home").path])
        expectOneLineError(r, status: 71, mentioning: ["16384x16384", "needs about 2.6 GiB"])
        #expect(!r.stderr.contains("pencil"), "no brush is blamed")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// libFuzzer's finds: InkML declaring UTF-7 crashed libxml2's streaming parser (SIGSEGV),
    /// also with the declaration cut short. Such files, a UTF-16 one declaring UTF-7, and a
    /// well-formed one in an encoding libxml2 does not read itself, are
    /// refused in one line (65) and write nothing; a lower-case UTF-8 declaration still renders.
    @Test func inkMLInAnEncodingTheParserCannotReadIsRefusedNotACrash() throws {
        let dir = TestEnvironment.scratchDirectory("xml-encodings")
        let fuzzed = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/ink/fuzz-inkml-utf7.inkml").path
        let ink = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>10 10, 20 15, 30 12</trace></ink>"#
        let cut = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/ink/fuzz-inkml-utf7-cut.inkml").path
        let shiftJIS = dir.appendingPathComponent("sjis.inkml").path
        try write(#"<?xml version="1.0" encoding='Shift_JIS'?>"# + ink, shiftJIS)
        let utf16 = dir.appendingPathComponent("utf16.inkml").path
        try (#"<?xml version="1.0" encoding="UTF-7"?>"# + ink).data(using: .utf16LittleEndian)!.write(to: URL(fileURLWithPath: utf16))
        for (input, name) in [(fuzzed, "UTF-7"), (cut, "UTF-7"), (shiftJIS, "Shift_JIS"), (utf16, "UTF-7")] {
            let output = dir.appendingPathComponent("out.png").path
            expectOneLineError(try bristle(["render", input, "-o", output]), status: 65,
                               mentioning: ["encoding \"\(name)\"", "convert the file to UTF-8"])
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        let utf8 = dir.appendingPathComponent("utf8.inkml").path
        try write("\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>" + ink, utf8)
        let r = try bristle(["render", utf8, "-o", dir.appendingPathComponent("utf8.png").path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    // MARK: Point 6: messages that are safe and precise

    @Test func controlCharactersFromInputsAreEscaped() throws {
        let dir = TestEnvironment.scratchDirectory("escapes")
        let evil = dir.appendingPathComponent("a\u{1B}[31mred\u{7}.json").path
        let missing = try bristle(["render", evil, "-o", dir.appendingPathComponent("o.png").path])
        expectOneLineError(missing, status: 66, mentioning: ["a\\u{1B}[31mred\\u{7}.json"])
        let content = dir.appendingPathComponent("content.json").path
        try write("{\"canvas\": {\"bad\\u001b]0;owned\\u0007\u{9B}key\": 1}, \"actions\": []}", content)
        let bad = try bristle(["render", content, "-o", dir.appendingPathComponent("o.png").path])
        expectOneLineError(bad, status: 65, mentioning: ["\\u{9B}"])
        for r in [missing, bad] {
            #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B },
                    "no control character reaches the terminal: \(r.stderr.debugDescription)")
        }
    }

    @Test func usageErrorsAreOneLineWithAHint() throws {
        for args in [["render", Self.hello, "--frob"], ["render", Self.hello], ["render", Self.hello, "-o", "x.png", "--width"],
                     ["render", Self.hello, "-o", "x.png", "--size", "big"], ["bench", "--reps", "0"]] {
            let r = try bristle(args)
            expectOneLineError(r, status: 64, mentioning: ["bristle: hint: see `bristle help"])
            #expect(!r.stderr.contains("Usage:") && !r.stderr.contains("Error:"), "\(r.stderr)")
        }
        let negative = try bristle(["render", Self.hello, "-o", "x.png", "--width", "-1"])
        expectOneLineError(negative, status: 64, mentioning: ["--width must be positive", "not -1"])
    }

    @Test func theScaleBoundsAreTheDocumentedOnes() throws {
        let dir = TestEnvironment.scratchDirectory("scale")
        for (scale, status) in [("0.01", Int32(0)), ("100", 0), ("0.009", 65), ("100.5", 65)] {
            let script = dir.appendingPathComponent("s\(scale).json").path
            try write(#"{"canvas": {"width": 16, "height": 16, "scale": \#(scale)}, "actions": [{"stroke": {"events": [{"x": 1, "y": 1}]}}]}"#, script)
            let r = try bristle(["render", script, "-o", dir.appendingPathComponent("s\(scale).png").path])
            #expect(r.status == status, "\(scale): \(r.stderr)")
            if status != 0 { #expect(r.stderr.contains("found \(scale)"), "the value as written: \(r.stderr)") }
        }
    }

    @Test func aClampedParameterWarnsWithItsRange() throws {
        let dir = TestEnvironment.scratchDirectory("clamp")
        let r = try bristle(["render", Self.hello, "-o", dir.appendingPathComponent("o.png").path, "--param", "opacity=5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "bristle: warning: --param opacity=5 is outside its range 0...1; org.bristle.pencil uses 1\n")
        let script = dir.appendingPathComponent("p.json").path
        try write(#"{"actions": [{"brush": {"id": "org.bristle.pencil", "params": {"opacity": -2}}}, {"stroke": {"events": [{"x": 1, "y": 1}]}}]}"#, script)
        let located = try bristle(["render", script, "-o", dir.appendingPathComponent("p.png").path])
        #expect(located.status == 0)
        #expect(located.stderr == "bristle: \(script):1:75: warning: params.opacity -2 is outside its range 0...1; org.bristle.pencil uses 0\n")
        let inside = try bristle(["render", Self.hello, "-o", dir.appendingPathComponent("i.png").path, "--param", "opacity=0.5"])
        #expect(inside.status == 0 && inside.stderr.isEmpty, "\(inside.stderr)")
    }

    @Test func aBackgroundImageErrorNamesTheScriptLineAndColumn() throws {
        let dir = TestEnvironment.scratchDirectory("bg-located")
        let script = dir.appendingPathComponent("s.json").path
        try write("{\"canvas\": {\"width\": 8, \"height\": 8,\n  \"background\": \"missing.png\"}, \"actions\": []}", script)
        let r = try bristle(["render", script, "-o", dir.appendingPathComponent("o.png").path])
        expectOneLineError(r, status: 66, mentioning: ["\(script):2:17: canvas.background: cannot read PNG"])
    }
}
