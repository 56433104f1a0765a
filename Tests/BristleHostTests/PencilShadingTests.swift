import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The Apple Pencil tutorial's brush (Plugins/PencilShading/pencil_shading.c), loaded from the
/// built .so as any host would. Expected widths are computed here from the tutorial's formulas
/// (drawing: force * 4, or 6 without force; shading: 60 * folded angle / (pi/2) * normAlt + 5;
/// finger: majorRadius / 2), then measured on the committed layer.
@Suite struct PencilShadingTests {
    /// Loaded once; a missing or broken .so fails each test instead of crashing the test run.
    static let loaded = Result { () throws(PluginLoadError) in
        try PluginLoader.load(path: TestEnvironment.plugin("BristlePencilShading"))
    }
    static var library: PluginLibrary { get throws { try loaded.get() } }
    static let id = "org.bristle.pencil-shading"

    private func session(width: Int = 200, height: Int = 140, scale: Float = 1,
                         background: Background = .color(.white), grain: Double? = 0,
                         finger: String? = nil) throws -> DrawingSession {
        let s = try DrawingSession(width: width, height: height, scale: scale, background: background)
        let brush = try Brush(id: Self.id, library: try Self.library, host: BrushHost())
        // Flat colour unless a test is about the texture, so coverage and alpha are exact.
        if let grain { try brush.setParameter("grain", value: grain) }
        if let finger { try brush.setParameter("finger", text: finger) }
        s.brush = brush
        s.color = .black
        return s
    }

    /// A pen sample; `force` (of a 4.17 maximum), `pressure` and tilt are flagged only when given.
    private func pen(_ x: Double, _ y: Double, force: Double? = nil, pressure: Double? = nil,
                     altitude: Double? = nil, azimuth: Double = 0,
                     type: UInt32 = BRISTLE_POINTER_PEN) -> bristle_sample_t {
        penSample(x, y, pressure: pressure, force: force, altitude: altitude, azimuth: azimuth, type: type)
    }

    /// A finger sample with a contact of `size` x `size` pixels (nil: no contact data).
    private func touch(_ x: Double, _ y: Double, size: Double? = 40) -> bristle_sample_t {
        var s = bristle_sample_t()
        s.struct_size = UInt32(MemoryLayout<bristle_sample_t>.size)
        s.x = x
        s.y = y
        s.pointer_type = BRISTLE_POINTER_TOUCH
        s.pressure = 0.5
        s.altitude = .pi / 2
        if let size {
            s.width = Float(size)
            s.height = Float(size)
            s.flags |= BRISTLE_SAMPLE_HAS_CONTACT
        }
        return s
    }

    /// One stroke: begin at the first sample, one event per further sample, end at the last.
    private func stroke(_ s: DrawingSession, _ samples: [bristle_sample_t]) throws {
        let flags = samples.reduce(UInt32(0)) { $0 | $1.flags }
        let device = DrawingSession.Device(flags: flags, pointerType: samples[0].pointer_type)
        try s.begin(samples[0], device: device)
        for sample in samples.dropFirst() { try s.move([sample]) }
        try s.end(samples.last!)
    }

    /// A straight stroke from x0 to x1 at height y, every 10 pixels.
    private func line(_ x0: Double, _ x1: Double, y: Double,
                      _ make: (Double, Double) -> bristle_sample_t) -> [bristle_sample_t] {
        stride(from: x0, through: x1, by: 10).map { make($0, y) }
    }

    private func alpha(_ layer: Layer, _ x: Int, _ y: Int) -> Int {
        Int(layer.pixels[y * layer.strideBytes + x * 4 + 3])
    }

    /// Sum of alpha over the layer, in pixels of full coverage.
    private func inkArea(_ layer: Layer) -> Double {
        var total = 0
        for y in 0..<layer.height { for x in 0..<layer.width { total += alpha(layer, x, y) } }
        return Double(total) / 255
    }

    /// Sum of alpha down one column, in pixels of full coverage: the width of a horizontal
    /// stroke of alpha 1 at that column, whatever its caps.
    private func columnInk(_ layer: Layer, x: Int) -> Double {
        Double((0..<layer.height).reduce(0) { $0 + alpha(layer, x, $1) }) / 255
    }

