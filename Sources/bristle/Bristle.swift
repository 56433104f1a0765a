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
        subcommands: [Render.self, Inspect.self, List.self, New.self, Play.self, ABI.self, Bench.self, Conform.self,
                      ConformChild.self, PlayWorkerCommand.self])

    /// Runs the command; `conform` turns the parser's usage errors into status 2 (its own
    /// 0/1/2 convention), every other subcommand keeps sysexits.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if Conform.isConform(CommandLine.arguments), exitCode(for: error) == .validationFailure {
                StandardError.write(fullMessage(for: error) + "\n")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
