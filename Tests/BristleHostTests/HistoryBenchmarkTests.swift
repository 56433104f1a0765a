import BristleBench
import BristleHost
import BristleTestSupport
import Testing

/// `HistoryBenchmark` run tiny: its numbers are right in kind (memory follows the tiles the
/// strokes touched, not the canvas; undo and redo round-trip exactly). No timing is asserted.
@Suite struct HistoryBenchmarkTests {
    @Test func historyMemoryFollowsTouchedTilesNotTheCanvas() throws {
        let pencil = TestEnvironment.plugin("BristlePencil")
        let small = try HistoryBenchmark(pencilPath: pencil, strokes: 5, width: 256, height: 256).run()
        #expect(small.roundTripExact)
        #expect(small.strokes == 5 && small.fullSnapshotBytes == 5 * 256 * 256 * 4)
        #expect(small.tiles > 0 && small.historyBytes > 0)
        #expect(small.historyBytes <= small.tiles * (64 * 64 * 4 + 4) + small.strokes * 64,
                "one copy per tile held, plus an allocator's rounding of each step's index list")
        #expect(small.historyBytes < small.fullSnapshotBytes)
        #expect(small.undoMillisecondsMax >= small.undoMillisecondsP50 && small.undoMillisecondsP50 >= 0)
        #expect(small.redoMillisecondsMax >= small.redoMillisecondsP50 && small.redoMillisecondsP50 >= 0)

        // Four times the canvas on each side, the same number of strokes: the walks start
        // anywhere on the larger canvas, but each still touches a similar number of tiles.
        let large = try HistoryBenchmark(pencilPath: pencil, strokes: 5, width: 1024, height: 1024).run()
        #expect(large.roundTripExact)
        #expect(large.fullSnapshotBytes == 16 * small.fullSnapshotBytes)
        #expect(large.historyBytes < 4 * small.historyBytes,
                "history \(large.historyBytes) bytes on 1024x1024 vs \(small.historyBytes) on 256x256")
    }
}
