import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Real recordings through the seeds' brushes, compared with golden images pixel by pixel
/// (regenerate with BRISTLE_UPDATE_GOLDEN=1 swift test, then look at every changed PNG).
@Suite struct ReferenceRenderTests {
    struct Case: Sendable, CustomStringConvertible {
        var recording: String
        var brush: String
        var golden: String
        var frames: Int
        var description: String { golden }
    }

    /// Recordings are under the package root; the tilted script is synthetic because no
    /// shared recording holds the pen flatter than pi/6, where pencil-shading shades.
    static let cases = [
        Case(recording: "Tests/Fixtures/ink/wacom-ink.csv", brush: "org.bristle.force-hue", golden: "force-hue/wacom-ink", frames: 0),
        Case(recording: "Tests/Fixtures/ink/wacom-ink.csv", brush: "org.bristle.force-hue", golden: "force-hue/wacom-ink-faded-8", frames: 8),
        Case(recording: "Tests/Fixtures/ink/microsoft-inkmljs-ink1.xml", brush: "org.bristle.pencil-shading", golden: "pencil-shading/ink1", frames: 0),
        Case(recording: "Examples/strokes/tilted-shading.json", brush: "org.bristle.pencil-shading", golden: "pencil-shading/tilted", frames: 0),
    ]

    @Test(arguments: cases)
    func recordingMatchesItsGoldenImage(_ c: Case) throws {
        let path = TestEnvironment.packageRoot.appendingPathComponent(c.recording).path
        var options = RenderOptions()
        options.searchDirectories = [TestEnvironment.productsDirectory.path]
        options.brush = c.brush
        options.canvasSize = (320, 240)
        let input = try ScriptRenderer.loadInput(path: path, fitInto: options.canvasSize)
        let session = try ScriptRenderer(options: options).render(input.script)
        if c.frames > 0 { #expect(try session.tick(frames: c.frames)) }
        let mismatch = try GoldenImage.compare(session.flattenedPixels(transparent: false), width: 320,
                                               height: 240, name: c.golden)
        #expect(mismatch == nil, "\(mismatch!)")
    }
}
