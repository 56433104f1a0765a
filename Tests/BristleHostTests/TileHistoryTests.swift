import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Undo, redo and clear on 64x64 tiles (Sources/BristleHost/Session/TileHistory.swift), through
/// the public `DrawingSession` API, with the reference pencil, eraser and force-hue brushes.
@Suite struct TileHistoryTests {
    static let pencilLibrary: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristlePencil"))
    static let forceHueLibrary: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleForceHue"))

    private let pen = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)

    /// A stroke: a brush id, a colour, a width and a polyline with pressure.
    private struct Stroke {
        var id = "org.bristle.pencil"
        var color = RGBAColor(red: 0.1, green: 0.3, blue: 0.8)
        var width = 8.0
        var points: [(Double, Double)]
    }

    private let a = Stroke(points: [(10, 20), (120, 40), (230, 30)])
    private let b = Stroke(color: RGBAColor(red: 0.9, green: 0.2, blue: 0.1), width: 14, points: [(40, 200), (90, 100), (150, 220)])
    private let c = Stroke(color: RGBAColor(red: 0.2, green: 0.7, blue: 0.2, alpha: 0.6), width: 20, points: [(30, 120), (220, 140)])

    private func session(_ width: Int = 256, _ height: Int = 256, background: Background = .color(.white),
                         budget: Int = TileHistory.defaultBudgetBytes) throws -> DrawingSession {
        try DrawingSession(width: width, height: height, background: background, historyBudgetBytes: budget)
    }

    private func draw(_ s: DrawingSession, _ stroke: Stroke) throws {
        let library = stroke.id == "org.bristle.force-hue" ? Self.forceHueLibrary : Self.pencilLibrary
        s.brush = try Brush(id: stroke.id, library: library, host: BrushHost())
        s.color = stroke.color
        s.strokeWidth = stroke.width
        let p = stroke.points
        try s.begin(penSample(p[0].0, p[0].1, pressure: 0.6), device: pen)
        for (i, q) in p.enumerated().dropFirst() { try s.move([penSample(q.0, q.1, pressure: 0.4 + 0.2 * Double(i % 3))]) }
        try s.end(penSample(p.last!.0, p.last!.1, pressure: 0.5))
    }

    /// The committed pixels of a fresh session that drew `strokes`.
    private func rendered(_ strokes: [Stroke], width: Int = 256, height: Int = 256) throws -> [UInt8] {
        let s = try session(width, height)
        for stroke in strokes { try draw(s, stroke) }
        return s.committed.packedPixels()
    }

    /// Between strokes the three layers agree; undo and redo must keep it so.
    private func expectLayersAgree(_ s: DrawingSession, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(s.committed.hasSamePixels(as: s.base), "base follows committed", sourceLocation: sourceLocation)
        #expect(s.committed.hasSamePixels(as: s.preview), "preview follows committed", sourceLocation: sourceLocation)
    }

    @Test func undoTwoRedoOneIsByteIdenticalToTheFirstTwoStrokes() throws {
        let s = try session()
        for stroke in [a, b, c] { try draw(s, stroke) }
        let undone = try s.undo(2)
        #expect(undone == HistoryChange(requested: 2, performed: 2, dirty: undone.dirty))
        #expect(differingBytes(s.committed.packedPixels(), (try rendered([a]))) == 0)
        let redone = try s.redo(1)
        #expect(redone.performed == 1 && s.history.redoCount == 1 && s.history.undoCount == 2)
        #expect(differingBytes(s.committed.packedPixels(), (try rendered([a, b]))) == 0)
        expectLayersAgree(s)
    }

    @Test func theDirtyRectangleCoversEveryChangedPixelInWholeTiles() throws {
        let s = try session()
        try draw(s, a)
        let before = s.committed.packedPixels()
        try draw(s, b)
        let after = s.committed.packedPixels()
        let change = try s.undo()
        var changed = PixelRect.empty
        for i in stride(from: 0, to: before.count, by: 4) where before[i..<i + 4] != after[i..<i + 4] {
            changed = changed.union(PixelRect(x: Int32(i / 4 % 256), y: Int32(i / 4 / 256), width: 1, height: 1))
        }
        #expect(!changed.isEmpty && change.dirty.contains(changed), "\(change.dirty) holds \(changed)")
        #expect(change.dirty.x % 64 == 0 && change.dirty.y % 64 == 0, "tile-aligned: \(change.dirty)")
    }

    @Test func clearIsOneUndoableStep() throws {
        let s = try session()
        try draw(s, a)
        try draw(s, b)
        let drawn = s.committed.packedPixels()
        let cleared = try s.clear()
        #expect(s.committed.packedPixels().allSatisfy { $0 == 0 })
        #expect(!cleared.dirty.isEmpty && s.history.undoCount == 3)
        let change = try s.undo()
        #expect(change.performed == 1 && change.dirty == cleared.dirty)
        #expect(differingBytes(s.committed.packedPixels(), drawn) == 0, "undo brings back everything the clear removed")
        expectLayersAgree(s)
        try s.redo()
        #expect(s.committed.packedPixels().allSatisfy { $0 == 0 }, "redo clears again")
        try s.undo(2)
        #expect(differingBytes(s.committed.packedPixels(), (try rendered([a]))) == 0)
    }

    @Test func aNewStrokeEmptiesTheRedoSide() throws {
        let s = try session()
        try draw(s, a)
        try draw(s, b)
        try s.undo()
        #expect(s.history.redoCount == 1)
        try draw(s, c)
        #expect(s.history.redoCount == 0)
        let redone = try s.redo()
        #expect(redone.performed == 0 && redone.isShort && redone.dirty.isEmpty)
        #expect(differingBytes(s.committed.packedPixels(), (try rendered([a, c]))) == 0)
    }

    @Test func undoBeyondTheHistoryUndoesWhatThereIsAndSaysSo() throws {
        let s = try session()
        try draw(s, a)
        try draw(s, b)
        let drawn = s.committed.packedPixels()
        let change = try s.undo(5)
        #expect(change.requested == 5 && change.performed == 2 && change.isShort)
        #expect(s.committed.packedPixels().allSatisfy { $0 == 0 })
        #expect(try s.undo().performed == 0)
        let redone = try s.redo(1_000)
        #expect(redone.performed == 2)
        #expect(differingBytes(s.committed.packedPixels(), drawn) == 0)
        #expect(throws: SessionError.badHistorySteps(0)) { try s.undo(0) }
    }

    @Test func undoDuringAStrokeIsAnErrorAndChangesNothing() throws {
        let s = try session()
        try draw(s, a)
        s.brush = try Brush(id: "org.bristle.pencil", library: Self.pencilLibrary, host: BrushHost())
        try s.begin(penSample(10, 200), device: pen)
        try s.move([penSample(200, 210)])
        let during = s.committed.packedPixels()
        for attempt in [{ try s.undo() }, { try s.redo() }, { try s.clear() }] as [() throws -> HistoryChange] {
            #expect { _ = try attempt() } throws: { error in
                guard case .outOfOrder(let what) = error as! SessionError else { return false }
                return what.contains("during a stroke")
            }
        }
        #expect(differingBytes(s.committed.packedPixels(), during) == 0)
        try s.end(penSample(200, 210))
        #expect(s.history.undoCount == 2)
    }

    @Test func undoingAnEraserStrokeOverABackgroundImageBringsTheInkBack() throws {
        var checker: [UInt8] = []
        for y in 0..<8 { for x in 0..<8 { checker += (x + y) % 2 == 0 ? [200, 40, 40, 255] : [40, 40, 200, 255] } }
        let background = try #require(Background.tiled(premultiplied: checker, imageWidth: 8, imageHeight: 8))
        let s = try session(background: background)
        try draw(s, b)
        let inked = s.flattenedPixels(transparent: false)
        try draw(s, Stroke(id: "org.bristle.eraser", width: 24, points: [(60, 90), (130, 230)]))
        let erased = s.flattenedPixels(transparent: false)
        #expect(differingBytes(erased, inked) > 0, "the eraser revealed some of the image")
        try s.undo()
        #expect(differingBytes(s.flattenedPixels(transparent: false), inked) == 0)
        try s.redo()
        #expect(differingBytes(s.flattenedPixels(transparent: false), erased) == 0)
    }

    @Test func theBudgetDropsTheOldestStepsWithANotice() throws {
        func bytes(_ stroke: Stroke) throws -> Int {
            let probe = try session()
            try draw(probe, stroke)
            return probe.history.bytes
        }
        // Room for B and C, not for A as well.
        let budget = try bytes(b) + bytes(c)
        let s = try session(budget: budget)
        try draw(s, a)
        try draw(s, b)
        #expect(s.takeHistoryNotices().isEmpty)
        try draw(s, c)
        let notices = s.takeHistoryNotices()
        #expect(notices == [HistoryNotice(droppedSteps: 1, freedBytes: try bytes(a), budgetBytes: budget, remainingSteps: 2)])
        #expect(notices.first?.description.contains("dropped the 1 oldest step(s)") == true)
        #expect(s.history.droppedSteps == 1 && s.history.bytes == budget, "\(s.history.bytes) vs \(budget)")
        #expect(s.takeHistoryNotices().isEmpty, "notices are handed out once")
        let change = try s.undo(3)
        #expect(change.isShort && change.performed == 2)
        #expect(differingBytes(s.committed.packedPixels(), (try rendered([a]))) == 0, "stroke A can no longer be undone")
        s.history.budgetBytes = 0
        #expect(s.history.redoCount == 0 && s.history.bytes == 0, "lowering the budget drops at once")
    }

    @Test func historyBytesAreExactlyTheTilesKeptWhateverTheAllocatorRoundsTo() throws {
        // The budget decides which steps survive, so the count must not depend on how much
        // the allocator happened to round a buffer up: the same strokes give the same bytes.
        let s = try session()
        for stroke in [a, b, c] {
            try draw(s, stroke)
            #expect(s.history.bytes == s.history.tileCount * (64 * 64 * 4 + MemoryLayout<Int32>.size),
                    "\(s.history.tileCount) whole tiles and their indices")
        }
        let edge = try session(65, 1)
        try draw(edge, Stroke(width: 6, points: [(-10, 0), (80, 0)]))
        #expect(edge.history.tileCount == 2 && edge.history.bytes == (64 + 1) * 4 + 2 * MemoryLayout<Int32>.size,
                "a 64x1 and a 1x1 edge tile: \(edge.history.bytes) bytes")
    }

    @Test func aZeroBudgetKeepsNoHistory() throws {
        let s = try session(budget: 0)
        try draw(s, a)
        #expect(s.history.undoCount == 0 && s.history.bytes == 0)
        #expect(try s.undo().performed == 0)
        #expect(s.takeHistoryNotices().count == 1)
    }

    @Test func memoryFollowsTheTilesTheStrokesChangedNotTheCanvas() throws {
        let small = try session(256, 256)
        let large = try session(2048, 1536)
        for stroke in [a, b, c] {
            try draw(small, stroke)
            try draw(large, stroke)
        }
        #expect(small.history.bytes == large.history.bytes)
        #expect(small.history.tileCount == large.history.tileCount)
        #expect(small.history.tileCount < 3 * 16, "fewer tiles than three whole 256x256 canvases")
        #expect(small.history.bytes <= small.history.tileCount * (64 * 64 * 4 + 4) + 3 * 64, "one copy per tile, plus rounding")

        // A stroke inside one tile keeps one tile; an eraser over nothing keeps none.
        let dot = try session()
        try draw(dot, Stroke(width: 4, points: [(20, 20), (30, 25)]))
        #expect(dot.history.tileCount == 1)
        try dot.undo()
        try draw(dot, Stroke(id: "org.bristle.eraser", width: 30, points: [(150, 150), (200, 200)]))
        #expect(dot.history.tileCount == 0 && dot.history.undoCount == 1, "a step that changed nothing is still a step")
    }

    @Test func ticksFoldIntoTheirStrokeAndStopAfterUndo() throws {
        let s = try session()
        try draw(s, a)
        let pencilOnly = s.committed.packedPixels()
        try draw(s, Stroke(id: "org.bristle.force-hue", points: [(40, 150), (200, 160)]))
        #expect(try s.tick(frames: 6))
        let faded = s.committed.packedPixels()
        #expect(s.history.undoCount == 2, "ticks are not steps")
        try s.undo()
        #expect(differingBytes(s.committed.packedPixels(), pencilOnly) == 0, "undo takes back the stroke and the fade since")
        #expect(try s.tick(frames: 3) == false, "ticks wait for the next stroke")
        try s.redo()
        #expect(differingBytes(s.committed.packedPixels(), faded) == 0, "redo brings back the stroke as faded")
        expectLayersAgree(s)
    }
}
