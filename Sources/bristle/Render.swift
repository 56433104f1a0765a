import ArgumentParser
import BristleHost
import Glibc

/// `bristle render`: plays a stroke script through brushes and writes a PNG.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render stroke scripts and pen recordings to PNG.",
        discussion: """
            Inputs are native JSON scripts (docs/stroke-format.md), W3C InkML, Pointer Events \
            captures or Wacom sensor CSV, recognised by content (docs/importers.md). Flags \
            override what a script says. Outputs are written to a temporary file and renamed \
            into place, so a failed render never leaves a partial file and never replaces an \
            existing one. With --out-dir, several inputs (or folders of them) render in \
            parallel; every failure is reported at the end.
            """)

    @Argument(help: "Input files, or folders of them with --out-dir.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The PNG to write for a single input; - writes to standard output.")
    var output: String?

    @Option(name: .customLong("out-dir"), help: ArgumentHelp("Render every input into DIR/<name>.png (DIR is created when missing).", valueName: "DIR"))
    var outputDirectory: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The drawing of a Quick, Draw! .ndjson file to render with -o, from 0 (default 0); --out-dir renders them all.", valueName: "N"))
    var drawing: Int?

    @Flag(help: "With --out-dir, descend into sub-folders of input folders, mirroring them in the output folder.")
    var recursive = false

    @Option(help: ArgumentHelp("A brush id, or the path of a plugin .so holding one brush.", valueName: "ID|PATH"))
    var brush: String?

    // Numbers are parsed unconditionally, so `--width -1` is a width to refuse, not a flag.
    @Option(parsing: .unconditional, help: "Stroke width in points (the canvas scale turns points into pixels).")
    var width: Double?

    @Option(help: ArgumentHelp("Stroke colour: #rrggbb, #rrggbbaa or a CSS colour name.", valueName: "COLOR"))
    var color: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("Set a brush parameter (repeatable); `bristle inspect` lists them.", valueName: "NAME=VALUE"))
    var parameters: [String] = []

    @Option(help: ArgumentHelp("Canvas size in pixels.", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Background: a colour, or the path of a PNG image (tiled).", valueName: "COLOR|IMAGE"))
    var background: String?

    @Flag(help: "Write a transparent PNG: the drawing without its background.")
    var transparent = false

    @Option(parsing: .unconditional, help: "Seed for brush randomness (default 0).")
    var seed: UInt64?

    @Option(name: .customLong("pressure-curve"), help: ArgumentHelp("Map measured pressure: identity, gamma:G or points:X,Y;X,Y;...", valueName: "CURVE"))
    var pressureCurve: String?

    @Option(parsing: .unconditional, help: "Run N frames of the 60 Hz clock after the last stroke, writing each to --frames-dir.")
    var frames: Int?

    @Option(name: .customLong("frames-dir"), help: ArgumentHelp("Where --frames writes frame-0001.png...", valueName: "DIR"))
    var framesDirectory: String?

    @Option(name: .customLong("history-budget"), parsing: .unconditional, help: ArgumentHelp("Memory for undo history in MiB (default 256; 0 keeps none). Past it the oldest steps are dropped, with a warning.", valueName: "MIB"))
    var historyBudget: Int?

    @Flag(name: .shortAndLong, help: "Say what was rendered: input format, brushes, dropped samples.")
    var verbose = false

    @Flag(help: "Print per-event timing (p50, p99) and a per-hook table (calls, p50/p99/max, samples per call, pixels reported dirty and actually changed) to stderr.")
    var stats = false

    @Flag(help: "With --stats: print the numbers as JSON on standard output instead.")
    var json = false

    @Option(help: ArgumentHelp("Write every hook and service call as a Chrome trace (Perfetto, about:tracing).", valueName: "TRACE.json"))
    var trace: String?

    func validate() throws {
        if outputDirectory == nil {
            guard inputs.count == 1 else {
                throw ValidationError("several inputs need --out-dir DIR (or render them one at a time with -o)")
            }
            guard output != nil else { throw ValidationError("missing -o OUT.png (or --out-dir DIR)") }
        } else if output != nil {
            throw ValidationError("use either -o (one input) or --out-dir (many), not both")
        }
        if recursive && outputDirectory == nil { throw ValidationError("--recursive needs --out-dir DIR") }
        if let drawing {
            guard drawing >= 0 else { throw ValidationError("--drawing must be a drawing number from 0, not \(drawing)") }
            guard outputDirectory == nil else { throw ValidationError("--drawing chooses one drawing for -o; --out-dir renders every drawing") }
        }
        if let frames {
            guard (1...100_000).contains(frames) else { throw ValidationError("--frames must be 1...100000, not \(frames)") }
            guard framesDirectory != nil else { throw ValidationError("--frames needs --frames-dir DIR") }
            guard outputDirectory == nil else { throw ValidationError("--frames renders one input; drop --out-dir") }
        } else if framesDirectory != nil {
            throw ValidationError("--frames-dir needs --frames N")
        }
        if let pressureCurve {
            do { _ = try PressureCurve(parsing: pressureCurve) } catch { throw ValidationError(error.description) }
        }
        if let width, !(width > 0 && width <= DrawingSession.maximumStrokeWidth) {
            throw ValidationError("--width must be positive: a number of points in (0, \(Int(DrawingSession.maximumStrokeWidth))], not \(BrushParameter.plain(width))")
        }
        if let size, CLIParsing.size(size) == nil {
            throw ValidationError("--size must look like 640x480 (each side 1...\(Layer.maximumSide)), not '\(size)'")
        }
        if let color, (try? RGBAColor(parsing: color)) == nil {
            throw ValidationError("--color '\(color)' is not a colour; use #rrggbb, #rrggbbaa or a CSS name")
        }
        if let background, (try? RGBAColor(parsing: background)) == nil, !background.lowercased().hasSuffix(".png") {
            throw ValidationError("--background '\(background)' is neither a colour (#rrggbb, a CSS name, rgb()) nor a .png image")
        }
        if let historyBudget, !(0...(1 << 30)).contains(historyBudget) {
            throw ValidationError("--history-budget must be a number of MiB in 0...\(1 << 30), not \(historyBudget)")
        }
        if json, !stats { throw ValidationError("--json needs --stats") }
        if json, output == "-" { throw ValidationError("--stats --json prints on standard output; write the PNG to a file, not -") }
        if outputDirectory != nil, stats || trace != nil {
            throw ValidationError("--stats and --trace instrument one render; drop --out-dir")
        }
        for p in parameters where CLIParsing.assignment(p) == nil {
            throw ValidationError("--param must look like NAME=VALUE, not '\(p)'")
        }
    }

    func run() throws {
        var options = RenderOptions()
        options.brush = brush
        options.width = width
        options.color = color.flatMap { try? RGBAColor(parsing: $0) }
        options.parameters = parameters.compactMap(CLIParsing.assignment)
        options.canvasSize = size.flatMap(CLIParsing.size)
        options.background = background.map(CLIParsing.background)
        options.transparent = transparent
        options.seed = seed
        options.measureEvents = stats
        options.recordHooks = stats || trace != nil
        options.countChangedPixels = stats
        options.pressureCurve = pressureCurve.flatMap { try? PressureCurve(parsing: $0) } ?? .identity
        options.frames = frames ?? 0
        options.framesDirectory = framesDirectory
        options.historyBudgetBytes = historyBudget.map { $0 << 20 }

        // A file-size limit (ulimit -f) must fail the write with EFBIG, reported as an I/O
        // error, instead of killing the process half-way through the temporary file.
        signal(SIGXFSZ, SIG_IGN)
        if let outputDirectory {
            try renderBatch(options, into: outputDirectory)
        } else {
            try renderOne(options, input: inputs[0], output: output!)
        }
    }

    private func renderOne(_ options: RenderOptions, input: String, output: String) throws {
        let renderer = ScriptRenderer(options: options)
        let inputFormat: InkImporter.Format
        do {
            let loaded = try ScriptRenderer.loadInput(path: input, fitInto: options.canvasSize, drawing: drawing ?? 0)
            inputFormat = loaded.format
            if let trace { try OutputGuard.check(trace, against: OutputGuard.inputs(of: loaded.script, options: options) + [output]) }
            try renderer.render(loaded.script, toPNG: output)
        } catch {
            throw Failure.report(error)
        }
        if let trace, let timeline = renderer.timeline {
            do {
                try TraceEventWriter.write(timeline, brushLabel: renderer.stats.brushes.joined(separator: ", "), to: trace)
            } catch {
                throw Failure.report(error.description, hint: nil, status: error.kind == .io ? 74 : 73)
            }
        }
        let s = renderer.stats
        for warning in s.warnings { StandardError.line("bristle: \(warning)") }
        if verbose {
            StandardError.line("bristle: read \(input) as \(inputFormat.rawValue)")
            StandardError.line("bristle: rendered \(s.strokes) stroke(s), \(s.cancelledStrokes) cancelled, \(s.events) event(s) with \(s.brushes.joined(separator: ", ")) -> \(output)")
            if s.droppedSamples > 0 {
                StandardError.line("bristle: dropped \(s.droppedSamples) sample(s) with a coordinate beyond \(Int(RenderOptions.absurdCoordinate)) px")
            }
            if s.framesWritten > 0 {
                StandardError.line("bristle: wrote \(s.framesWritten) frame(s) to \(options.framesDirectory ?? "")")
            }
            if !s.skippedParameters.isEmpty {
                StandardError.line("bristle: skipped script parameter(s) \(s.skippedParameters.joined(separator: ", ")): --brush chose a brush without them")
            }
            if s.ignoredTicks > 0 {
                StandardError.line("bristle: ignored \(s.ignoredTicks) tick(s): the brush does not want ticks")
            }
            if s.undoneSteps + s.redoneSteps > 0 || s.droppedHistorySteps > 0 {
                StandardError.line("bristle: history: undid \(s.undoneSteps) step(s), redid \(s.redoneSteps), dropped \(s.droppedHistorySteps) for the budget; \(s.historyBytes) bytes held at the end")
            }
        }
        guard stats else { return }
        let hooks = renderer.timeline.map(HookStatistics.init) ?? HookStatistics(rows: [])
        if json {
            print(try JSONOutput.encode(RenderStatsReport(events: s.eventNanoseconds.count,
                                                          p50Microseconds: s.eventMicroseconds(quantile: 0.5) ?? 0,
                                                          p99Microseconds: s.eventMicroseconds(quantile: 0.99) ?? 0,
                                                          hooks: hooks.rows)))
            return
        }
        if let p50 = s.eventMicroseconds(quantile: 0.5), let p99 = s.eventMicroseconds(quantile: 0.99) {
            StandardError.line("bristle: \(s.eventNanoseconds.count) events: p50 \(format(p50)) us, p99 \(format(p99)) us per event")
        }
        for line in hooks.table.split(separator: "\n") { StandardError.line(String(line)) }
    }

    private func renderBatch(_ options: RenderOptions, into directory: String) throws {
        guard Paths.makeDirectories(directory) else {
            throw Failure.report("\(directory): cannot create the output folder (\(String(cString: strerror(errno))))",
                                 hint: "choose an --out-dir inside a folder you can write to", status: 73)
        }
        let found = BatchInputs(inputs, recursive: recursive)
        for s in found.skipped { StandardError.line("bristle: skipped \(s.path): \(s.reason)") }
        guard !found.inputs.isEmpty else {
            throw Failure.report("no pen recordings or stroke scripts found in \(inputs.joined(separator: ", ")) (skipped \(found.skipped.count))",
                                 hint: recursive ? "files are recognised by content; the skipped ones are listed above"
                                                 : "files are recognised by content; --recursive also reads sub-folders",
                                 status: 66)
        }
        let files = found.inputs.map(\.path)
        let showProgress = isatty(2) != 0
        let results = BatchRenderer(options: options, outputDirectory: directory)
            .run(files, subfolders: found.inputs.map(\.subfolder)) { done, total, _ in
            if showProgress { StandardError.progress("bristle: \(done)/\(total) rendered") }
        }
        if showProgress { StandardError.line("") }
        for r in results where r.error == nil {
            for warning in r.stats.warnings { StandardError.line("bristle: \(warning)") }
        }
        if verbose {
            for r in results where r.error == nil {
                let dropped = r.stats.droppedSamples > 0 ? ", dropped \(r.stats.droppedSamples) sample(s) with a coordinate beyond \(Int(RenderOptions.absurdCoordinate)) px" : ""
                let count = r.renders == 1 ? "" : "\(r.renders) drawings, "
                StandardError.line("bristle: \(r.input) (\(r.format?.rawValue ?? "?")): \(count)\(r.stats.strokes) stroke(s)\(dropped) -> \(r.output)")
            }
        }
        let failures = results.filter { $0.error != nil }
        for failure in failures {
            let text = failure.error!.description
            let named = text.hasPrefix(failure.input) ? text : "\(failure.input): \(text)"
            StandardError.line("bristle: error: \(named)")
        }
        let renders = results.reduce(0) { $0 + ($1.error == nil ? $1.renders : 0) }
        StandardError.line("bristle: rendered \(renders), skipped \(found.skipped.count), failed \(failures.count) (into \(directory))")
        if let first = failures.first?.error {
            throw ExitCode(first.exitStatus)
        }
    }

    private func format(_ v: Double) -> String {
        let scaled = (v * 100).rounded() / 100
        return String(scaled)
    }
}
