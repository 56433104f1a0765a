import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The reference brushes written in Swift with BristleKit (Plugins/Spray, Plugins/Marker),
/// loaded from their built .so files like any plugin: their documented formulas, determinism,
/// golden images, parameters and exports.
@Suite struct SwiftBrushTests {
    static let spray: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleSpray"))
    static let marker: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleMarker"))

    private func session(_ library: PluginLibrary, _ id: String, width: Double, seed: UInt64 = 0,
                         parameters: [String: Double] = [:]) throws -> DrawingSession {
        let s = try DrawingSession(width: 120, height: 100, background: .color(.white))
        let brush = try Brush(id: id, library: library, host: BrushHost())
        for (name, value) in parameters { try brush.setParameter(name, value: value) }
        s.brush = brush
        s.color = .black
        s.strokeWidth = width
        s.seed = seed
        return s
    }

    private let pen = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE | BRISTLE_SAMPLE_HAS_TILT,
                                            pointerType: BRISTLE_POINTER_PEN)

    /// Plays `events` (each a list of coalesced samples) as one stroke.
    private func play(_ s: DrawingSession, _ events: [[bristle_sample_t]]) throws {
        try s.begin(events[0][0], device: pen)
        for e in events.dropFirst() { try s.move(e) }
        try s.end(events.last!.last!)
    }

    /// Alpha of every committed pixel.
    private func alphas(_ s: DrawingSession) -> [UInt8] {
        (0..<s.height).flatMap { y in (0..<s.width).map { x in s.committed.pixels[y * s.committed.strideBytes + x * 4 + 3] } }
    }

    /// The committed layer's bytes.
    private func bytes(_ s: DrawingSession) -> [UInt8] {
        Array(UnsafeBufferPointer(start: s.committed.pixels, count: s.committed.strideBytes * s.height))
    }

    // MARK: Spray

    /// SplitMix64 written out again from the formula in Spray.swift, so the test checks the
    /// documented behaviour rather than the brush's own code.
    private struct SplitMix {
        var state: UInt64
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / 9_007_199_254_740_992
        }
    }

    @Test func sprayTapFollowsTheFormulaDotForDot() throws {
        let s = try session(Self.spray, "org.bristle.spray", width: 20, seed: 5, parameters: ["density": 30])
        try play(s, [[penSample(60.5, 50.5, pressure: 0.5)]])
        // One stamp (a tap) at pressure 0.5: round(30 * 0.5) = 15 dots, R = 10.
        var random = SplitMix(state: DrawingSession.strokeSeed(5, 1))
        var expected = Set<Int>()
        for _ in 0..<15 {
            let r = 10 * random.unit().squareRoot(), a = 2 * Double.pi * random.unit()
            expected.insert(Int((50.5 + r * sin(a)).rounded(.down)) * 120 + Int((60.5 + r * cos(a)).rounded(.down)))
        }
        let a = alphas(s)
        let inked = Set(a.indices.filter { a[$0] > 0 })
        #expect(inked == expected)
        #expect(inked.allSatisfy { a[$0] == 255 }, "opacity 1: every dot is opaque")
    }

    @Test func sprayIsTheSameWhateverTheEventChunking() throws {
        let points = (0...30).map { penSample(10 + Double($0) * 3, 50 + Double($0 % 5), pressure: 0.3 + Double($0) / 50) }
        let one = try session(Self.spray, "org.bristle.spray", width: 12, seed: 3)
        try play(one, [[points[0]]] + points.dropFirst().map { [$0] })
        let coalesced = try session(Self.spray, "org.bristle.spray", width: 12, seed: 3)
        try play(coalesced, [[points[0]], Array(points[1...10]), Array(points[11...29]), [points[30]]])
        #expect(bytes(one) == bytes(coalesced))
        #expect(alphas(one).contains { $0 > 0 })
        let reseeded = try session(Self.spray, "org.bristle.spray", width: 12, seed: 4)
        try play(reseeded, [[points[0]]] + points.dropFirst().map { [$0] })
        #expect(differingBytes(bytes(reseeded), bytes(one)) > 0, "the seed changes the dots")
    }

    @Test func sprayParametersClampAndRound() throws {
        let brush = try Brush(id: "org.bristle.spray", library: Self.spray, host: BrushHost())
        #expect(brush.parameters.map(\.id) == ["density", "opacity"])
        try brush.setParameter("density", value: 2.6)
        #expect(brush.value(of: "density") == 3)
        try brush.setParameter("density", value: 1e9)
        #expect(brush.value(of: "density") == 400)
        try brush.setParameter("opacity", value: -1)
        #expect(brush.value(of: "opacity") == 0)
        #expect(throws: BrushError.self) { try brush.setParameter("opacity", value: .nan) }
        #expect(throws: BrushError.self) { try brush.setParameter("colour", value: 1) }
    }

    // MARK: Marker

    /// Rows of column `x` holding ink.
    private func inkedRows(_ s: DrawingSession, column x: Int) -> Int {
        (0..<s.height).filter { s.committed.pixels[$0 * s.committed.strideBytes + x * 4 + 3] > 0 }.count
    }

    @Test func markerWidthFollowsTheAzimuth() throws {
        // A horizontal stroke, W = 30, T = 6: the nib upright (azimuth 0 -> nib at 90 degrees)
        // makes a band about W tall; the nib along the stroke (azimuth pi/2) about T tall.
        func band(azimuth: Double) throws -> Int {
            let s = try session(Self.marker, "org.bristle.marker", width: 30)
            try play(s, (0...8).map { [penSample(20 + Double($0) * 10, 50, pressure: 1, altitude: 0.8, azimuth: azimuth)] })
            return inkedRows(s, column: 60)
        }
        let across = try band(azimuth: 0), along = try band(azimuth: .pi / 2)
        #expect((30...32).contains(across), "\(across)")
        #expect((6...8).contains(along), "\(along)")
    }

    @Test func markerHasOneOpacityPerStroke() throws {
        let s = try session(Self.marker, "org.bristle.marker", width: 16, parameters: ["opacity": 0.5])
        // Back and forth over the same place: overlaps must not darken it.
        try play(s, [[penSample(20, 50)], [penSample(100, 50)], [penSample(20, 52)], [penSample(100, 48)]])
        let a = alphas(s)
        #expect(a.max() == 128, "\(a.max()!)")
        #expect(a.filter { $0 == 128 }.count > 500)
    }

    @Test func markerParametersDescribeTheNib() throws {
        let brush = try Brush(id: "org.bristle.marker", library: Self.marker, host: BrushHost())
        #expect(brush.parameters.map(\.id) == ["opacity", "thickness", "angle"])
        #expect(brush.value(of: "thickness") == 0.2)
        try brush.setParameter("angle", value: 270)
        #expect(brush.value(of: "angle") == 180)
    }

    // MARK: Both

    struct Case: Sendable, CustomStringConvertible {
        var script: String
        var golden: String
        var description: String { golden }
    }

    @Test(arguments: [Case(script: "Examples/strokes/spray.json", golden: "spray/example"),
                      Case(script: "Examples/strokes/marker.json", golden: "marker/example")])
    func exampleScriptMatchesItsGoldenImage(_ c: Case) throws {
        var options = RenderOptions()
        options.searchDirectories = [TestEnvironment.productsDirectory.path]
        let script = try ScriptRenderer.loadScript(path: TestEnvironment.packageRoot.appendingPathComponent(c.script).path)
        let session = try ScriptRenderer(options: options).render(script)
        let mismatch = try GoldenImage.compare(session.flattenedPixels(transparent: false), width: session.width,
                                               height: session.height, name: c.golden)
        #expect(mismatch == nil, "\(mismatch!)")
    }

    @Test(arguments: ["BristleSpray", "BristleMarker"])
    func exportsOnlyTheEntry(_ product: String) throws {
        #expect(try exportedSymbols(TestEnvironment.plugin(product)) == ["bristle_entry_v1"])
    }
}
