import ArgumentParser
import BristleHost

/// `bristle abi`: the ABI this host speaks, machine-readable with `--json` (schema
/// `bristle-abi/1`): every struct's size, alignment and size in each published minor, and
/// each field's offset, size, C type and minor. Bindings in other languages test their
/// layouts against it.
struct ABI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abi",
        abstract: "Print the brush ABI's version, struct layouts and constants (--json for bindings).",
        discussion: "Sizes and offsets are this host's (x86-64 / aarch64 LP64). See docs/ABI.md.")

    @Flag(help: "Print JSON (schema bristle-abi/1) instead of text.")
    var json = false

    func run() throws {
        let report = ABIReport()
        if json {
            print(try JSONOutput.encode(report))
        } else {
            print(report.text, terminator: "")
        }
    }
}
