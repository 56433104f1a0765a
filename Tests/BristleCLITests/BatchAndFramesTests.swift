import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle render` with many inputs (`--out-dir`) and with `--frames`.
@Suite struct BatchAndFramesTests {
    static let strokes = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes")

    private func bristle(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    @Test func aFolderRendersInParallelPastABadFileAndReportsIt() throws {
        let input = TestEnvironment.scratchDirectory("batch-in"), out = TestEnvironment.scratchDirectory("batch-out")
        for name in ["hello.json", "wacom-pen.json"] {
            try FileManager.default.copyItem(at: Self.strokes.appendingPathComponent(name), to: input.appendingPathComponent(name))
        }
        try "{\"actions\": [".write(to: input.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try "not an input".write(to: input.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try "idx,SPLINE_X,SPLINE_Y,SENSOR_TIMESTAMP,SENSOR_PRESSURE,SENSOR_ALTITUDE,SENSOR_AZIMUTH\n0,1,2,3,0.5,abc,0.1\n"
            .write(to: input.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let r = try bristle(["render", input.path, "--out-dir", out.path])
        #expect(r.status == 65, "the bad files' status: \(r.stderr)")
        #expect(r.stderr.contains("rendered 2, skipped 1, failed 2"), "\(r.stderr)")
        #expect(r.stderr.contains("skipped \(input.path)/notes.txt: text in no supported format"), "the skipped file and why: \(r.stderr)")
        #expect(r.stderr.contains("broken.json:1:"), "the failure is located: \(r.stderr)")
        #expect(r.stderr.contains("bad.csv:2:"), "every failure is reported, located: \(r.stderr)")
        #expect(!r.stderr.contains("\r"), "no progress line when stderr is not a terminal")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == ["hello.png", "wacom-pen.png"])
        // Parallel renders equal single renders.
        let single = out.appendingPathComponent("single.png").path
        #expect(try bristle(["render", input.appendingPathComponent("hello.json").path, "-o", single]).status == 0)
        #expect(try PNGCodec.read(path: single).pixels == PNGCodec.read(path: out.appendingPathComponent("hello.png").path).pixels)
    }

    @Test func inputsWithTheSameNameGetDifferentOutputs() throws {
        let a = TestEnvironment.scratchDirectory("same-a"), b = TestEnvironment.scratchDirectory("same-b")
        let out = TestEnvironment.scratchDirectory("same-out")
        for dir in [a, b] {
            try FileManager.default.copyItem(at: Self.strokes.appendingPathComponent("hello.json"), to: dir.appendingPathComponent("x.json"))
        }
        let x = a.appendingPathComponent("x.json").path
        let r = try bristle(["render", x, b.appendingPathComponent("x.json").path, x, "--out-dir", out.path, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["x.json-2.png", "x.json-3.png", "x.json.png"])
        #expect(r.stderr.contains("(native JSON): 2 stroke(s)"), "--verbose gives each file's format: \(r.stderr)")
    }

    @Test func batchUsageErrors() throws {
        let hello = Self.strokes.appendingPathComponent("hello.json").path
        #expect(try bristle(["render", hello, hello, "-o", "/tmp/x.png"]).status == 64)
        #expect(try bristle(["render", hello, "--out-dir", "/tmp", "-o", "/tmp/x.png"]).status == 64)
        let r = try bristle(["render", hello, "--out-dir", hello + "/out"])
        #expect(r.status == 73 && r.stderr.contains("\(hello)/out: cannot create the output folder"), "\(r.stderr)")
        #expect(try bristle(["render", hello, "--recursive", "-o", "/tmp/x.png"]).status == 64, "--recursive needs --out-dir")
        let empty = TestEnvironment.scratchDirectory("empty")
        #expect(try bristle(["render", empty.path, "--out-dir", empty.path]).status == 66)
    }

    @Test func forceHueFramesFadeTowardsWhite() throws {
        let dir = TestEnvironment.scratchDirectory("fade")
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("out.png").path
        let r = try bristle(["render", Self.strokes.appendingPathComponent("wacom-pen.json").path, "-o", out,
                             "--brush", "org.bristle.force-hue", "--size", "320x240", "--frames", "12",
                             "--frames-dir", frames.path])
        #expect(r.status == 0, "\(r.stderr)")
        func brightness(_ path: String) throws -> Double {
            let p = try PNGCodec.read(path: path).pixels
            return Double(p.enumerated().filter { $0.offset % 4 != 3 }.reduce(0) { $0 + Int($1.element) }) / Double(p.count)
        }
        let values = try (1...12).map { try brightness(frames.appendingPathComponent(String(format: "frame-%04d.png", $0)).path) }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "\(values)")
        #expect(values[11] > values[0])
        #expect(try brightness(out) == values[11], "the output is the last frame")
    }

    @Test func aTerminalSeesAProgressLine() throws {
        // `script` gives the child a pseudo-terminal, as an interactive shell would.
        let input = TestEnvironment.scratchDirectory("pty-in"), out = TestEnvironment.scratchDirectory("pty-out")
        try FileManager.default.copyItem(at: Self.strokes.appendingPathComponent("hello.json"), to: input.appendingPathComponent("hello.json"))
        let command = "\(TestEnvironment.bristleExecutable.path) render \(input.path) --out-dir \(out.path)"
        let r = try ProcessResult.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("\rbristle: 1/1 rendered"), "\(r.stdout.debugDescription)")
    }

    @Test func framesAreWrittenAfterTheLastStroke() throws {
        let dir = TestEnvironment.scratchDirectory("frames")
        let out = dir.appendingPathComponent("out.png").path
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        let r = try bristle(["render", Self.strokes.appendingPathComponent("hello.json").path, "-o", out,
                             "--frames", "3", "--frames-dir", frames.path, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
                == ["frame-0001.png", "frame-0002.png", "frame-0003.png"])
        #expect(r.stderr.contains("ignored 3 tick(s)"), "the pencil does not want ticks: \(r.stderr)")
        #expect(try PNGCodec.read(path: frames.appendingPathComponent("frame-0003.png").path).pixels == PNGCodec.read(path: out).pixels)
        #expect(try bristle(["render", Self.strokes.appendingPathComponent("hello.json").path, "-o", out, "--frames", "2"]).status == 64)
        #expect(try bristle(["render", Self.strokes.appendingPathComponent("hello.json").path, "-o", out, "--pressure-curve", "cubic"]).status == 64)
    }
}
