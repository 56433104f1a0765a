import ArgumentParser
import BristleHost
import BristleScaffold
import Glibc

/// `bristle new`: scaffolds a brush project (C or C++ with a Makefile, Rust with cargo and the
/// `bristle` crate, or Swift with BristleKit) that builds with one command and renders with
/// `bristle render`.
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a brush project: NAME.c or NAME.cpp and a Makefile, a cargo package using the bristle crate, or a Swift package using BristleKit.",
        discussion: """
            The folder (NAME, or --dir) must not exist. Its README.md gives the one build command. \
            A Swift project depends on the BristleKit package installed beside this command \
            (PREFIX/share/bristle/swift/BristleKit) or named by BRISTLE_KIT. A Rust project \
            depends on the bristle crate: in the folder named by BRISTLE_RUST, else installed \
            beside this command (PREFIX/share/bristle/rust), else in the Bristle checkout this \
            command was built in (bindings/rust); it builds with cargo build --release, offline.

            Exit status: 0 created, 64 usage (bad NAME or id), 69 BristleKit or the Rust crates \
            not found, 73 the folder exists or cannot be created.
            """)

    @Argument(help: ArgumentHelp("The project and library name: a-z, 0-9 and '-', starting with a letter.", valueName: "NAME"))
    var name: String

    @Option(help: ArgumentHelp("The language: c, cpp (C++17), rust or swift.", valueName: "c|cpp|rust|swift"))
    var lang: BrushProject.Language

    @Option(help: ArgumentHelp("Where to create the project (default: ./NAME).", valueName: "DIR"))
    var dir: String?

    @Option(help: ArgumentHelp("The brush id (default: org.example.NAME).", valueName: "ID"))
    var id: String?

    func run() throws {
        let destination = dir ?? name
        do {
            let kit: String? = switch lang {
            case .swift: try KitLocator.find(.swift)
            case .rust: try KitLocator.find(.rust)
            case .c, .cpp: nil
            }
            let project = try BrushProject(name: name, id: id, language: lang, kitPath: kit)
            try project.write(into: destination)
            print("Created \(destination) (\(project.id), \(lang.rawValue)). Build it: cd \(destination) && \(project.buildCommand)")
        } catch {
            throw Failure.report(error.description, hint: error.hint, status: error.exitStatus)
        }
    }
}

extension BrushProject.Language: ExpressibleByArgument {}