    /// Area of a round-capped segment of length `length` and diameter `width`.
    private func capsule(_ length: Double, _ width: Double) -> Double {
        length * width + .pi * width * width / 4
    }

    /// The tutorial's shading width for a stroke along +x, straight from its formula.
    private func shadingWidth(altitude: Double, azimuth: Double) -> Double {
        var angle = abs(atan2(0.0, 1.0) - atan2(sin(azimuth), cos(azimuth)))
        if angle > .pi { angle = 2 * .pi - angle }
        if angle > .pi / 2 { angle = .pi - angle }
        let normAlt = 1 - (max(altitude, 0.25) - 0.25) / (.pi / 6 - 0.25)
        return 60 * angle / (.pi / 2) * normAlt + 5
    }

    @Test func descriptorAndParameters() throws {
        let d = try #require(try Self.library.descriptor(id: Self.id))
        #expect(d.capabilities.contains([.continuous, .wantsPredicted, .deterministic]))
        #expect(!d.capabilities.contains(.wantsTicks))
        let brush = try Brush(id: Self.id, library: try Self.library, host: BrushHost())
        #expect(brush.parameters.map(\.id) == ["grain", "finger", "background"])
        #expect(brush.value(of: "grain") == 0.5)
        #expect(brush.value(of: "finger") == 0, "a finger erases for real by default")
        #expect(brush.color(of: "background") == .white)
        try brush.setParameter("finger", text: "paint-background")
        #expect(brush.value(of: "finger") == 1)
        try brush.setParameter("grain", value: 3)
        #expect(brush.value(of: "grain") == 1, "out-of-range values are clamped")
        try brush.setParameter("background", color: RGBAColor(red: 0.2, green: 0.4, blue: 0.8))
        #expect(brush.color(of: "background") == RGBAColor(red: 0.2, green: 0.4, blue: 0.8))
        #expect(throws: BrushError.self) { try brush.setParameter("finger", text: "smudge") }
        #expect(throws: BrushError.self) { try brush.setParameter("opacity", value: 1) }
    }

    // MARK: Drawing (an upright pen)

    @Test func anUprightPenWithForceOneDrawsWidthFour() throws {
        let s = try session()
        try stroke(s, line(20, 80, y: 40) { pen($0, $1, force: 1, altitude: .pi / 2) })
        // force * 4 = 4: a capsule of length 60 and diameter 4.
        let area = inkArea(s.committed), expected = capsule(60, 4)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
        #expect(alpha(s.committed, 50, 40) == 255, "drawing is opaque")
    }

    @Test(arguments: [0.0, nil] as [Double?])
    func zeroOrUnknownForceDrawsWidthSix(force: Double?) throws {
        let s = try session()
        try stroke(s, line(20, 80, y: 40) { pen($0, $1, force: force, altitude: .pi / 2) })
        let area = inkArea(s.committed), expected = capsule(60, 6)
        #expect(abs(area - expected) < 2, "force \(String(describing: force)): \(area) vs \(expected)")
    }

    @Test func withoutForcePressureStandsForForceTimesTheMaximum() throws {
        let s = try session()
        try stroke(s, line(20, 80, y: 40) { pen($0, $1, pressure: 0.5) })
        // force = 0.5 * 4.17, width = force * 4 = 8.34.
        let area = inkArea(s.committed), expected = capsule(60, 0.5 * 4.17 * 4)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
    }

    @Test func forceInAnotherDevicesUnitsIsTakenAsAFractionOfItsRange() throws {
        // An InkML pen reporting F = 16383.5 of 32767: half its range, like an Apple Pencil at
        // 2.085 of 4.17, so width 0.5 * 4.17 * 4 = 8.34 (not 16383.5 * 4).
        let s = try session()
        try stroke(s, line(20, 80, y: 40) {
            var sample = pen($0, $1, force: 16383.5, altitude: .pi / 2)
            sample.max_force = 32767
            return sample
        })
        let area = inkArea(s.committed), expected = capsule(60, 0.5 * 4.17 * 4)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
    }

