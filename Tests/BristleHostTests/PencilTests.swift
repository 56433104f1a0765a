import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The reference pencil (Plugins/Pencil/pencil.c), loaded from the built .so as any host would.
@Suite struct PencilTests {
    static let library: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristlePencil"))

    private func session(width: Int = 120, height: Int = 80, opacity: Double? = nil) throws -> DrawingSession {
        let s = try DrawingSession(width: width, height: height, background: .color(.white))
        let brush = try Brush(id: "org.bristle.pencil", library: Self.library, host: BrushHost())
        if let opacity { try brush.setParameter("opacity", value: opacity) }
        s.brush = brush
        s.color = .black
        s.strokeWidth = 10
        return s
    }

    private func sample(_ x: Double, _ y: Double, pressure: Double? = nil) -> bristle_sample_t {
        penSample(x, y, pressure: pressure)
    }

    private func draw(_ s: DrawingSession, _ points: [(Double, Double)], pressure: Double? = nil) throws {
        let device = DrawingSession.Device(flags: pressure == nil ? 0 : BRISTLE_SAMPLE_HAS_PRESSURE,
                                           pointerType: BRISTLE_POINTER_PEN)
        try s.begin(sample(points[0].0, points[0].1, pressure: pressure), device: device)
        for p in points.dropFirst() { try s.move([sample(p.0, p.1, pressure: pressure)]) }
        try s.end(sample(points.last!.0, points.last!.1, pressure: pressure))
    }

    /// Sum of alpha over the committed layer, in pixels of full coverage.
    private func inkArea(_ layer: Layer) -> Double {
        var total = 0
        for y in 0..<layer.height { for x in 0..<layer.width { total += Int(layer.pixels[y * layer.strideBytes + x * 4 + 3]) } }
        return Double(total) / 255
    }

    @Test func descriptorAndParameters() throws {
        let d = try #require(Self.library.descriptor(id: "org.bristle.pencil"))
        #expect(d.capabilities.contains([.continuous, .wantsPredicted, .deterministic]))
        #expect(!d.capabilities.contains(.wantsTicks))
        let brush = try Brush(id: "org.bristle.pencil", library: Self.library, host: BrushHost())
        #expect(brush.parameters.map(\.id) == ["opacity", "pressure-width", "min-width"])
        try brush.setParameter("opacity", text: "0.25")
        #expect(brush.value(of: "opacity") == 0.25)
        try brush.setParameter("opacity", value: 7)
        #expect(brush.value(of: "opacity") == 1, "out-of-range values are clamped")
        #expect(throws: BrushError.self) { try brush.setParameter("opacity", text: "lots") }
        #expect(throws: BrushError.self) { try brush.setParameter("colour", text: "1") }
    }

    @Test func aStraightStrokeHasTheAreaOfItsCapsule() throws {
        let s = try session()
        try draw(s, [(20, 40), (50, 40), (80, 40)])
        // A capsule of length 60 and diameter 10: 60 * 10 + pi * 5^2.
        let expected = 600 + Double.pi * 25
        #expect(abs(inkArea(s.committed) - expected) < 2.0, "\(inkArea(s.committed)) vs \(expected)")
    }

    @Test func opacityIsPerStrokeNotPerSegment() throws {
        let s = try session(opacity: 0.5)
        // A zig-zag whose segments overlap heavily, and a closed loop over its own start.
        try draw(s, [(20, 20), (60, 60), (20, 60), (60, 20), (20, 20), (90, 40), (30, 40)])
        var maximum: UInt8 = 0
        for y in 0..<s.height { for x in 0..<s.width { maximum = max(maximum, s.committed.pixels[y * s.committed.strideBytes + x * 4 + 3]) } }
        #expect(maximum == 128, "a 50 % stroke never gets darker than 50 %, got alpha \(maximum)")
    }

    @Test func pressureModulatesTheWidth() throws {
        let light = try session(), heavy = try session(), none = try session()
        try draw(light, [(20, 40), (100, 40)], pressure: 0.2)
        try draw(heavy, [(20, 40), (100, 40)], pressure: 1.0)
        try draw(none, [(20, 40), (100, 40)])
        // Width factor = 0.25 + 0.75 p: 0.4 at p = 0.2, 1 at p = 1 and without pressure.
        let lightArea = inkArea(light.committed), heavyArea = inkArea(heavy.committed)
        #expect(abs(heavyArea - (800 + .pi * 25)) < 2)
        #expect(abs(lightArea - (80 * 4 + .pi * 4)) < 2, "\(lightArea)")
        #expect(abs(inkArea(none.committed) - heavyArea) < 0.01, "no pressure flag means full width")
    }

    @Test func aSampleWithoutPressureReusesTheStrokesLastPressure() throws {
        let s = try session()
        let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)
        try s.begin(sample(20, 40, pressure: 0.2), device: device)
        try s.move([sample(60, 40)])  // no pressure: keeps 0.2, not full width
        try s.end(sample(100, 40, pressure: 0.2))
        #expect(abs(inkArea(s.committed) - (80 * 4 + .pi * 4)) < 2, "\(inkArea(s.committed))")
    }

    @Test func aTapIsADot() throws {
        let s = try session()
        try draw(s, [(40, 40)])
        #expect(abs(inkArea(s.committed) - .pi * 25) < 1)
    }

    @Test func predictionsNeverChangeThePencilResult() throws {
        let with = try session(opacity: 0.7), without = try session(opacity: 0.7)
        let device = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_PEN)
        var predicted = sample(110, 10)
        predicted.flags |= BRISTLE_SAMPLE_PREDICTED
        try with.begin(sample(10, 70), device: device, predicted: [predicted])
        try without.begin(sample(10, 70), device: device)
        for i in 1..<10 {
            let p = sample(10 + Double(i) * 9, 70 - Double(i) * 5)
            try with.move([p], predicted: [predicted])
            try without.move([p])
            #expect(with.committed.hasSamePixels(as: without.committed))
        }
        #expect(!with.preview.hasSamePixels(as: with.committed), "the prediction shows in the preview")
        try with.end(sample(91, 25))
        try without.end(sample(91, 25))
        #expect(with.committed.hasSamePixels(as: without.committed))
        #expect(with.preview.hasSamePixels(as: with.committed))
    }

    @Test func cancelRestoresThePencilStroke() throws {
        let s = try session()
        try draw(s, [(10, 10), (60, 30)])
        let before = s.committed.packedPixels()
        let device = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_PEN)
        try s.begin(sample(10, 70), device: device)
        try s.move([sample(100, 20)])
        s.cancel()
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
        // The next stroke is not polluted by the cancelled stroke's mask.
        try draw(s, [(100, 70), (110, 70)])
        #expect(s.committed.pixels[20 * s.committed.strideBytes + 100 * 4 + 3] == 0)
    }

    @Test(arguments: ["hello", "bdalab-pen", "wacom-pen"])
    func goldenRenders(_ name: String) throws {
        let script = try ScriptRenderer.loadScript(path: TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/\(name).json").path)
        var options = RenderOptions()
        options.searchDirectories = [TestEnvironment.productsDirectory.path]
        let session = try ScriptRenderer(options: options).render(script)
        let mismatch = try GoldenImage.compare(session.flattenedPixels(transparent: false), width: session.width,
                                               height: session.height, name: "pencil/\(name)")
        #expect(mismatch == nil, "\(mismatch!)")
    }
}
