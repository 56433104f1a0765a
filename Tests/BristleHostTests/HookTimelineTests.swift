import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The hook timeline behind `--trace` and `--stats`: it records without changing a pixel,
/// and its per-hook numbers add up.
@Suite struct HookTimelineTests {
    private func render(_ options: RenderOptions) throws -> (pixels: [UInt8], renderer: ScriptRenderer) {
        var o = options
        o.searchDirectories = [TestEnvironment.productsDirectory.path]
        let renderer = ScriptRenderer(options: o)
        let text = StandardSheet.script(brush: .init(idOrPath: "org.bristle.marker"))
        let script = try StrokeScriptReader.parse(text, sourcePath: "sheet.json")
        return (try renderer.render(script).flattenedPixels(transparent: false), renderer)
    }

    @Test func recordingChangesNoPixelAndCountsEveryCall() throws {
        let plain = try render(RenderOptions())
        #expect(plain.renderer.timeline == nil)
        var options = RenderOptions()
        options.recordHooks = true
        options.countChangedPixels = true
        let recorded = try render(options)
        #expect(recorded.pixels == plain.pixels)
        let timeline = try #require(recorded.renderer.timeline)
        let stats = HookStatistics(timeline)
        func row(_ hook: String) -> HookStatistics.Row? { stats.rows.first { $0.hook == hook } }
        // One begin per stroke of the sheet, cancelled or not; one ended per finished stroke.
        let strokes = StandardSheet.script(brush: .init(idOrPath: "x")).components(separatedBy: "\"stroke\"").count - 1
        #expect(row("begin")?.calls == strokes)
        #expect(row("ended")?.calls == strokes - 1)
        #expect(row("cancelled")?.calls == 1)
        #expect(row("moved")?.samplesPerCall ?? 0 > 1, "coalesced samples arrive together")
        let draw = try #require(row("draw (committed)"))
        #expect(draw.calls == timeline.calls.filter { $0.name == "draw" && $0.layer == "committed" }.count)
        #expect((draw.changedPixels ?? 0) > 0 && draw.changedPixels! <= draw.reportedPixels)
        #expect(draw.p50Microseconds <= draw.p99Microseconds && draw.p99Microseconds <= draw.maxMicroseconds)
        #expect(stats.rows.contains { $0.hook.hasPrefix("services.") })
        #expect(stats.table.split(separator: "\n").count == stats.rows.count + 1)
    }
}
