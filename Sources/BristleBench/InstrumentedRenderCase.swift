import BristleHost

/// The cost of the instruments (docs/guides/see-your-brush.md): the standard sheet
/// (``StandardSheet``) through the pencil, rendered as `bristle render` does (parsed, then
/// ``ScriptRenderer/render(_:)``, no PNG), plain, with the hook timeline and its Chrome trace
/// text (`--trace`), and with the timeline counting changed pixels and its per-hook table
/// (`--stats`). Compare the three lines' `ms_per_run`.
final class InstrumentedRenderCase: BenchCase {
    /// What the render records.
    enum Mode: String, CaseIterable {
        case plain, traced, stats
    }

    let name: String
    let item = "render"
    let items = 1
    var extraFields: [(String, String)] { [("events", String(events)), ("hook_calls", String(calls))] }

    private let mode: Mode
    private let json: [UInt8]
    private var session: DrawingSession?
    private var events = 0
    private var calls = 0
    /// Kept so the optimiser cannot drop the trace text and table.
    private var outputBytes = 0

    init(_ mode: Mode) {
        self.mode = mode
        name = "render_sheet_pencil_" + mode.rawValue
        json = Array(StandardSheet.script(brush: .init(idOrPath: "org.bristle.pencil")).utf8)
    }

    /// The table rows, one per mode.
    static var entries: [BenchRegistry.Entry] {
        Mode.allCases.map { mode in
            BenchRegistry.Entry(name: "render_sheet_pencil_" + mode.rawValue,
                                summary: mode == .plain ? "the standard sheet through the pencil, rendered (bristle render without instruments)"
                                    : mode == .traced ? "the same with every hook and service call recorded and serialised as trace text in chunks, as --trace writes it"
                                    : "the same counting changed pixels, with the per-hook table (--stats)",
                                make: { _ throws(BenchError) in InstrumentedRenderCase(mode) })
        }
    }

    func reset() throws(BenchError) { session = nil }

    func run(measured: Bool) throws(BenchError) {
        var options = RenderOptions()
        options.recordHooks = mode != .plain
        options.countChangedPixels = mode == .stats
        let renderer = ScriptRenderer(options: options)
        do {
            let script = try InkImporter.parse(json, sourcePath: name + ".json").script
            session = try renderer.render(script)
        } catch {
            throw BenchError("\(name): \(error)", hint: "the case needs the reference plugins beside bristle or on BRISTLE_PATH",
                             exitStatus: 70)
        }
        events = renderer.stats.events
        guard let timeline = renderer.timeline else { return }
        calls = timeline.count
        if mode == .traced {
            var count = 0
            TraceEventWriter.writeChunks(timeline) { count += $0.count }
            outputBytes = count
        } else {
            outputBytes = HookStatistics(timeline).table.utf8.count
        }
    }

    func writePNG(to path: String) throws(BenchError) {
        guard let session else { return }
        do { try session.exportPNG(to: path, transparent: false) } catch { throw BenchError.png(error) }
    }
}
