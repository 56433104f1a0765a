import BristleHost

/// `history_100_strokes_4096x3072`: ``HistoryBenchmark`` as a bench case. Each repetition
/// draws 100 pencil strokes on a 4096x3072 canvas, undoes them all and redoes them all, one
/// step at a time; the timed region is the whole run, and the line adds what the issue asks
/// about: the memory the history held (against 100 full snapshots) and the time of one undo
/// and one redo step (median and worst, of the last repetition). `--segments K` below 100
/// draws only K strokes (quick checks).
final class HistoryCase: BenchCase {
    let name = "history_100_strokes_4096x3072"
    let item = "stroke"
    var items: Int { benchmark.strokes }
    var extraFields: [(String, String)] {
        guard let r = last else { return [] }
        return [("history_bytes", String(r.historyBytes)), ("history_tiles", String(r.tiles)),
                ("full_snapshot_bytes", String(r.fullSnapshotBytes)),
                ("undo_p50_ms", BenchResult.fixed(r.undoMillisecondsP50, 3)),
                ("undo_max_ms", BenchResult.fixed(r.undoMillisecondsMax, 3)),
                ("redo_p50_ms", BenchResult.fixed(r.redoMillisecondsP50, 3)),
                ("redo_max_ms", BenchResult.fixed(r.redoMillisecondsMax, 3)),
                ("round_trip_exact", r.roundTripExact ? "true" : "false")]
    }

    private let benchmark: HistoryBenchmark
    private var last: HistoryBenchmark.Result?

    init(options: BenchOptions) throws(BenchError) {
        let library: PluginLibrary
        do {
            library = try PluginCatalog().library(forBrush: SessionEventsCase.pencil.id)
        } catch {
            throw BenchError(error.description,
                             hint: "the history case needs the pencil plugin (libBristlePencil.so) beside bristle or on BRISTLE_PATH",
                             exitStatus: 69)
        }
        benchmark = HistoryBenchmark(pencilPath: library.path, strokes: min(100, options.segments))
    }

    func reset() throws(BenchError) {}

    func run(measured: Bool) throws(BenchError) {
        do { last = try benchmark.run() } catch { throw BenchError(error.description, exitStatus: 70) }
    }

    /// The history case keeps no canvas between runs: there is no picture to write.
    func writePNG(to path: String) throws(BenchError) {}
}
