import ArgumentParser
import BristleHost
import Foundation

/// `bristle list`: the brushes on the plugin search path, with id clashes and broken files.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the brushes found on the plugin search path, with id clashes.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let catalog = PluginCatalog()
        let listing = CatalogListing(catalog)
        if json {
            print(try JSONOutput.encode(listing))
        } else {
            print(listing.text, terminator: "")
        }
    }
}
