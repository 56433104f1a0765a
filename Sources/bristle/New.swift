import ArgumentParser
import BristleHost
import Glibc

/// `bristle new`: scaffolds a brush project (C or C++ with a Makefile, or Swift with BristleKit)
/// that builds with one command and renders with `bristle render`.
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a brush project: NAME.c or NAME.cpp and a Makefile, or a Swift package using BristleKit.",
        discussion: """
            The folder (NAME, or --dir) must not exist. Its README.md gives the one build command. \
            A Swift project depends on the BristleKit package installed beside this command \
            (PREFIX/share/bristle/swift/BristleKit) or named by BRISTLE_KIT.

            Exit status: 0 created, 64 usage (bad NAME or id), 69 BristleKit not found, \
            73 the folder exists or cannot be created.
            """)

    @Argument(help: ArgumentHelp("The project and library name: a-z, 0-9 and '-', starting with a letter.", valueName: "NAME"))
    var name: String

    @Option(help: ArgumentHelp("The language: c, cpp (C++17) or swift.", valueName: "c|cpp|swift"))
    var lang: BrushProject.Language

    @Option(help: ArgumentHelp("Where to create the project (default: ./NAME).", valueName: "DIR"))
    var dir: String?

    @Option(help: ArgumentHelp("The brush id (default: org.example.NAME).", valueName: "ID"))
    var id: String?

    func run() throws {
        let destination = dir ?? name
        do {
            let kit = lang == .swift ? try KitLocator.find() : nil
            let project = try BrushProject(name: name, id: id, language: lang, kitPath: kit)
            try project.write(into: destination)
            print("Created \(destination) (\(project.id), \(lang.rawValue)). Build it: cd \(destination) && \(lang == .swift ? "swift build -c release" : "make")")
        } catch {
            throw Failure.report(error.description, hint: error.hint, status: error.exitStatus)
        }
    }
}

extension BrushProject.Language: ExpressibleByArgument {}
