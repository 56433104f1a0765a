import BristleBench
import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle bench` end to end with tiny settings: every case prints one JSON line in the
/// peers' shape, `--png` writes pictures, usage errors exit 64. No timing is asserted.
@Suite struct BenchCLITests {
    static let peerKeys = ["peer", "version", "case", "items", "item", "reps", "min_ms", "median_ms",
                           "max_ms", "mean_ms", "cpu_median_ms", "ns_per_item_median", "ns_per_item_min"]

    private func bristle(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }

    @Test(arguments: BenchRegistry.names)
    func everyCasePrintsAPeerShapedJSONLine(_ name: String) throws {
        let r = try bristle(["bench", "--case", name, "--reps", "1", "--warmup", "0", "--segments", "50", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try jsonLines(r.stdout)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        for key in Self.peerKeys { #expect(line[key] != nil, "\(name): missing \(key)") }
        #expect(line["peer"] as? String == "bristle")
        #expect(line["case"] as? String == name)
        #expect(line["reps"] as? Int == 1)
        let minimum = try #require(line["min_ms"] as? Double), maximum = try #require(line["max_ms"] as? Double)
        #expect(minimum > 0 && minimum <= maximum)
        if name.hasPrefix("event_latency") {
            let p50 = try #require(line["p50_us"] as? Double), p99 = try #require(line["p99_us"] as? Double)
            #expect(p50 > 0 && p50 <= p99)
            #expect(line["items"] as? Int == 51, "50 segments are 51 events")
        }
        if name.hasPrefix("stroke_segments") { #expect(line["items"] as? Int == 50) }
    }

    @Test func pngWritesOnePicturePerCaseNamedLikeThePeers() throws {
        let dir = TestEnvironment.scratchDirectory("bench-png")
        let r = try bristle(["bench", "--case", "stroke_segments_alpha50", "--case", "stroke_pencil_product",
                             "--reps", "1", "--segments", "50", "--png", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("stroke_segments_alpha50: median"), "text output by default: \(r.stdout)")
        for name in ["stroke_segments_alpha50", "stroke_pencil_product"] {
            let image = try PNGCodec.read(path: dir.appendingPathComponent("bristle_\(name).png").path)
            #expect(image.width == 2048 && image.height == 1536)
            #expect(image.pixels.contains { $0 != 255 }, "\(name): something is drawn")
        }
    }

    @Test func unknownCaseIsAUsageErrorListingTheValidOnes() throws {
        let r = try bristle(["bench", "--case", "stroke_everything"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("stroke_everything"))
        for name in BenchRegistry.names { #expect(r.stderr.contains(name), "\(r.stderr)") }
        #expect(r.stdout.isEmpty)
    }

    @Test func badNumbersAndFoldersAreUsageErrors() throws {
        for args in [["--reps", "0"], ["--segments", "10000"], ["--warmup", "-1"],
                     ["--png", TestEnvironment.scratchDirectory("bench-none").appendingPathComponent("missing").path]] {
            let r = try bristle(["bench"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }
}
