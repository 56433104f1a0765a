import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Scripts played through real brushes: backgrounds, actions, overrides and their errors.
@Suite struct ScriptRendererTests {
    private func options() -> RenderOptions {
        var o = RenderOptions()
        o.searchDirectories = [TestEnvironment.productsDirectory.path]
        return o
    }

    private func script(_ json: String, in dir: URL) throws -> StrokeScript {
        let path = dir.appendingPathComponent("script.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try ScriptRenderer.loadScript(path: path)
    }

    @Test func imageBackgroundIsResolvedBesideTheScriptTiledAndFlattenedUnderTheDrawing() throws {
        let dir = TestEnvironment.scratchDirectory("background")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("art"), withIntermediateDirectories: true)
        // A 2x1 image: red then half-transparent green (straight alpha).
        try PNGCodec.write(rgba: [255, 0, 0, 255, 0, 255, 0, 128], width: 2, height: 1, strideBytes: 8,
                           to: dir.appendingPathComponent("art/bg.png").path)
        let s = try script("""
            {"canvas": {"width": 6, "height": 3, "background": "art/bg.png"},
             "actions": [{"brush": {"id": "org.bristle.pencil", "color": "#0000ff", "width": 3}},
                         {"stroke": {"events": [{"x": 4.5, "y": 1.5}]}}]}
            """, in: dir)
        let session = try ScriptRenderer(options: options()).render(s)
        let pixels = session.flattenedPixels(transparent: false)
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * 6 + x) * 4..<(y * 6 + x) * 4 + 4]) }
        #expect(px(0, 0) == [255, 0, 0, 255])
        #expect(px(2, 0) == [255, 0, 0, 255], "tiled every 2 pixels")
        #expect(px(1, 0) == [0, 255, 0, 128], "the image's own transparency is kept")
        #expect(px(4, 1) == [0, 0, 255, 255], "the dot covers its centre pixel over the image")
        #expect(px(1, 2) == [0, 255, 0, 128], "tiled down the rows too")
        let transparent = session.flattenedPixels(transparent: true)
        #expect(Array(transparent[0..<4]) == [0, 0, 0, 0], "--transparent leaves the background out")
    }

    @Test func missingBackgroundImageIsNotFoundAndNamesIt() throws {
        let dir = TestEnvironment.scratchDirectory("nobg")
        let s = try script(#"{"canvas": {"background": "nothere.png"}, "actions": []}"#, in: dir)
        #expect {
            _ = try ScriptRenderer(options: options()).render(s)
        } throws: { error in
            let e = error as! RenderError
            return e.exitStatus == 66 && e.description.contains(dir.appendingPathComponent("nothere.png").path)
        }
    }

    @Test func clearEmptiesTheCanvas() throws {
        let dir = TestEnvironment.scratchDirectory("clear")
        let s = try script("""
            {"canvas": {"width": 20, "height": 20},
             "actions": [{"stroke": {"events": [{"x": 5, "y": 5}, {"x": 15, "y": 15}]}},
                         {"clear": true},
                         {"stroke": {"events": [{"x": 2, "y": 18}]}}]}
            """, in: dir)
        let session = try ScriptRenderer(options: options()).render(s)
        let c = session.committed
        #expect(c.pixels[10 * c.strideBytes + 10 * 4 + 3] == 0, "the first stroke is gone")
        #expect(c.pixels[18 * c.strideBytes + 2 * 4 + 3] > 0, "the stroke after clear is there")
        #expect(c.hasSamePixels(as: session.base))
    }

    @Test func brushFlagSkipsScriptParametersItDoesNotHave() throws {
        let dir = TestEnvironment.scratchDirectory("override")
        let probe = try CCompiler.buildFixture("probe")
        let s = try script("""
            {"actions": [{"brush": {"id": "org.bristle.pencil", "params": {"opacity": 0.5}}},
                         {"stroke": {"events": [{"x": 5, "y": 5}]}}]}
            """, in: dir)
        var o = options()
        o.brush = "org.bristle.pencil"
        o.canvasSize = (16, 16)
        #expect(try ScriptRenderer(options: o).render(s).width == 16)
        o.brush = probe
        #expect {
            _ = try ScriptRenderer(options: o).render(s)
        } throws: { error in
            // The probe library holds two brushes, so a path alone is ambiguous.
            guard case .brush(.ambiguousLibrary(_, let ids)) = error as! RenderError else { return false }
            return ids == ["test.probe.continuous", "test.probe.shape"]
        }
        let renderer = ScriptRenderer(options: {
            var x = options(); x.searchDirectories = [URL(fileURLWithPath: probe).deletingLastPathComponent().path]
            x.brush = "test.probe.continuous"; x.canvasSize = (16, 16); return x
        }())
        _ = try renderer.render(s)
        #expect(renderer.stats.skippedParameters == ["opacity"])
    }

    @Test func redoWithNothingToRedoIsALocatedWarningNotAnError() throws {
        let dir = TestEnvironment.scratchDirectory("undo")
        let s = try script("{\"actions\": [\n  {\"redo\": 2}]}", in: dir)
        let renderer = ScriptRenderer(options: options())
        _ = try renderer.render(s)
        #expect(renderer.stats.warnings.count == 1)
        let warning = try #require(renderer.stats.warnings.first)
        #expect(warning.hasSuffix("script.json:2:3: warning: redo 2 did 0: the history held only 0 undone step(s) to redo"), "\(warning)")
    }

    @Test func absurdBrushWidthIsALocatedError() throws {
        let dir = TestEnvironment.scratchDirectory("width")
        let path = dir.appendingPathComponent("script.json").path
        try #"{"actions": [{"brush": {"width": 1e30}}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try ScriptRenderer.loadScript(path: path)
        } throws: { error in
            let e = error as! RenderError
            return e.exitStatus == 65 && e.description.contains("script.json:1:34") && e.description.contains("(0, 10000]")
        }
    }

    @Test func predictionsNeverChangeTheRenderedPicture() throws {
        // The issue's example with its predicted samples, and the same script without them.
        let dir = TestEnvironment.scratchDirectory("predicted")
        let with = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json"), encoding: .utf8)
        #expect(with.contains("\"predicted\""))
        let without = with.replacingOccurrences(
            of: #",\s*"predicted": \[[^\]]*\]"#, with: "", options: .regularExpression)
        #expect(!without.contains("predicted"))
        let a = try ScriptRenderer(options: options()).render(try script(with, in: dir)).flattenedPixels(transparent: false)
        let b = try ScriptRenderer(options: options()).render(try script(without, in: dir)).flattenedPixels(transparent: false)
        #expect(differingBytes(a, b) == 0)
    }

    @Test func scriptPredictionsReachABrushThatWantsThem() throws {
        // The continuous probe draws into the preview only when predicted samples arrive, and
        // counts those draws: the script's `predicted` arrays get there, the others do not.
        let probe = try CCompiler.buildFixture("probe")
        let dir = TestEnvironment.scratchDirectory("reach")
        let with = """
            {"canvas": {"width": 40, "height": 40}, "actions": [{"stroke": {"pointerType": "pen", "events": [
              {"x": 5, "y": 5, "predicted": [{"x": 9, "y": 9}]},
              {"x": 10, "y": 8, "predicted": [{"x": 14, "y": 10}, {"x": 18, "y": 12}]},
              {"x": 20, "y": 12}]}}]}
            """
        let without = with.replacingOccurrences(of: #",\s*"predicted": \[[^\]]*\]"#, with: "", options: .regularExpression)
        #expect(!without.contains("predicted"))
        func previewDraws(_ text: String) throws -> Double {
            var o = options()
            o.searchDirectories = [URL(fileURLWithPath: probe).deletingLastPathComponent().path]
            o.brush = "test.probe.continuous"
            return try ScriptRenderer(options: o).render(try script(text, in: dir)).brush!.value(of: "draws-preview")!
        }
        #expect(try previewDraws(with) == 2, "two events carry predicted samples")
        #expect(try previewDraws(without) == 0)
    }

    @Test func absurdCoordinatesAreDroppedAndCounted() throws {
        let dir = TestEnvironment.scratchDirectory("absurd")
        let s = try script("""
            {"canvas": {"width": 40, "height": 40},
             "actions": [{"stroke": {"events": [{"x": 1e300, "y": 5}, {"x": 5, "y": 5},
                                                {"x": 20, "y": -3e9}, {"x": 30, "y": 30}]}}]}
            """, in: dir)
        let renderer = ScriptRenderer(options: options())
        let session = try renderer.render(s)
        #expect(renderer.stats.droppedSamples == 2)
        #expect(renderer.stats.strokes == 1)
        let c = session.committed
        #expect(c.pixels[17 * c.strideBytes + 17 * 4 + 3] > 0, "the stroke from (5,5) to (30,30) is drawn")
    }

    @Test func pressureCurveReachesTheBrush() throws {
        let dir = TestEnvironment.scratchDirectory("curve")
        let s = try script("""
            {"canvas": {"width": 60, "height": 30},
             "actions": [{"brush": {"width": 10}},
                         {"stroke": {"pointerType": "pen", "events": [{"x": 10, "y": 15, "pressure": 0.5}, {"x": 50, "y": 15, "pressure": 0.5}]}}]}
            """, in: dir)
        func area(_ curve: PressureCurve) throws -> Int {
            var o = options()
            o.pressureCurve = curve
            return try ScriptRenderer(options: o).render(s).committed.packedPixels().enumerated()
                .filter { $0.offset % 4 == 3 }.reduce(0) { $0 + Int($1.element) }
        }
        // The pencil's width factor is 0.25 + 0.75 p: gamma 2 turns 0.5 into 0.25, a thinner line.
        #expect(try area(.gamma(2)) < area(.identity))
        #expect(try area(.points([.init(x: 0, y: 1), .init(x: 1, y: 1)])) > area(.identity))
    }

    @Test func renderingTwiceGivesTheSamePixels() throws {
        let dir = TestEnvironment.scratchDirectory("seed")
        let s = try script(#"{"canvas": {"width": 40, "height": 40}, "actions": [{"stroke": {"events": [{"x": 5, "y": 5}, {"x": 35, "y": 30, "pressure": 0.3}]}}]}"#, in: dir)
        var o = options()
        o.seed = 42
        let a = try ScriptRenderer(options: o).render(s).committed.packedPixels()
        let b = try ScriptRenderer(options: o).render(s).committed.packedPixels()
        #expect(differingBytes(a, b) == 0)
        #expect(a.contains { $0 != 0 })
    }
}
