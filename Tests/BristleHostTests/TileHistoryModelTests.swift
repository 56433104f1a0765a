import BristleHost
import BristleTestSupport
import Testing

/// The tile history against a model that keeps whole snapshots: seeded random sessions of
/// strokes reaching past every canvas edge, cancelled strokes, ticks, undo, redo and clear,
/// on odd canvas sizes (partial edge tiles) and under small budgets, must give back exactly
/// the bytes the model remembers after every undo and redo.
@Suite struct TileHistoryModelTests {
    static let pencilLibrary: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristlePencil"))
    static let forceHueLibrary: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleForceHue"))

    private let pen = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)

    /// A small deterministic generator (SplitMix64).
    private struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func channel() -> Float { Float(unit()) }
    }

    /// Snapshots before each undoable step (newest last) and after each undone step (next redo
    /// last), trimmed to what the history still holds after a budget drop.
    private struct Model {
        var past: [[UInt8]] = []
        var future: [[UInt8]] = []
        mutating func trim(to history: TileHistory) {
            past.removeFirst(max(0, past.count - history.undoCount))
            future.removeFirst(max(0, future.count - history.redoCount))
        }
    }

    static let sizes: [(Int, Int)] = [(65, 1), (1, 200), (130, 67), (64, 64), (200, 129), (1, 1)]
    static let budgets = [TileHistory.defaultBudgetBytes, 0, 100, 20_000]

    @Test(arguments: sizes.indices, budgets)
    func randomSessionsUndoAndRedoToTheExactBytes(_ sizeIndex: Int, _ budget: Int) throws {
        let (width, height) = Self.sizes[sizeIndex]
        let s = try DrawingSession(width: width, height: height, historyBudgetBytes: budget)
        var model = Model()
        var random = Random(state: UInt64(sizeIndex * 7919 + budget))
        let brushes = [("org.bristle.pencil", Self.pencilLibrary), ("org.bristle.eraser", Self.pencilLibrary),
                       ("org.bristle.force-hue", Self.forceHueLibrary)]
        func point() -> (Double, Double) {
            (random.unit() * Double(width + 60) - 30, random.unit() * Double(height + 60) - 30)
        }
        for step in 0..<120 {
            let before = s.committed.packedPixels()
            let action = random.below(10)
            let label = "step \(step), action \(action), \(width)x\(height), budget \(budget)"
            switch action {
            case 0...4:
                let (id, library) = brushes[random.below(brushes.count)]
                if s.brush?.descriptor.id != id { s.brush = try Brush(id: id, library: library, host: BrushHost()) }
                s.color = RGBAColor(red: random.channel(), green: random.channel(), blue: random.channel(), alpha: 0.4 + 0.6 * random.channel())
                s.strokeWidth = 1 + 30 * random.unit()
                let p = point()
                try s.begin(penSample(p.0, p.1, pressure: random.unit()), device: pen)
                for _ in 0..<(1 + random.below(4)) {
                    let q = point()
                    try s.move([penSample(q.0, q.1, pressure: random.unit())])
                }
                if action == 4 {
                    s.cancel()
                    #expect(s.committed.packedPixels() == before, "a cancelled stroke leaves no trace: \(label)")
                } else {
                    let q = point()
                    try s.end(penSample(q.0, q.1, pressure: random.unit()))
                    model.past.append(before)
                    model.future.removeAll()
                }
            case 5:
                // Folded into the newest step: the states before each step stay as they were.
                _ = try s.tick(frames: 1 + random.below(5))
            case 6, 7:
                let n = 1 + random.below(3)
                let change = try s.undo(n)
                #expect(change.performed == min(n, model.past.count), "\(label)")
                var current = before
                for _ in 0..<change.performed {
                    model.future.append(current)
                    current = model.past.removeLast()
                }
                #expect(s.committed.packedPixels() == current, "undo gives back the exact bytes: \(label)")
            case 8:
                let n = 1 + random.below(3)
                let change = try s.redo(n)
                #expect(change.performed == min(n, model.future.count), "\(label)")
                var current = before
                for _ in 0..<change.performed {
                    model.past.append(current)
                    current = model.future.removeLast()
                }
                #expect(s.committed.packedPixels() == current, "redo gives back the exact bytes: \(label)")
            default:
                try s.clear()
                #expect(s.committed.packedPixels().allSatisfy { $0 == 0 }, "\(label)")
                model.past.append(before)
                model.future.removeAll()
            }
            model.trim(to: s.history)
            #expect(model.past.count == s.history.undoCount && model.future.count == s.history.redoCount, "\(label)")
            #expect(s.committed.hasSamePixels(as: s.base) && s.committed.hasSamePixels(as: s.preview), "\(label)")
            #expect(s.history.bytes >= 0 && (budget == 0 ? s.history.bytes == 0 : s.history.bytes <= budget), "\(label)")
            #expect(budget != 0 || (s.history.undoCount == 0 && s.history.redoCount == 0), "\(label)")
            _ = s.takeHistoryNotices()
        }
    }
}
