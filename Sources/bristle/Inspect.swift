import ArgumentParser
import BristleHost
import Foundation

/// `bristle inspect`: every brush in a plugin file, with its descriptor and parameters.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every brush in a plugin file: descriptor, capabilities and parameters.")

    @Argument(help: ArgumentHelp("A plugin .so, or a brush id found on the search path.", valueName: "PLUGIN"))
    var plugin: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let report: PluginReport
        do {
            report = try PluginReport(plugin: plugin)
        } catch {
            throw Failure.report(error)
        }
        if json {
            print(try JSONOutput.encode(report))
        } else {
            print(report.text, terminator: "")
        }
    }
}
