@testable import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Issue 15 in the library: the work-saving changes give the same pixels and the same
/// messages as the plain way (undo/redo runs folded, clears of drawn tiles only, the preview
/// allocated late, the mask compositor's table, rows streamed to the PNG encoder, events
/// decoded while parsing), and the small types behind the checks. Speed and memory are
/// measured by `bristle bench` (the `script_*` cases), never here.
@Suite struct ResourceBoundsTests {
    static let pencilLibrary: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristlePencil"))

    private func options() -> RenderOptions {
        var o = RenderOptions()
        o.searchDirectories = [TestEnvironment.productsDirectory.path]
        return o
    }

    private func render(_ json: String) throws -> (ScriptRenderer, DrawingSession) {
        let script = try StrokeScriptReader.parse(json, sourcePath: "/virtual/s.json")
        let renderer = ScriptRenderer(options: options())
        return (renderer, try renderer.render(script))
    }

    private static func stroke(_ points: [(Int, Int)]) -> String {
        "{\"stroke\": {\"events\": [" + points.map { "{\"x\": \($0.0), \"y\": \($0.1), \"pressure\": 0.7}" }.joined(separator: ", ") + "]}}"
    }

    private let strokes = [stroke([(10, 10), (200, 40)]), stroke([(30, 180), (120, 60), (220, 200)]),
                           stroke([(5, 120), (250, 130)])]

    // MARK: Undo and redo runs

