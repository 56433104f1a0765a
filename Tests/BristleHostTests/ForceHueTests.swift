import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The ForceSketch brush (Plugins/ForceHue/force_hue.c), loaded from the built .so as any host
/// would: pressure picks the width and the hue, ticks brighten and blur the drawing.
@Suite struct ForceHueTests {
    static let library: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleForceHue"))
    static let id = "org.bristle.force-hue"

    private func session(width: Int = 120, height: Int = 80, scale: Float = 1,
                         parameters: [String: Double] = [:]) throws -> DrawingSession {
        let s = try DrawingSession(width: width, height: height, scale: scale, background: .color(.white))
        let brush = try Brush(id: Self.id, library: Self.library, host: BrushHost())
        for (name, value) in parameters { try brush.setParameter(name, value: value) }
        s.brush = brush
        s.color = .black  // ignored by the brush: pressure is its palette
        s.strokeWidth = 4  // ignored too: max-width is its width
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

    /// Premultiplied RGBA of one committed pixel.
    private func pixel(_ s: DrawingSession, _ x: Int, _ y: Int) -> [Int] {
        let i = y * s.committed.strideBytes + x * 4
        return (0..<4).map { Int(s.committed.pixels[i + $0]) }
    }

    private func close(_ a: [Int], _ b: [Int], within tolerance: Int = 1) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// Sum of alpha over the committed layer, in pixels of full coverage.
    private func inkArea(_ layer: Layer) -> Double {
        var total = 0
        for y in 0..<layer.height { for x in 0..<layer.width { total += Int(layer.pixels[y * layer.strideBytes + x * 4 + 3]) } }
        return Double(total) / 255
    }

    /// Mean of r, g and b of the picture flattened over its white background.
    private func meanBrightness(_ s: DrawingSession) -> Double {
        let pixels = s.flattenedPixels(transparent: false)
        var total = 0
        for i in stride(from: 0, to: pixels.count, by: 4) { total += Int(pixels[i]) + Int(pixels[i + 1]) + Int(pixels[i + 2]) }
        return Double(total) / Double(pixels.count / 4 * 3)
    }

    /// A capsule from x = 20 to x = 80 on row 40 (centre y = 40.5) or on the row boundary y = 40.
    private let line: [(Double, Double)] = [(20, 40), (50, 40), (80, 40)]
    private let centredLine: [(Double, Double)] = [(20, 40.5), (50, 40.5), (80, 40.5)]

    @Test func descriptorAndParameters() throws {
        let d = try #require(Self.library.descriptor(id: Self.id))
        #expect(d.capabilities == [.continuous, .wantsTicks, .deterministic])
        let brush = try Brush(id: Self.id, library: Self.library, host: BrushHost())
        #expect(brush.parameters.map(\.id) == ["fade", "brightness-step", "max-width"])
        #expect(brush.value(of: "fade") == 1)
        #expect(brush.value(of: "brightness-step") == 0.05)
        #expect(brush.value(of: "max-width") == 20)
        try brush.setParameter("brightness-step", value: 3)
        #expect(brush.value(of: "brightness-step") == 1, "out-of-range values are clamped")
        #expect(throws: BrushError.self) { try brush.setParameter("colour", text: "1") }
    }

    /// HSB(p, 1, 1): red at 0, green at 1/3, blue at 2/3, red again at 1. At p = 0 the width
    /// is 0, drawn as a one-pixel hairline centred on row 40.
    @Test(arguments: [(0.0, [255, 0, 0, 255]), (1.0 / 3, [0, 255, 0, 255]),
                      (2.0 / 3, [0, 0, 255, 255]), (1.0, [255, 0, 0, 255])])
    func pressureIsTheHue(_ pressure: Double, _ expected: [Int]) throws {
        let s = try session()
        try draw(s, centredLine, pressure: pressure)
        let centre = pixel(s, 50, 40)
        #expect(close(centre, expected), "p = \(pressure): \(centre) vs \(expected)")
    }

    @Test func withoutPressureItIsGreyAndTenWide() throws {
        let grey = try session(), area = try session(), flagged = try session()
        try draw(grey, centredLine)  // samples carry the fake 0.5 but no HAS_PRESSURE
        #expect(close(pixel(grey, 50, 40), [128, 128, 128, 255]), "\(pixel(grey, 50, 40))")
        try draw(area, line)
        let expected = 60 * 10 + Double.pi * 25
        #expect(abs(inkArea(area.committed) - expected) < 2, "\(inkArea(area.committed)) vs \(expected)")
        // The flag decides, not the value: a measured 0.5 is hue 0.5, cyan.
        try draw(flagged, centredLine, pressure: 0.5)
        #expect(close(pixel(flagged, 50, 40), [0, 255, 255, 255]), "\(pixel(flagged, 50, 40))")
    }

    @Test(arguments: [(0.5, Float(1), 10.0), (1.0, Float(1), 20.0), (0.5, Float(2), 20.0)])
    func widthIsPressureTimesTwentyPoints(_ pressure: Double, _ scale: Float, _ diameter: Double) throws {
        let s = try session(scale: scale)
        try draw(s, line, pressure: pressure)
        let expected = 60 * diameter + Double.pi * diameter * diameter / 4
        #expect(abs(inkArea(s.committed) - expected) < 2, "p = \(pressure), scale \(scale): \(inkArea(s.committed)) vs \(expected)")
    }

    @Test func aTapLeavesNoMark() throws {
        for pressure in [nil, 1.0] {
            let s = try session()
            try draw(s, [(40, 40)], pressure: pressure)
            #expect(inkArea(s.committed) == 0, "pressure \(String(describing: pressure))")
        }
    }

    @Test func theFadeBrightensMonotonicallyToWhite() throws {
        let s = try session()
        try draw(s, [(10, 10), (40, 60), (70, 15), (100, 65)], pressure: 0.8)
        try draw(s, [(15, 70), (110, 20)], pressure: 0.3)
        try draw(s, [(20, 40), (100, 40)])
        var previous = meanBrightness(s)
        #expect(previous < 235, "the strokes are visible: \(previous)")
        for frame in 1...30 {
            #expect(try s.tick(frames: 1))
            let now = meanBrightness(s)
            #expect(now >= previous, "frame \(frame): \(now) < \(previous)")
            if frame <= 5 { #expect(now > previous + 0.1, "frame \(frame) brightens: \(now) vs \(previous)") }
            previous = now
            if frame == 25 {
                let pixels = s.flattenedPixels(transparent: false)
                #expect(now > 254.5, "nearly white after 25 frames: mean \(now)")
                #expect(pixels.min()! >= 250, "darkest channel \(pixels.min()!)")
            }
        }
    }

    /// With brightening off the blur alone runs: it moves darkness around but, rounding it
    /// down, never adds any, so the picture over white never gets darker.
    @Test func theBlurAloneNeverDarkensThePicture() throws {
        let s = try session(parameters: ["brightness-step": 0])
        try draw(s, [(10, 10), (40, 60), (70, 15), (100, 65)], pressure: 0.8)
        try draw(s, [(15, 70), (60, 30), (110, 20)], pressure: 0.45)
        try draw(s, [(20, 40), (100, 40)])
        var previous = meanBrightness(s)
        for frame in 1...40 {
            try s.tick(frames: 1)
            let now = meanBrightness(s)
            #expect(now >= previous, "frame \(frame): \(now) < \(previous)")
            previous = now
        }
        #expect(previous < 254, "the blur alone does not fade the drawing away: \(previous)")
    }

    /// Brightening adds 0.05 * 255 = 12.75, rounded up to 13, per frame to r, g and b of a
    /// pure red pixel; alpha stays. The 5 x 5 neighbourhood of the centre of a 20-wide stroke
    /// is uniform for the first frames, so the blur leaves it alone.
    @Test func brightnessIsAddedPerFrame() throws {
        let s = try session(), big = try session(parameters: ["brightness-step": 0.2])
        try draw(s, centredLine, pressure: 1)
        try draw(big, centredLine, pressure: 1)
        try s.tick(frames: 1)
        #expect(pixel(s, 50, 40) == [255, 13, 13, 255])
        try s.tick(frames: 1)
        #expect(pixel(s, 50, 40) == [255, 26, 26, 255])
        try big.tick(frames: 1)
        #expect(pixel(big, 50, 40) == [255, 51, 51, 255])
    }

    /// The blur is [1 4 6 4 1] / 16 per axis (sigma 1). A stroke of width 20 on y = 40 covers
    /// rows 30 ..< 50 exactly; after one frame row 50 gets 255 * 5 / 16 and row 51 255 / 16.
    @Test func theBlurSpreadsOutsideTheStroke() throws {
        let s = try session()
        try draw(s, line, pressure: 1)
        #expect(pixel(s, 50, 49)[3] == 255)
        #expect(pixel(s, 50, 50)[3] == 0)
        try s.tick(frames: 1)
        #expect(pixel(s, 50, 49)[3] == 175)  // 255 * 11 / 16 = 175.3
        #expect(pixel(s, 50, 50)[3] == 80)  // 255 * 5 / 16 = 79.7
        #expect(pixel(s, 50, 51)[3] == 16)  // 255 / 16 = 15.9
        #expect(pixel(s, 50, 52)[3] == 0)  // the kernel reaches two pixels
        #expect(pixel(s, 50, 29)[3] == 80)  // and symmetric above
        #expect(pixel(s, 50, 28)[3] == 16)
        let p = pixel(s, 50, 50)
        #expect(p[0] <= p[3] && p[1] <= p[3] && p[2] <= p[3], "still premultiplied: \(p)")
        #expect(s.preview.hasSamePixels(as: s.committed), "the dirty rectangle covers the change")

        // Outside the canvas is transparent: the left edge loses what the kernel's two
        // outside taps would have brought, 255 * (6 + 4 + 1) / 16.
        let edge = try session()
        try draw(edge, [(-10, 40), (50, 40)], pressure: 1)
        #expect(pixel(edge, 0, 40)[3] == 255)
        try edge.tick(frames: 1)
        #expect(pixel(edge, 0, 40)[3] == 175)
    }

    /// The fade converges: once a tick changes nothing it reports nothing, and neither do
    /// later ticks (the host copies nothing), until a new stroke brings new ink.
    @Test func theFadeSettles() throws {
        let s = try session(width: 48, height: 32)
        try draw(s, [(10, 16), (38, 16)], pressure: 0.6)
        var frames = 0, copied = s.pixelsCopied
        repeat {
            copied = s.pixelsCopied
            try s.tick(frames: 1)
            frames += 1
        } while s.pixelsCopied != copied && frames < 5000
        #expect(frames < 5000, "settled after \(frames) frames")
        let settled = s.committed.packedPixels()
        try s.tick(frames: 50)
        #expect(s.pixelsCopied == copied)
        #expect(differingBytes(s.committed.packedPixels(), settled) == 0)
        // A new stroke wakes the fade up.
        try draw(s, [(10, 8), (38, 8)], pressure: 0.6)
        copied = s.pixelsCopied
        try s.tick(frames: 1)
        #expect(s.pixelsCopied > copied)
    }

    @Test func withoutFadeTicksChangeNothing() throws {
        let s = try session(parameters: ["fade": 0])
        try draw(s, line, pressure: 0.7)
        let before = s.committed.packedPixels()
        #expect(try s.tick(frames: 10))
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
    }

    @Test func ticksAreDeterministic() throws {
        func render(frames: Int) throws -> [UInt8] {
            let s = try session()
            try draw(s, [(10, 10), (40, 60), (70, 15), (100, 65)], pressure: 0.8)
            try s.tick(frames: 3)
            try draw(s, [(15, 70), (60, 30), (110, 20)], pressure: 0.45)
            try draw(s, [(20, 40), (100, 40)])
            try s.tick(frames: frames)
            return s.committed.packedPixels()
        }
        let a = try render(frames: 7), b = try render(frames: 7), c = try render(frames: 8)
        #expect(differingBytes(a, b) == 0)
        #expect(differingBytes(a, c) > 0, "one more frame changes the picture")
    }
}
