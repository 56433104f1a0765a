import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle render --trace` and `--stats`, and `bristle sheet`: the instruments for brush
/// authors (docs/guides/see-your-brush.md).
@Suite struct InstrumentsTests {
    static let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path

    /// The reference brushes whose sheets are golden images (Tests/Golden/sheets/ID.png); not
    /// the eraser, whose sheet is blank (it erases nothing on an empty canvas).
    static let referenceBrushes = [
        "org.bristle.pencil", "org.bristle.force-hue", "org.bristle.pencil-shading",
        "org.bristle.line", "org.bristle.dashed-line", "org.bristle.rectangle", "org.bristle.ellipse",
        "org.bristle.spray", "org.bristle.marker",
    ]

    private func bristle(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": nil, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func traceHoldsEveryHookCallInOrderAsCompleteEvents() throws {
        let dir = TestEnvironment.scratchDirectory("trace")
        let trace = dir.appendingPathComponent("trace.json").path
        let r = try bristle(["render", Self.hello, "-o", dir.appendingPathComponent("h.png").path, "--trace", trace])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try json(String(contentsOfFile: trace, encoding: .utf8))
        let events = try #require(object["traceEvents"] as? [[String: Any]]).filter { $0["ph"] as? String == "X" }
        let hooks = events.filter { $0["cat"] as? String == "hook" }
        let names = hooks.map { $0["name"] as! String }
        // The first stroke (5 events, a prediction after the second), the cancelled stroke, then
        // the second brush's parameter.
        #expect(Array(names.prefix(19)) == ["begin", "draw", "moved", "draw", "predicted", "draw", "moved", "draw",
                                             "moved", "draw", "moved", "draw", "ended", "draw",
                                             "begin", "draw", "moved", "draw", "cancelled"], "\(names)")
        let parameter = try #require(hooks.first { $0["name"] as? String == "params.set_value" })
        #expect((parameter["args"] as? [String: Any])?["parameter"] as? String == "opacity")
        #expect(names.filter { $0 == "begin" }.count == 3)
        let moved = hooks[2]["args"] as! [String: Any]
        #expect(moved["samples"] as? Int == 2, "the coalesced samples of one event arrive in one call")
        let preview = hooks[5]["args"] as! [String: Any]
        #expect(preview["layer"] as? String == "preview")
        let firstDraw = hooks[1]
        let args = firstDraw["args"] as! [String: Any]
        #expect(args["layer"] as? String == "committed")
        #expect((args["dirtyPixels"] as? Int ?? 0) > 0)
        #expect((args["dirty"] as? [[Int]])?.first?.count == 4)
        // Services nest inside the draw that called them: same track, inside its time span.
        let ts = firstDraw["ts"] as! Double, dur = firstDraw["dur"] as! Double
        let services = events.filter { $0["cat"] as? String == "service" }
        #expect(!services.isEmpty)
        let inside = services.filter { ($0["ts"] as! Double) >= ts && ($0["ts"] as! Double) + ($0["dur"] as! Double) <= ts + dur + 0.001 }
        #expect(inside.map { $0["name"] as! String }.contains("mask_segment"), "\(inside)")
        #expect(events.allSatisfy { ($0["dur"] as? Double ?? -1) >= 0 && $0["pid"] as? Int == 1 })
    }

    @Test func traceNeverReplacesAnInput() throws {
        let dir = TestEnvironment.scratchDirectory("trace-input")
        let input = dir.appendingPathComponent("in.json").path
        try FileManager.default.copyItem(atPath: Self.hello, toPath: input)
        let before = try String(contentsOfFile: input, encoding: .utf8)
        let r = try bristle(["render", input, "-o", dir.appendingPathComponent("h.png").path, "--trace", input])
        #expect(r.status != 0)
        #expect(r.stderr.contains("bristle: error: "), "\(r.stderr)")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("h.png").path))
    }

    @Test func statsTablePrintsEveryHook() throws {
        let out = TestEnvironment.scratchDirectory("stats-table").appendingPathComponent("s.png").path
        let r = try bristle(["render", Self.hello, "-o", out, "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("hook"), "\(r.stderr)")
        #expect(r.stderr.range(of: #"p50 us +p99 us +max us +samples/call +px reported +px changed"#, options: .regularExpression) != nil, "\(r.stderr)")
        for hook in ["begin", "moved", "predicted", "ended", "cancelled", "draw (committed)", "draw (preview)",
                     "params.set_value", "services.mask_segment"] {
            #expect(r.stderr.range(of: "\n" + NSRegularExpression.escapedPattern(for: hook) + #" +\d+ "#, options: .regularExpression) != nil, "\(hook): \(r.stderr)")
        }
    }

    /// A brush that reports the whole canvas on every draw shows it: far more pixels reported
    /// than changed, compared with the pencil.
    @Test func statsShowABrushThatOverReportsItsDirtyArea() throws {
        let plugin = try CCompiler.buildFixture("overreport")
        let dir = TestEnvironment.scratchDirectory("stats-json")
        func drawRow(_ brush: String) throws -> [String: Any] {
            let r = try bristle(["render", Self.hello, "-o", dir.appendingPathComponent("o.png").path, "--brush", brush,
                                 "--stats", "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            let object = try json(r.stdout)
            #expect((object["events"] as? Int ?? 0) > 0)
            let rows = try #require(object["hooks"] as? [[String: Any]])
            return try #require(rows.first { $0["hook"] as? String == "draw (committed)" })
        }
        let over = try drawRow(plugin)
        let reported = over["reportedPixels"] as! Int, changed = over["changedPixels"] as! Int
        #expect(changed > 0)
        #expect(reported > 50 * changed, "reported \(reported), changed \(changed)")
        #expect(reported == (over["calls"] as! Int) * 320 * 200)
        let pencil = try drawRow("org.bristle.pencil")
        let pReported = pencil["reportedPixels"] as! Int, pChanged = pencil["changedPixels"] as! Int
        #expect(pChanged > 0 && pChanged <= pReported, "reported \(pReported), changed \(pChanged)")
        // The pencil reports its segments' bounding boxes (a diagonal stroke's are mostly
        // empty); the over-reporter is still far worse.
        #expect(Double(reported) / Double(changed) > 5 * Double(pReported) / Double(pChanged))
        #expect((pencil["p99Microseconds"] as! Double) >= (pencil["p50Microseconds"] as! Double))
    }

    @Test func statsJsonNeedsStatsAndAFileOutput() throws {
        let out = TestEnvironment.scratchDirectory("stats-usage").appendingPathComponent("s.png").path
        let alone = try bristle(["render", Self.hello, "-o", out, "--json"])
        #expect(alone.status == 64 && alone.stderr.contains("--json needs --stats"), "\(alone.stderr)")
        let piped = try bristle(["render", Self.hello, "-o", "-", "--stats", "--json"])
        #expect(piped.status == 64, "\(piped.stderr)")
    }

    /// The sheet's canvas is what `bristle render` makes of the exported script, pixel for pixel.
    @Test func sheetScriptReplaysToTheSameCanvas() throws {
        let dir = TestEnvironment.scratchDirectory("sheet-script")
        let sheet = dir.appendingPathComponent("sheet.png").path, script = dir.appendingPathComponent("sheet.json").path
        let replay = dir.appendingPathComponent("replay.png").path
        let r = try bristle(["sheet", "org.bristle.pencil", "-o", sheet, "--script", script, "--param", "opacity=0.7"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.contains("\"cancelled\": true") && text.contains("\"coalesced\"") && text.contains("\"opacity\": \"0.7\""))
        let rendered = try bristle(["render", script, "-o", replay])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let image = try PNGCodec.read(path: sheet), canvas = try PNGCodec.read(path: replay)
        #expect(canvas.width == StandardSheet.canvasWidth && canvas.height == StandardSheet.canvasHeight)
        #expect(image.width == SheetRenderer.labelWidth + canvas.width && image.height == SheetRenderer.headerHeight + canvas.height)
        var differing = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width * 4 where canvas.pixels[y * canvas.width * 4 + x]
                != image.pixels[((y + SheetRenderer.headerHeight) * image.width + SheetRenderer.labelWidth) * 4 + x] {
                differing += 1
            }
        }
        #expect(differing == 0)
        // Something was drawn in the pressure row, nothing in the cancelled one.
        func ink(row: Int) -> Int {
            (row * StandardSheet.rowHeight..<(row + 1) * StandardSheet.rowHeight).reduce(0) { n, y in
                n + (0..<canvas.width).filter { canvas.pixels[(y * canvas.width + $0) * 4] < 250 }.count
            }
        }
        #expect(ink(row: 0) > 500)
        #expect(ink(row: StandardSheet.rows.count - 1) == 0)
    }

    @Test func sheetCompareCountsTheDifference() throws {
        let dir = TestEnvironment.scratchDirectory("sheet-compare")
        let same = try bristle(["sheet", "org.bristle.pencil", "--compare", "org.bristle.pencil", "-o", dir.appendingPathComponent("same.png").path])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == "0 pixel(s) differ\n")
        let out = dir.appendingPathComponent("diff.png").path
        let other = try bristle(["sheet", "org.bristle.pencil", "--compare", "org.bristle.marker", "-o", out])
        #expect(other.status == 0, "\(other.stderr)")
        let count = Int(other.stdout.split(separator: " ").first ?? "") ?? 0
        #expect(count > 1000, "\(other.stdout)")
        let image = try PNGCodec.read(path: out)
        #expect(image.width == SheetRenderer.labelWidth + 2 * StandardSheet.canvasWidth + SheetRenderer.gap)
        #expect(image.height == 2 * (SheetRenderer.headerHeight + StandardSheet.canvasHeight) + SheetRenderer.gap)
    }

    @Test func sheetOfAnUnknownBrushFailsCleanly() throws {
        let out = TestEnvironment.scratchDirectory("sheet-unknown").appendingPathComponent("x.png").path
        let r = try bristle(["sheet", "org.example.nothing", "-o", out])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("bristle: error: "))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func conformReportsTheHookTableForTheStandardSheet() throws {
        let plugin = TestEnvironment.plugin("BristlePencil")
        let text = try bristle(["conform", plugin, "--brush", "org.bristle.pencil", "--tier", "basic"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("per hook, the standard sheet"), "\(text.stdout)")
        #expect(text.stdout.range(of: #"\ndraw \(committed\) +876 "#, options: .regularExpression) != nil, "\(text.stdout)")
        let json = try bristle(["conform", plugin, "--brush", "org.bristle.pencil", "--tier", "basic", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try self.json(json.stdout)["hookStatistics"] as? [[String: Any]])
        let moved = try #require(rows.first { $0["hook"] as? String == "moved" })
        #expect(moved["calls"] as? Int == 803)
        #expect((moved["samplesPerCall"] as? Double ?? 0) > 1)
    }

    /// The sheets shown in docs/brushes.md; regenerate with `make sheets` (or
    /// BRISTLE_UPDATE_GOLDEN=1 swift test --filter InstrumentsTests) and look at each.
    @Test(arguments: referenceBrushes) func referenceBrushSheetMatchesItsGolden(_ id: String) throws {
        let out = TestEnvironment.scratchDirectory("sheet-golden").appendingPathComponent(id + ".png").path
        let r = try bristle(["sheet", id, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGCodec.read(path: out)
        let mismatch = try GoldenImage.compare(image.pixels, width: image.width, height: image.height, name: "sheets/\(id)")
        #expect(mismatch == nil, "\(mismatch?.description ?? "")")
    }
}
