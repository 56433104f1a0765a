import ArgumentParser
import BristleHost
import Glibc

/// `bristle sheet`: the standard test sheet through a brush (or two, compared), as one
/// labelled PNG; its input exported as a stroke script on request.
struct Sheet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the standard test sheet through a brush into one labelled PNG.",
        discussion: """
            Rows: a pressure ramp, a speed ramp, 16 directions, tilt altitude and azimuth, \
            dwell, tiny strokes and taps, a mouse, a finger, coalesced and predicted samples, \
            a cancelled stroke (docs/guides/see-your-brush.md). --compare puts a second brush \
            beside the first, with a difference row. --script writes the sheet's input as a \
            stroke script that `bristle render` replays to the same canvas.
            """)

    @Argument(help: ArgumentHelp("A brush id, or the path of a plugin .so holding one brush.", valueName: "BRUSH"))
    var brush: String

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output = "sheet.png"

    @Option(name: .customLong("param"), help: ArgumentHelp("Set a parameter of BRUSH (and of --compare's brush; repeatable).", valueName: "NAME=VALUE"))
    var parameters: [String] = []

    @Option(help: ArgumentHelp("A second brush (id or .so path) to draw beside the first, with a difference row.", valueName: "BRUSH2"))
    var compare: String?

    @Option(help: ArgumentHelp("Also write the sheet's input (through BRUSH) as a native stroke script.", valueName: "OUT.json"))
    var script: String?

    func validate() throws {
        for p in parameters where CLIParsing.assignment(p) == nil {
            throw ValidationError("--param must look like NAME=VALUE, not '\(p)'")
        }
    }

    func run() throws {
        let assignments = parameters.compactMap(CLIParsing.assignment)
        let first = StandardSheet.BrushChoice(idOrPath: Self.absolute(brush), parameters: assignments)
        let second = compare.map { StandardSheet.BrushChoice(idOrPath: Self.absolute($0), parameters: assignments) }
        signal(SIGXFSZ, SIG_IGN)
        let image: SheetRenderer.Image
        do {
            image = try SheetRenderer.render(first, compare: second)
        } catch {
            throw Failure.report(error)
        }
        do {
            try PNGCodec.write(rgba: image.pixels, width: image.width, height: image.height, to: output)
        } catch {
            throw Failure.report(.png(error, writing: true))
        }
        if let script {
            do {
                try AtomicFileWriter.write(Array(StandardSheet.script(brush: first).utf8), to: script)
            } catch {
                throw Failure.report(error.description, hint: nil, status: error.kind == .io ? 74 : 73)
            }
        }
        if second != nil { print("\(image.differingPixels) pixel(s) differ") }
    }

    /// A plugin path made absolute (a script resolves relative paths against its own folder);
    /// an id as it is.
    private static func absolute(_ brush: String) -> String {
        Paths.namesAFile(brush) ? Paths.absolute(brush) : brush
    }
}
