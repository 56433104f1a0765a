import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Scripted sessions: one script switches brushes (pencil, eraser, force-hue), changes width and
/// colour between strokes, draws over a background image and uses undo, redo and clear
/// (Examples/strokes/session.json). Rendered to goldens, and checked against the same drawing
/// made without any undo, redo or clear.
@Suite struct SessionScriptTests {
    static let session = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/session.json").path

    private func options(transparent: Bool = false) -> RenderOptions {
        var o = RenderOptions()
        o.searchDirectories = [TestEnvironment.productsDirectory.path]
        o.transparent = transparent
        return o
    }

    @Test(arguments: [false, true])
    func theExampleSessionMatchesItsGolden(transparent: Bool) throws {
        let renderer = ScriptRenderer(options: options(transparent: transparent))
        let s = try renderer.render(try ScriptRenderer.loadScript(path: Self.session))
        #expect(renderer.stats.brushes == ["org.bristle.pencil", "org.bristle.eraser", "org.bristle.force-hue"])
        #expect(renderer.stats.undoneSteps == 4 && renderer.stats.redoneSteps == 2)
        #expect(renderer.stats.warnings.isEmpty, "\(renderer.stats.warnings)")
        let name = transparent ? "sessions/multi-tool-transparent" : "sessions/multi-tool"
        let mismatch = try GoldenImage.compare(s.flattenedPixels(transparent: transparent),
                                               width: s.width, height: s.height, name: name)
        #expect(mismatch == nil, "\(mismatch!)")
    }

    /// Undo, redo and clear leave exactly the picture of the strokes that survive them: the
    /// session minus its undo/redo/clear actions and minus the stroke they took back for good.
    @Test func undoRedoAndClearLeaveExactlyTheSurvivingStrokes() throws {
        let script = try ScriptRenderer.loadScript(path: Self.session)
        var straight = script
        straight.actions = script.actions.enumerated().filter { index, action in
            switch action.kind {
            case .undo, .redo, .clear: return false
            case .stroke(let stroke):
                // The thin green diagonal, undone and then replaced by a new stroke.
                return !(stroke.events.first?.sample.x == 20 && stroke.events.first?.sample.y == 20)
            case .brush(let brush): return brush.color != (try? RGBAColor(parsing: "#2e8b57"))
            case .ticks: return true
            }
        }.map(\.element)
        #expect(straight.actions.count == script.actions.count - 8)
        let withHistory = try ScriptRenderer(options: options()).render(script)
        let without = try ScriptRenderer(options: options()).render(straight)
        #expect(differingBytes(withHistory.committed.packedPixels(), without.committed.packedPixels()) == 0)
        #expect(withHistory.history.undoCount == 5, "navy, crimson, eraser, force-hue and purple: the undone clear waits on the redo side until the purple stroke empties it")
        #expect(withHistory.history.redoCount == 0)
    }

    @Test func aShortUndoIsALocatedWarningAndTheRenderGoesOn() throws {
        let dir = TestEnvironment.scratchDirectory("short-undo")
        let path = dir.appendingPathComponent("short.json").path
        try """
            {"canvas": {"width": 64, "height": 64},
             "actions": [
              {"stroke": {"events": [{"x": 5, "y": 5}, {"x": 60, "y": 60}]}},
              {"undo": 3},
              {"redo": 1}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let renderer = ScriptRenderer(options: options())
        let s = try renderer.render(try ScriptRenderer.loadScript(path: path))
        #expect(renderer.stats.warnings == ["\(path):4:3: warning: undo 3 did 1: the history held only 1 step(s) to undo"])
        #expect(renderer.stats.undoneSteps == 1 && renderer.stats.redoneSteps == 1)
        #expect(s.committed.packedPixels().contains { $0 != 0 }, "the stroke is back")
    }

    @Test func aTinyBudgetWarnsOnceAtTheStrokeThatWentOver() throws {
        var o = options()
        o.historyBudgetBytes = 64 * 64 * 4 * 3
        let renderer = ScriptRenderer(options: o)
        _ = try renderer.render(try ScriptRenderer.loadScript(path: Self.session))
        #expect(renderer.stats.droppedHistorySteps > 1)
        #expect(renderer.stats.warnings.count >= 1)
        let first = try #require(renderer.stats.warnings.first)
        #expect(first.contains("session.json:5:3: warning: the undo history reached its budget of 48.0 KiB"), "\(first)")
        #expect(renderer.stats.historyBytes <= o.historyBudgetBytes!)
    }
}
