import ArgumentParser
import BristleHost
import Glibc

/// `bristle render`: plays a stroke script through brushes and writes a PNG.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a stroke script (native JSON) to a PNG.",
        discussion: """
            Flags override what the script says. The output is written to a temporary file and \
            renamed into place, so a failed render never leaves a partial file and never \
            replaces an existing one.
            """)

    @Argument(help: "The stroke script (docs/stroke-format.md).")
    var input: String

    @Option(name: .shortAndLong, help: "The PNG to write; - writes to standard output.")
    var output: String

    @Option(help: ArgumentHelp("A brush id, or the path of a plugin .so holding one brush.", valueName: "ID|PATH"))
    var brush: String?

    @Option(help: "Stroke width in points (the canvas scale turns points into pixels).")
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

    @Option(help: "Seed for brush randomness (default 0).")
    var seed: UInt64?

    @Flag(name: .shortAndLong, help: "Say what was rendered, and with which brushes.")
    var verbose = false

    @Flag(help: "Print per-event timing (p50, p99) to stderr.")
    var stats = false

    func validate() throws {
        if let width, !(width > 0 && width <= DrawingSession.maximumStrokeWidth) {
            throw ValidationError("--width must be a number of points in (0, \(Int(DrawingSession.maximumStrokeWidth))], not \(width)")
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

        // A file-size limit (ulimit -f) must fail the write with EFBIG, reported as an I/O
        // error, instead of killing the process half-way through the temporary file.
        signal(SIGXFSZ, SIG_IGN)
        let renderer = ScriptRenderer(options: options)
        do {
            let script = try ScriptRenderer.loadScript(path: input)
            try renderer.render(script, toPNG: output)
        } catch {
            throw Failure.report(error)
        }
        let s = renderer.stats
        if verbose {
            StandardError.write("bristle: rendered \(s.strokes) stroke(s), \(s.cancelledStrokes) cancelled, \(s.events) event(s) with \(s.brushes.joined(separator: ", ")) -> \(output)\n")
            if !s.skippedParameters.isEmpty {
                StandardError.write("bristle: skipped script parameter(s) \(s.skippedParameters.joined(separator: ", ")): --brush chose a brush without them\n")
            }
            if s.ignoredTicks > 0 {
                StandardError.write("bristle: ignored \(s.ignoredTicks) tick(s): the brush does not want ticks\n")
            }
        }
        if stats, let p50 = s.eventMicroseconds(quantile: 0.5), let p99 = s.eventMicroseconds(quantile: 0.99) {
            StandardError.write("bristle: \(s.eventNanoseconds.count) events: p50 \(format(p50)) us, p99 \(format(p99)) us per event\n")
        }
    }

    private func format(_ v: Double) -> String {
        let scaled = (v * 100).rounded() / 100
        return String(scaled)
    }
}
