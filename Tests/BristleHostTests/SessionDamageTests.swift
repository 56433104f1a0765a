import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `DrawingSession.damage`: after every call, each preview pixel that changed lies in one of
/// the rectangles the session reports, for continuous brushes with prediction, rubber-band
/// shapes, cancel, undo, redo and clear; nothing is collected unless asked for.
@Suite struct SessionDamageTests {
    private func session(_ product: String, _ id: String) throws -> DrawingSession {
        let s = try DrawingSession(width: 160, height: 120)
        s.brush = try Brush(id: id, library: try PluginLoader.load(path: TestEnvironment.plugin(product)), host: BrushHost())
        s.color = RGBAColor(red: 0.1, green: 0.3, blue: 0.8)
        s.strokeWidth = 6
        s.collectsDamage = true
        return s
    }

    private let pen = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)

    /// Runs `call` and checks the damage covers every changed preview pixel; returns how many changed.
    @discardableResult
    private func expectCovered(_ s: DrawingSession, _ what: String, _ call: () throws -> Void,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Int {
        let before = s.preview.packedPixels()
        try call()
        let after = s.preview.packedPixels()
        let damage = s.takeDamage()
        var changed = 0
        for y in 0..<s.height {
            for x in 0..<s.width where before[(y * s.width + x) * 4..<(y * s.width + x) * 4 + 4] != after[(y * s.width + x) * 4..<(y * s.width + x) * 4 + 4] {
                changed += 1
                let covered = damage.contains { x >= $0.x && Int64(x) < $0.maxX && y >= $0.y && Int64(y) < $0.maxY }
                #expect(covered, "\(what): pixel (\(x), \(y)) changed outside the damage \(damage)", sourceLocation: sourceLocation)
                if !covered { return changed }
            }
        }
        #expect(s.takeDamage().isEmpty, "taking the damage forgets it", sourceLocation: sourceLocation)
        return changed
    }

    @Test func pencilStrokesUndoRedoAndClearReportWhatTheyChanged() throws {
        let s = try session("BristlePencil", "org.bristle.pencil")
        var points: [bristle_sample_t] = (0..<12).map { penSample(10 + Double($0) * 12, 20 + Double($0 % 3) * 25) }
        try expectCovered(s, "begin") { try s.begin(points[0], device: pen) }
        for i in 1..<points.count - 1 {
            let predicted = [penSample(points[i].x + 12, points[i].y + 10, predicted: true)]
            try expectCovered(s, "move \(i)") { try s.move([points[i]], predicted: predicted) }
        }
        points[points.count - 1].x += 2
        #expect(try expectCovered(s, "end") { try s.end(points[points.count - 1]) } > 0)
        #expect(try expectCovered(s, "undo") { try s.undo() } > 0)
        #expect(try expectCovered(s, "redo") { try s.redo() } > 0)
        #expect(try expectCovered(s, "clear") { try s.clear() } > 0)
    }

    @Test func rubberBandShapesAndCancelReportWhatTheyChanged() throws {
        let s = try session("BristleShapes", "org.bristle.rectangle")
        try expectCovered(s, "begin") { try s.begin(penSample(20, 20), device: pen) }
        for (x, y) in [(120.0, 90.0), (60.0, 100.0), (140.0, 30.0)] {
            #expect(try expectCovered(s, "drag to \(x), \(y)") { try s.move([penSample(x, y)]) } > 0)
        }
        #expect(try expectCovered(s, "cancel") { s.cancel() } > 0, "cancel takes the rubber band away")
    }

    @Test func nothingIsCollectedUnlessAskedFor() throws {
        let s = try session("BristlePencil", "org.bristle.pencil")
        s.collectsDamage = false
        try s.begin(penSample(10, 10), device: pen)
        try s.move([penSample(100, 80)])
        try s.end(penSample(100, 80))
        #expect(s.damage.isEmpty)
    }
}
