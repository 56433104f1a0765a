import ArgumentParser
import BristleHost
import Glibc

/// The `bristle` command: renders recorded pen input through brush plugins and inspects them.
@main
struct Bristle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bristle",
        abstract: "Render recorded pen input through brush plugins, inspect brushes, and start new ones.",
        discussion: """
            Brushes are shared libraries that export bristle_entry_v1 (include/bristle/bristle.h). \
            They are found on BRISTLE_PATH, beside this executable, in ../lib/bristle/plugins, \
            and in ~/.local, /usr/local and /usr lib/bristle/plugins.

            Exit status: 0 ok, 64 usage, 65 bad input data, 66 input or plugin not found, \
            69 plugin unusable, 70 internal error, 73 cannot create the output, 74 I/O error.
            """,
        version: BrushHost.version,
        subcommands: [Render.self, Sheet.self, Inspect.self, List.self, New.self, Play.self, ABI.self, Bench.self, Conform.self,
                      ConformChild.self, PlayWorkerCommand.self])

    /// Runs the command. A usage error (the parser's or a validation's) is one line in the
    /// documented form, `bristle: error: ...`, plus a hint naming the help to read; it exits
    /// with 64 (EX_USAGE), or 2 for `conform` (its own 0/1/2 convention).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            let arguments = CommandLine.arguments.dropFirst()
            let subcommand = arguments.first { name in configuration.subcommands.contains { $0._commandName == name } }
            let text = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            StandardError.line("bristle: error: " + usageSentence(text))
            StandardError.line("bristle: hint: see `bristle help\(subcommand.map { " " + $0 } ?? "")` for the options")
            Glibc.exit(Conform.isConform(CommandLine.arguments) ? 2 : 64)
        }
    }

    /// The parser's message as the rest of the CLI words errors: lower-case first letter.
    private static func usageSentence(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, !text.hasPrefix("--") else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