    @Test func aFoldedRunOfUndoAndRedoEqualsTheStepsOneByOne() throws {
        let run = ["{\"undo\": 2}", "{\"redo\": 1}", "{\"undo\": 3}", "{\"redo\": 5}", "{\"undo\": 1}", "{\"redo\": 1}", "{\"undo\": 1}"]
        func script(_ separator: String) -> String {
            "{\"canvas\": {\"width\": 256, \"height\": 256}, \"actions\": [" + (strokes + run.map { $0 + separator }).joined(separator: ", ") + "]}"
        }
        // `ticks 0` between the actions applies each one on its own (a run ends at any other action).
        let (folded, a) = try render(script(""))
        let (single, b) = try render(script(", {\"ticks\": 0}"))
        #expect(a.committed.hasSamePixels(as: b.committed))
        #expect(a.history.undoCount == b.history.undoCount && a.history.redoCount == b.history.redoCount)
        #expect(folded.stats.undoneSteps == single.stats.undoneSteps && folded.stats.redoneSteps == single.stats.redoneSteps)
        #expect(folded.stats.undoneSteps == 2 + 2 + 1 + 1 && folded.stats.redoneSteps == 1 + 3 + 1)
        #expect(folded.stats.warnings.count == 2, "undo 3 and redo 5 were short: \(folded.stats.warnings)")
        #expect(folded.stats.warnings.map { $0.split(separator: ":").dropFirst(3).joined(separator: ":") }
                == single.stats.warnings.map { $0.split(separator: ":").dropFirst(3).joined(separator: ":") })
        #expect(a.committed.hasSamePixels(as: a.base) && a.committed.hasSamePixels(as: a.preview))
    }

    @Test func anUndoRedoPairStillStopsTicks() throws {
        let json = """
            {"canvas": {"width": 128, "height": 96}, "actions": [{"brush": {"id": "org.bristle.force-hue"}},
             \(Self.stroke([(10, 10), (100, 80)])), {"undo": 1}, {"redo": 1}, {"ticks": 5}]}
            """
        let (renderer, _) = try render(json)
        #expect(renderer.stats.ignoredTicks == 5 && renderer.stats.ticks == 0)
    }

    // MARK: Clears

    @Test func clearsEmptyEverythingDrawnAfterAnyUndoOrRedo() throws {
        let s = try DrawingSession(width: 300, height: 200)
        s.brush = try Brush(id: "org.bristle.pencil", library: Self.pencilLibrary, host: BrushHost())
        s.strokeWidth = 12
        let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)
        try s.begin(penSample(10, 10, pressure: 0.8), device: device)
        try s.move([penSample(290, 190, pressure: 0.8)])
        try s.end(penSample(290, 190, pressure: 0.8))
        let drawn = s.committed.packedPixels()
        let empty = [UInt8](repeating: 0, count: drawn.count)
        #expect(drawn != empty)
        for _ in 0..<3 {
            let cleared = try s.clear()
            #expect(!cleared.dirty.isEmpty)
            #expect(s.committed.packedPixels() == empty)
            #expect(try s.clear().dirty.isEmpty, "a clear of an empty canvas touches nothing")
            try s.undo(2)
            #expect(s.committed.packedPixels() == drawn, "undo brings the drawing back")
        }
        try s.redo()
        #expect(s.committed.packedPixels() == empty)
        try s.undo()
        #expect(s.committed.hasSamePixels(as: s.base))
    }

    // MARK: The preview

    @Test func thePreviewExistsOnlyOnceABrushDrawsOneAndThenMatchesCommitted() throws {
        let s = try DrawingSession(width: 200, height: 150)
        s.brush = try Brush(id: "org.bristle.pencil", library: Self.pencilLibrary, host: BrushHost())
        let device = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_MOUSE)
        try s.begin(penSample(10, 10), device: device)
        try s.move([penSample(150, 100)])
        try s.end(penSample(150, 100))
        try s.clear()
        try s.undo()
        #expect(!s.hasPreview, "a continuous brush without predictions never needs the preview")
        try s.begin(penSample(20, 120), device: device)
        try s.move([penSample(60, 60)], predicted: [penSample(120, 20, predicted: true)])
        #expect(s.hasPreview, "a prediction is drawn into the preview")
        #expect(!s.preview.hasSamePixels(as: s.committed), "the prediction shows")
        try s.end(penSample(60, 60))
        #expect(s.preview.hasSamePixels(as: s.committed), "the first stroke was copied in when the preview appeared")
        let late = try DrawingSession(width: 200, height: 150)
        late.brush = s.brush
        try late.begin(penSample(10, 10), device: device)
        try late.end(penSample(190, 140))
        #expect(late.preview.hasSamePixels(as: late.committed), "reading the preview late brings it up to date")
    }

    // MARK: Compositing through a mask

    @Test(arguments: [(BlendMode.sourceOver, 0.5), (.sourceOver, 0.3), (.sourceOver, 1.0), (.erase, 1.0), (.erase, 0.6), (.erase, 0.0)])
    func compositingOverABaseMatchesThePixelFormula(_ blend: BlendMode, _ opacity: Double) {
        var random = SplitMix64(seed: 15)
        func byte() -> UInt8 { UInt8(truncatingIfNeeded: random.next()) }
        let width = 37, height = 5
        // Premultiplied base pixels (every channel at most alpha) and a mask with 0s and 255s.
        var base = [UInt8](), target = [UInt8](repeating: 9, count: width * height * 4)
        for _ in 0..<(width * height) {
            let a = byte()
            base += [UInt8(Int(byte()) * Int(a) / 255), UInt8(Int(byte()) * Int(a) / 255), UInt8(Int(byte()) * Int(a) / 255), a]
        }
        var mask = (0..<(width * height)).map { i in i % 7 == 0 ? 0 : i % 5 == 0 ? 255 : byte() }
        let paint = Paint(color: RGBAColor(red: 0.8, green: 0.2, blue: 0.5, alpha: 0.7), opacity: Float(opacity), blend: blend)
        let source = SpanCompositor.Source(paint)
        base.withUnsafeMutableBufferPointer { b in
            target.withUnsafeMutableBufferPointer { t in
                mask.withUnsafeMutableBufferPointer { m in
                    let plane = RGBAPlane(base: t.baseAddress!, width: width, height: height, strideBytes: width * 4)
                    let basePlane = RGBAPlane(base: b.baseAddress!, width: width, height: height, strideBytes: width * 4)
                    let maskPlane = MaskPlane(base: m.baseAddress!, width: width, height: height, strideBytes: width)
                    _ = Rasterizer().compositeMask(maskPlane, rect: plane.bounds, paint: paint, onto: plane, base: basePlane)
                    for i in 0..<(width * height) {
                        var expected = Array(b[(i * 4)..<(i * 4 + 4)])
                        let c = source.isNoOp ? 0 : source.effective(m[i])
                        if c != 0 {
                            expected.withUnsafeMutableBufferPointer { e in
                                SpanCompositor.blendPixel(UnsafePointer(b.baseAddress! + i * 4), e.baseAddress!, c, source)
                            }
                        }
                        #expect(Array(t[(i * 4)..<(i * 4 + 4)]) == expected, "pixel \(i), mask \(m[i])")
                    }
                }
            }
        }
    }

    @Test func clearingAMaskRectZeroesItAndNothingElse() {
        var cells = [UInt8](repeating: 0, count: 40 * 6)
        for i in stride(from: 3, to: cells.count, by: 5) { cells[i] = 200 }
        let before = cells
        cells.withUnsafeMutableBufferPointer { buffer in
            MaskPlane(base: buffer.baseAddress!, width: 40, height: 6, strideBytes: 40)
                .clear(PixelRect(x: 5, y: 1, width: 30, height: 4))
        }
        for y in 0..<6 {
            for x in 0..<40 {
                let inside = (5..<35).contains(x) && (1..<5).contains(y)
                #expect(cells[y * 40 + x] == (inside ? 0 : before[y * 40 + x]), "(\(x), \(y))")
            }
        }
    }

    // MARK: Export by rows

    @Test func aTiledBackgroundExportsTheFlattenedPicture() throws {
        let dir = TestEnvironment.scratchDirectory("rows-export")
        let texture: [UInt8] = [200, 0, 0, 255, 0, 0, 0, 0, 0, 90, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0, 255, 255, 255, 255]
        let background = try #require(Background.tiled(premultiplied: texture, imageWidth: 3, imageHeight: 2))
        let s = try DrawingSession(width: 70, height: 33, background: background)
        s.brush = try Brush(id: "org.bristle.pencil", library: Self.pencilLibrary, host: BrushHost())
        s.color = RGBAColor(red: 0, green: 0.5, blue: 1, alpha: 0.5)
        s.strokeWidth = 9
        try s.begin(penSample(3, 3), device: DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_MOUSE))
        try s.end(penSample(66, 29))
        for transparent in [false, true] {
            let path = dir.appendingPathComponent("out-\(transparent).png").path
            try s.exportPNG(to: path, transparent: transparent)
            #expect(try PNGCodec.read(path: path).pixels == s.flattenedPixels(transparent: transparent))
        }
    }

    @Test func anImageOfManyStripsRoundTripsThroughTheRowWriter() throws {
        let dir = TestEnvironment.scratchDirectory("rows-large")
        // 2100 x 1100 x 4 bytes: more than one 8 MiB strip, so strips stream in order.
        let width = 2100, height = 1100
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            [UInt8(truncatingIfNeeded: x &* 7 &+ y), UInt8(truncatingIfNeeded: y &* 3), UInt8(truncatingIfNeeded: x ^ y), 255]
        }
        let path = dir.appendingPathComponent("large.png").path
        try PNGCodec.write(rows: { y, row in
            for x in 0..<width { for (i, v) in pixel(x, y).enumerated() { row[x * 4 + i] = v } }
        }, width: width, height: height, premultiplied: false, to: path)
        let image = try PNGCodec.read(path: path)
        #expect(image.width == width && image.height == height)
        for (x, y) in [(0, 0), (2099, 0), (1000, 549), (17, 1099), (2099, 1099)] {
            #expect(Array(image.pixels[(y * width + x) * 4..<(y * width + x) * 4 + 4]) == pixel(x, y), "(\(x), \(y))")
        }
    }

    // MARK: Events decoded while parsing

    @Test func eventErrorsKeepTheirFileOrderAndPath() throws {
        func error(_ json: String) -> String {
            do {
                _ = try StrokeScriptReader.parse(json, sourcePath: "e.json")
                return "no error"
            } catch {
                return error.headline
            }
        }
        let badEvent = #"{"stroke": {"events": [{"x": 1, "y": 1}, {"x": 2, "y": 2, "pressure": 3}]}}"#
        #expect(error(#"{"canvas": {"colour": 1}, "actions": [\#(badEvent)]}"#).contains("e.json:1:13: canvas"),
                "an earlier problem wins")
        #expect(error(#"{"actions": [\#(badEvent)], "canvas": {"colour": 1}}"#)
                == "e.json:1:84: actions[0].stroke.events[1].pressure: expected a number in [0, 1], found 3")
        #expect(error(#"{"actions": [{"stroke": {"pointerType": "quill", "events": [{"x": 1}]}}]}"#).contains("pointerType"),
                "the stroke's earlier key first")
        #expect(error(#"{"actions": [{"stroke": {"events": [{"x": 1, "y": 1, "events": [{"x": 1, "y": 1}]}]}}]}"#)
                .contains("actions[0].stroke.events[0]: expected a key of an event, found the unknown key \"events\""))
        #expect(error(#"{"actions": [{"stroke": {"events": []}}]}"#).contains("expected at least one event"))
        #expect(error(#"{"actions": [\#(badEvent) "#).contains("expected ',' or ']'"), "a syntax error anywhere wins")
    }

    @Test func aSampleKeepsEveryOptionalFieldAndItsAbsence() {
        var s = PointerSample(x: 1, y: 2)
        let fields: [WritableKeyPath<PointerSample, Double?>] = [\.pressure, \.tiltX, \.tiltY, \.twist, \.altitudeAngle,
                                                                 \.azimuthAngle, \.tangentialPressure, \.width, \.height,
                                                                 \.timeStamp, \.force, \.maxForce]
        for (i, field) in fields.enumerated() {
            #expect(s[keyPath: field] == nil)
            s[keyPath: field] = Double(i) + 0.5
        }
        s.buttons = 0
        for (i, field) in fields.enumerated() { #expect(s[keyPath: field] == Double(i) + 0.5) }
        #expect(s.buttons == 0, "0 is a value, not an absence")
        var t = s
        t.pressure = 0
        #expect(t != s)
        t.pressure = nil
        #expect(t.pressure == nil && t != s)
        t.pressure = 0.5
        #expect(t == s)
    }

    // MARK: The small types behind the checks

    @Test func fileKindsAreToldApartWithoutOpening() throws {
        let dir = TestEnvironment.scratchDirectory("kinds")
        let fifo = dir.appendingPathComponent("f").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let file = dir.appendingPathComponent("r").path
        try "x".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(FileKind(path: fifo) == .fifo && FileKind(path: fifo).notRegularDescription == "a FIFO (named pipe)")
        #expect(FileKind(path: file) == .regular && FileKind(path: file).notRegularDescription == nil)
        #expect(FileKind(path: dir.path) == .directory)
        #expect(FileKind(path: "/dev/null") == .characterDevice)
        #expect(FileKind(path: dir.appendingPathComponent("none").path) == .missing)
        #expect(FileKind(path: file + "/below") == .missing)
    }

    @Test func theMemoryPlanCountsLayersMasksAndHeadroom() {
        let plan = MemoryPlan(width: 16384, height: 16384)
        // 16384 pixels are 1,024 lines of 64 bytes; the stride is 1,025 of them (odd).
        #expect(plan.layerBytes == 2 * 1025 * 64 * 16384 && plan.maskBytes == 512 << 20)
        #expect(plan.neededBytes == 2 * 1025 * 64 * 16384 + (512 << 20) + MemoryPlan.headroomBytes)
        #expect(plan.breakdown.hasPrefix("2.6 GiB (two canvas layers of 1.0 GiB each"))
        #expect(MemoryPlan(width: 10, height: 1).layerBytes == 2 * 64, "rows are padded to 64 bytes")
        #expect(MemoryPlan(width: 32, height: 1).layerBytes == 2 * 192, "to an odd multiple of 64 bytes")
        #expect(MemoryPlan.canReserve(1 << 20))
        #expect(!MemoryPlan.canReserve(1 << 60), "no process gets an exbibyte")
    }

    @Test func terminalTextEscapesControlsAndKeepsTheRest() {
        #expect(TerminalText.escaped("plain é 🖌 text") == "plain é 🖌 text")
        #expect(TerminalText.escaped("a\u{1B}[2Jb\u{7}\u{0}\u{7F}\u{9B}\u{202E}") == "a\\u{1B}[2Jb\\u{7}\\u{0}\\u{7F}\\u{9B}\\u{202E}")
        #expect(TerminalText.escaped("two\nlines\r") == "two\\u{A}lines\\u{D}")
        #expect(TerminalText.escaped("two\nlines\r", keepingNewlines: true) == "two\nlines\\u{D}")
    }
}
