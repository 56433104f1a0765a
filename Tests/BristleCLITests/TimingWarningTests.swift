import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Recordings whose clock cannot be a pen's (docs/importers.md, "Implausible timing"): one
/// warning line naming the file and the stroke, the render still done; and the examples, whose
/// strokes last what a hand takes.
@Suite struct TimingWarningTests {
    private func bristle(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    /// A native script of `strokes` strokes, each of `samples` samples `step` ms apart.
    private func script(strokes: Int, samples: Int, step: Double) -> String {
        let one = (0..<samples).map { "{\"x\": \(10 + $0 * 5), \"y\": 20, \"timeStamp\": \(Double($0) * step)}" }
        let stroke = "{\"stroke\": {\"pointerType\": \"pen\", \"events\": [" + one.joined(separator: ", ") + "]}}"
        return "{\"canvas\": {\"width\": 100, \"height\": 40},\n \"actions\": [\n"
            + Array(repeating: stroke, count: strokes).joined(separator: ",\n") + "]}\n"
    }

    @Test func strokesInSecondsWarnOnceNamingTheFileAndTheFirstStroke() throws {
        let dir = TestEnvironment.scratchDirectory("timing-seconds")
        let input = dir.appendingPathComponent("seconds.json").path
        try script(strokes: 3, samples: 10, step: 0.004).write(toFile: input, atomically: true, encoding: .utf8)
        let r = try bristle(["render", input, "-o", dir.appendingPathComponent("out.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "bristle: \(input):3:12: warning: stroke 1 (and 2 more strokes like it) has 10 samples in "
                + "0.036 ms, faster than a pen reports (at most 2000 samples per second): its timeStamp values are "
                + "probably not in milliseconds\n")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }

    @Test func aFastButShortStrokeAndAPlausibleOneDoNotWarn() throws {
        let dir = TestEnvironment.scratchDirectory("timing-plausible")
        for (name, text) in [("pen.json", script(strokes: 2, samples: 40, step: 4)),      // 250 Hz
                             ("tap.json", script(strokes: 1, samples: 7, step: 0))] {     // too few to judge
            let input = dir.appendingPathComponent(name).path
            try text.write(toFile: input, atomically: true, encoding: .utf8)
            let r = try bristle(["render", input, "-o", dir.appendingPathComponent("out.png").path])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
        }
        // Longer than 5 ms but 2500 samples per second: the rate rule; 1667 per second passes.
        for (step, warns) in [(0.4, true), (0.6, false)] {
            let input = dir.appendingPathComponent("fast.json").path
            try script(strokes: 1, samples: 20, step: step).write(toFile: input, atomically: true, encoding: .utf8)
            let r = try bristle(["render", input, "-o", dir.appendingPathComponent("out.png").path])
            #expect(r.stderr.contains(": warning: stroke 1 has 20 samples in \(step == 0.4 ? "7.6" : "11.4") ms") == warns,
                    "\(step): \(r.stderr)")
        }
    }

    @Test func importedPointsInSecondsWarnToo() throws {
        let dir = TestEnvironment.scratchDirectory("timing-points")
        let input = dir.appendingPathComponent("points.json").path
        // Pressure varies, so the only note is the timing one (a constant channel gets its own).
        let points = (0..<12).map { "[\(10 + $0 * 3), \(5 + $0), \(0.3 + Double($0) * 0.05), \(Double($0) * 0.008)]" }
        try ("[" + points.joined(separator: ", ") + "]\n").write(toFile: input, atomically: true, encoding: .utf8)
        let r = try bristle(["render", input, "-o", dir.appendingPathComponent("out.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("bristle: \(input):"), "\(r.stderr)")
        #expect(r.stderr.contains(": warning: stroke 1 has 12 samples in 0.088 ms"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    /// The examples are real or plausible input: no warning, and the Wacom recording's strokes
    /// last 0.2-3 s each (its timestamps are milliseconds).
    @Test func theExamplesHavePlausibleTiming() throws {
        let folder = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 5)
        for name in names {
            let script = try ScriptRenderer.loadScript(path: folder.appendingPathComponent(name).path)
            #expect(StrokeTiming.warning(for: script) == nil, "\(name)")
        }
        let wacom = try ScriptRenderer.loadScript(path: folder.appendingPathComponent("wacom-pen.json").path)
        var durations: [Double] = []
        for action in wacom.actions {
            guard case .stroke(let stroke) = action.kind else { continue }
            let times = stroke.events.compactMap(\.sample.timeStamp)
            durations.append((times.max()! - times.min()!) / 1000)
        }
        #expect(durations.count == 4)
        #expect(durations.allSatisfy { (0.2...3).contains($0) }, "\(durations)")
    }
}