    @Test func aSampleWithoutForceReusesTheStrokesLastForce() throws {
        let s = try session()
        let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_FORCE, pointerType: BRISTLE_POINTER_PEN)
        try s.begin(pen(20, 40, force: 2), device: device)
        try s.move([pen(50, 40)])  // no force: keeps 2 (width 8), not the default 6
        try s.end(pen(80, 40, force: 2))
        let area = inkArea(s.committed), expected = capsule(60, 8)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
    }

    @Test func justAboveTheTiltThresholdTheTiltedPenStillDraws() throws {
        let s = try session()
        try stroke(s, line(20, 80, y: 40) { pen($0, $1, force: 2, altitude: .pi / 6 + 0.01, azimuth: .pi / 2) })
        let area = inkArea(s.committed), expected = capsule(60, 8)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
    }

    @Test func aMouseIgnoresTiltAndDrawsWidthSix() throws {
        let s = try session()
        try stroke(s, line(20, 80, y: 40) { pen($0, $1, altitude: 0.25, azimuth: .pi / 2, type: BRISTLE_POINTER_MOUSE) })
        let area = inkArea(s.committed), expected = capsule(60, 6)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
    }

    @Test func widthsAreInPointsTimesTheScale() throws {
        let s = try session(scale: 2)
        try stroke(s, line(20, 80, y: 40) { pen($0, $1, force: 1) })
        let area = inkArea(s.committed), expected = capsule(60, 8)
        #expect(abs(area - expected) < 2, "\(area) vs \(expected)")
    }

    @Test func aTapLeavesNoMarkAsInTheTutorial() throws {
        let s = try session()
        try stroke(s, [pen(40, 40, force: 3), pen(40, 40, force: 3)])
        #expect(inkArea(s.committed) == 0)
    }

    // MARK: Shading (a tilted pen)

    @Test func aFlatPenAcrossTheStrokeShadesSixtyFiveWideAtForceOverFive() throws {
        let s = try session()
        // altitude 0.25 (normAlt 1), azimuth pi/2 across a stroke along +x (angle pi/2): 65.
        try stroke(s, line(30, 170, y: 70) { pen($0, $1, force: 2.5, altitude: 0.25, azimuth: .pi / 2) })
        #expect(abs(shadingWidth(altitude: 0.25, azimuth: .pi / 2) - 65) < 1e-9)
        let centre = alpha(s.committed, 100, 70)
        #expect(abs(Double(centre) - 2.5 / 5 * 255) <= 1, "alpha force / 5, got \(centre)")
        let width = columnInk(s.committed, x: 100) / (Double(centre) / 255)
        #expect(abs(width - 65) < 1, "coverage width \(width)")
    }

    /// (altitude, azimuth) for a stroke along +x.
    static let tilts: [(Double, Double)] = [
        (0.25, 0),                         // along the stroke: 5
        (0.25, .pi),                       // against it (folds to 0): 5
        (0.25, 3 * .pi / 2),               // across, the other way: 65
        ((0.25 + .pi / 6) / 2, .pi / 4),   // normAlt 0.5, angle pi/4: 20
        (0.1, 7 * .pi / 4),                // below 0.25 counts as 0.25; angle pi/4: 35
    ]

    @Test(arguments: tilts)
    func theShadingWidthFollowsTheTutorialsFormula(altitude: Double, azimuth: Double) throws {
        let s = try session()
        // Force 5: alpha 1, so the column's ink is the width.
        try stroke(s, line(30, 170, y: 70) { pen($0, $1, force: 5, altitude: altitude, azimuth: azimuth) })
        let expected = shadingWidth(altitude: altitude, azimuth: azimuth)
        let width = columnInk(s.committed, x: 100)
        #expect(abs(width - expected) < 0.6, "altitude \(altitude), azimuth \(azimuth): \(width) vs \(expected)")
    }

    @Test func shadingHasOneOpacityPerStroke() throws {
        let s = try session()
        // A zig-zag of wide shading segments that overlap heavily: max, not build-up.
        let points: [(Double, Double)] = [(40, 40), (160, 100), (40, 100), (160, 40), (40, 40), (120, 70)]
        try stroke(s, points.map { pen($0.0, $0.1, force: 1.5, altitude: 0.3, azimuth: .pi / 2) })
        var maximum = 0
        for y in 0..<s.height { for x in 0..<s.width { maximum = max(maximum, alpha(s.committed, x, y)) } }
        #expect(abs(Double(maximum) - 1.5 / 5 * 255) <= 1, "never darker than force / 5, got \(maximum)")
    }

    @Test func theTextureScalesAlphaByTheMeanPaperDensity() throws {
        let s = try session(grain: nil)  // the default grain, 0.5
        try stroke(s, line(30, 170, y: 70) { pen($0, $1, force: 2.5, altitude: 0.25, azimuth: .pi / 2) })
        // Inside the band every pixel is force / 5 * density, density = 1 - grain * n with n a
        // uniform hash of the position in [0, 1]: mean 1 - grain / 2 = 0.75. Over these 51 x 81
        // pixels (about 460 independent grain cells of 3 px) the mean's standard error is
        // about 0.2 % of it, so 3 % cannot fail by chance; a texture of another strength or
        // a missing one (mean 0.5 * 255) fails it.
        var values: [Int] = []
        for y in 45...95 { for x in 60...140 { values.append(alpha(s.committed, x, y)) } }
        let mean = Double(values.reduce(0, +)) / Double(values.count)
        let expected = 2.5 / 5 * 0.75 * 255
        #expect(abs(mean - expected) < expected * 0.03, "mean alpha \(mean) vs \(expected)")
        #expect(values.max()! <= 128, "the texture only lightens")
        #expect(values.max()! - values.min()! > 30, "the grain shows: \(values.min()!)...\(values.max()!)")
    }

    @Test func theTextureIsDeterministicAndTiedToTheCanvas() throws {
        func render(seed: UInt64) throws -> [UInt8] {
            let s = try session(grain: nil)
            s.seed = seed
            try stroke(s, [(30.0, 30.0), (90, 110), (170, 40)].map { pen($0.0, $0.1, force: 3, altitude: 0.3, azimuth: 1) })
            try stroke(s, line(20, 180, y: 70) { pen($0, $1, force: 2) })
            return s.committed.packedPixels()
        }
        let first = try render(seed: 1)
        #expect(differingBytes(first, try render(seed: 1)) == 0, "two renders are byte-identical")
        #expect(differingBytes(first, try render(seed: 99)) == 0, "the grain depends on position only, like a pattern image")
    }

    // MARK: The finger

    /// An opaque black band 20 wide along y = 40 (an upright pen at force 5), then a finger
    /// stroke down x = 100.
    private func inkThenFinger(_ s: DrawingSession, size: Double? = 40,
                               type: UInt32 = BRISTLE_POINTER_TOUCH) throws {
        try stroke(s, line(20, 180, y: 40) { pen($0, $1, force: 5) })
        #expect(alpha(s.committed, 100, 40) == 255)
        var samples = stride(from: 5.0, through: 75, by: 10).map { touch(100, $0, size: size) }
        for i in samples.indices { samples[i].pointer_type = type }
        try stroke(s, samples)
    }

    /// How many pixels of row y changed from opaque black, weighted by how much.
    private func erasedWidth(_ s: DrawingSession, y: Int) -> Double {
        Double((60...140).reduce(0) { $0 + 255 - alpha(s.committed, $1, y) }) / 255
    }

    @Test func aFingerErasesABandOfMajorRadiusOverTwo() throws {
        let s = try session(height: 80)
        try inkThenFinger(s)
        // A 40 x 40 contact: majorRadius 20, width 10.
        #expect(alpha(s.committed, 100, 40) == 0, "erased to transparent")
        #expect(abs(erasedWidth(s, y: 40) - 10) < 0.6, "erased width \(erasedWidth(s, y: 40))")
        #expect(alpha(s.committed, 60, 40) == 255, "ink away from the finger stays")
    }

    @Test func theEraseRevealsABackgroundImage() throws {
        let image = try #require(Background.tiled(premultiplied: [200, 0, 0, 255], imageWidth: 1, imageHeight: 1))
        let s = try session(height: 80, background: image)
        try inkThenFinger(s)
        let flat = s.flattenedPixels(transparent: false)
        let i = (40 * s.width + 100) * 4, j = (40 * s.width + 60) * 4
        #expect(Array(flat[i..<i + 4]) == [200, 0, 0, 255], "the image shows through the erased band")
        #expect(Array(flat[j..<j + 4]) == [0, 0, 0, 255])
    }

    @Test func withoutAContactSizeTheFingerAndTheEraserEndUseTwentyPoints() throws {
        for type in [BRISTLE_POINTER_TOUCH, BRISTLE_POINTER_ERASER] {
            let s = try session(height: 80)
            try inkThenFinger(s, size: nil, type: type)
            // The default majorRadius 20 gives width 10.
            #expect(alpha(s.committed, 100, 40) == 0)
            #expect(abs(erasedWidth(s, y: 40) - 10) < 0.6, "pointer \(type): \(erasedWidth(s, y: 40))")
        }
    }

    @Test func paintBackgroundPaintsTheBackgroundColourInstead() throws {
        let s = try session(height: 80, finger: "paint-background")
        try inkThenFinger(s)
        let i = 40 * s.committed.strideBytes + 100 * 4
        #expect(Array(UnsafeBufferPointer(start: s.committed.pixels + i, count: 4)) == [255, 255, 255, 255],
                "opaque white, the default background")
        #expect(alpha(s.committed, 100, 10) == 255, "it paints over nothing too: the finger is a paintbrush")
        let blue = try session(height: 80, finger: "paint-background")
        try blue.brush!.setParameter("background", color: RGBAColor(red8: 0x33, green8: 0x66, blue8: 0xcc))
        try inkThenFinger(blue)
        let b = Array(UnsafeBufferPointer(start: blue.committed.pixels + i, count: 4))
        #expect(b == [0x33, 0x66, 0xcc, 255], "\(b)")
    }

    // MARK: Predictions

    @Test func predictionsNeverReachCommitted() throws {
        let with = try session(grain: nil), without = try session(grain: nil)
        let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_TILT,
                                           pointerType: BRISTLE_POINTER_PEN)
        var predicted = pen(190, 10, force: 4, altitude: 0.25, azimuth: 2)
        predicted.flags |= BRISTLE_SAMPLE_PREDICTED
        func sample(_ i: Int) -> bristle_sample_t {
            pen(10 + Double(i) * 15, 120 - Double(i) * 8, force: 1 + Double(i) / 5, altitude: i % 2 == 0 ? 0.3 : 1.2, azimuth: 1)
        }
        try with.begin(sample(0), device: device, predicted: [predicted])
        try without.begin(sample(0), device: device)
        for i in 1..<10 {
            try with.move([sample(i)], predicted: [predicted])
            try without.move([sample(i)])
            #expect(with.committed.hasSamePixels(as: without.committed))
        }
        #expect(!with.preview.hasSamePixels(as: with.committed), "the prediction shows in the preview")
        try with.end(sample(10))
        try without.end(sample(10))
        #expect(with.committed.hasSamePixels(as: without.committed))
        #expect(with.preview.hasSamePixels(as: with.committed))
    }

    @Test func cancelLeavesNothingAndDoesNotPolluteTheNextStroke() throws {
        let s = try session()
        try stroke(s, line(20, 60, y: 20) { pen($0, $1, force: 2) })
        let before = s.committed.packedPixels()
        let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_FORCE, pointerType: BRISTLE_POINTER_PEN)
        try s.begin(pen(10, 120, force: 3), device: device)
        try s.move([pen(190, 60, force: 3)])
        s.cancel()
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
        try stroke(s, [pen(150, 120, force: 1), pen(160, 120, force: 1)])
        #expect(alpha(s.committed, 100, 90) == 0, "the cancelled stroke's mask is gone")
    }
}
