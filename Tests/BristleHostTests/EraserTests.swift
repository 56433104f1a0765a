import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `org.bristle.eraser`, the second brush of the pencil's library: the pencil's path as a true
/// erase (destination-out), so the background, colour or image, shows through.
@Suite struct EraserTests {
    static let library: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristlePencil"))

    private func sample(_ x: Double, _ y: Double) -> bristle_sample_t { penSample(x, y) }

    private func draw(_ s: DrawingSession, _ id: String, _ a: (Double, Double), _ b: (Double, Double),
                      opacity: Double = 1) throws {
        let brush = try Brush(id: id, library: Self.library, host: BrushHost())
        try brush.setParameter("opacity", value: opacity)
        s.brush = brush
        let device = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_PEN)
        try s.begin(sample(a.0, a.1), device: device)
        try s.move([sample(b.0, b.1)])
        try s.end(sample(b.0, b.1))
    }

    private func alpha(_ layer: Layer, _ x: Int, _ y: Int) -> UInt8 { layer.pixels[y * layer.strideBytes + x * 4 + 3] }

    @Test func oneLibraryHoldsThePencilAndTheEraser() {
        #expect(Self.library.descriptors.map(\.id) == ["org.bristle.pencil", "org.bristle.eraser"])
        #expect(Self.library.descriptor(id: "org.bristle.eraser")?.capabilities.contains(.continuous) == true)
    }

    @Test func itErasesToTransparencyAndOpacityIsHowMuch() throws {
        let s = try DrawingSession(width: 120, height: 80)
        s.color = .black
        s.strokeWidth = 10
        try draw(s, "org.bristle.pencil", (10, 40), (110, 40))
        #expect(alpha(s.committed, 60, 40) == 255)
        try draw(s, "org.bristle.eraser", (60, 10), (60, 70))
        #expect(alpha(s.committed, 60, 40) == 0, "erased through")
        #expect(alpha(s.committed, 30, 40) == 255, "untouched away from the eraser")
        try draw(s, "org.bristle.eraser", (90, 10), (90, 70), opacity: 0.5)
        #expect(abs(Int(alpha(s.committed, 90, 40)) - 128) <= 1, "half strength removes half")
        #expect(s.committed.pixels[40 * s.committed.strideBytes + 90 * 4] <= alpha(s.committed, 90, 40),
                "still premultiplied")
    }

    @Test func itRevealsABackgroundImageNotAColour() throws {
        // A 2x2 checker of red and blue, tiled.
        let checker: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255]
        let background = try #require(Background.tiled(premultiplied: checker, imageWidth: 2, imageHeight: 2))
        let s = try DrawingSession(width: 120, height: 80, background: background)
        s.color = RGBAColor(red: 0, green: 1, blue: 0)
        s.strokeWidth = 10
        try draw(s, "org.bristle.pencil", (10, 40), (110, 40))
        try draw(s, "org.bristle.eraser", (60, 10), (60, 70))
        let flat = s.flattenedPixels(transparent: false)
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(flat[(y * 120 + x) * 4..<(y * 120 + x) * 4 + 4]) }
        #expect(px(60, 40) == [255, 0, 0, 255], "the checker's red shows where the ink was erased")
        #expect(px(61, 40) == [0, 0, 255, 255], "and its blue next to it")
        #expect(px(30, 40) == [0, 255, 0, 255], "the green ink stays elsewhere")
    }

    @Test func goldenEraserCrossingAPencilStrokeOverAnImage() throws {
        let dir = TestEnvironment.scratchDirectory("eraser-golden")
        // A deterministic 16x16 image: a soft diagonal gradient.
        var pixels: [UInt8] = []
        for y in 0..<16 { for x in 0..<16 { pixels += [UInt8(120 + x * 8), UInt8(160 + y * 5), 220, 255] } }
        try PNGCodec.write(rgba: pixels, width: 16, height: 16, strideBytes: 64, to: dir.appendingPathComponent("paper.png").path)
        let script = dir.appendingPathComponent("erase.json").path
        try """
            {"canvas": {"width": 160, "height": 100, "background": "paper.png"},
             "actions": [
              {"brush": {"id": "org.bristle.pencil", "color": "#202830", "width": 14}},
              {"stroke": {"pointerType": "pen", "events": [{"x": 15, "y": 50, "pressure": 0.4}, {"x": 80, "y": 35, "pressure": 1}, {"x": 145, "y": 60, "pressure": 0.6}]}},
              {"brush": {"id": "org.bristle.eraser", "width": 12}},
              {"stroke": {"pointerType": "pen", "events": [{"x": 60, "y": 10}, {"x": 70, "y": 90}]}},
              {"brush": {"id": "org.bristle.eraser", "width": 20, "params": {"opacity": 0.5}}},
              {"stroke": {"pointerType": "pen", "events": [{"x": 115, "y": 15}, {"x": 120, "y": 85}]}}]}
            """.write(toFile: script, atomically: true, encoding: .utf8)
        var options = RenderOptions()
        options.searchDirectories = [TestEnvironment.productsDirectory.path]
        let session = try ScriptRenderer(options: options).render(try ScriptRenderer.loadScript(path: script))
        let mismatch = try GoldenImage.compare(session.flattenedPixels(transparent: false), width: 160, height: 100,
                                               name: "eraser/over-image")
        #expect(mismatch == nil, "\(mismatch!)")
    }
}
