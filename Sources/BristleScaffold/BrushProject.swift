import BristleHost
import Glibc

/// A brush project as `bristle new` scaffolds it: a name, a brush id, a language, and for
/// Swift the BristleKit package (for Rust the folder of the `bristle` crate) to depend on. ``files`` is every file it writes;
/// ``write(into:)`` creates the project folder whole or not at all.
public struct BrushProject: Sendable {
    /// The languages a project can be written in.
    public enum Language: String, Sendable, CaseIterable {
        case c
        case cpp
        case rust
        case swift
    }

    /// The project's name: the library is `libNAME.so`.
    public let name: String
    /// The brush id, `org.example.NAME` unless given.
    public let id: String
    public let language: Language
    /// The BristleKit package folder (Swift), or the folder holding the `bristle` crate (Rust).
    public let kitPath: String?

    /// Checks the name and id. The name is 1 to 64 of a-z, 0-9 and '-', starting with a
    /// letter and not ending with '-'; the id is 1 to 255 of A-Z, a-z, 0-9, '.', '-' and '_'.
    public init(name: String, id: String? = nil, language: Language, kitPath: String? = nil) throws(ScaffoldError) {
        let bytes = Array(name.utf8)
        let allowed = bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d }
        guard !bytes.isEmpty, bytes.count <= 64, allowed, (0x61...0x7a).contains(bytes[0]), bytes.last != 0x2d else {
            throw .invalidName(name)
        }
        let brushID = id ?? "org.example.\(name)"
        let idBytes = Array(brushID.utf8)
        guard !idBytes.isEmpty, idBytes.count <= 255, idBytes.allSatisfy({
            ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2e || $0 == 0x2d || $0 == 0x5f
        }) else {
            throw .invalidID(brushID)
        }
        if language == .swift, kitPath == nil { throw .kitNotFound(searched: []) }
        if language == .rust, kitPath == nil { throw .rustCratesNotFound(searched: []) }
        self.name = name
        self.id = brushID
        self.language = language
        self.kitPath = kitPath
    }

    /// "my-brush" -> "My Brush": the brush's human-readable name.
    public var title: String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// "my-brush" -> "MyBrush": the Swift module and type name.
    public var moduleName: String { title.replacing(" ", with: "") }

    /// "my-brush" -> "my_brush": the Rust crate name, so the library is `libmy_brush.so`.
    public var crateName: String { name.replacing("-", with: "_") }

    /// The command that builds the project, run in its folder.
    public var buildCommand: String {
        switch language {
        case .c, .cpp: "make"
        case .rust: "cargo build --release"
        case .swift: "swift build -c release"
        }
    }

    /// Every file of the project: relative path and contents (ending with a newline).
    public var files: [(path: String, contents: String)] {
        let list: [(String, String)] = switch language {
        case .c:
            [("\(name).c", CBrushTemplate.source), ("Makefile", CBrushTemplate.makefile),
             ("README.md", CBrushTemplate.readme), ("stroke.json", BrushProject.strokeScript)]
        case .cpp:
            [("\(name).cpp", CppBrushTemplate.source), ("Makefile", CppBrushTemplate.makefile),
             ("README.md", CppBrushTemplate.readme), ("stroke.json", BrushProject.strokeScript)]
        case .rust:
            [("Cargo.toml", RustBrushTemplate.manifest), ("src/lib.rs", RustBrushTemplate.source),
             ("README.md", RustBrushTemplate.readme), ("stroke.json", BrushProject.strokeScript)]
        case .swift:
            [("Package.swift", SwiftBrushTemplate.manifest), ("exports.map", SwiftBrushTemplate.exports),
             ("Sources/\(moduleName)/\(moduleName).swift", SwiftBrushTemplate.brush),
             ("Sources/\(moduleName)/\(moduleName)Library.swift", SwiftBrushTemplate.library),
             ("README.md", SwiftBrushTemplate.readme), ("stroke.json", BrushProject.strokeScript)]
        }
        return list.map { ($0.0, fill($0.1) + "\n") }
    }

    /// The template with its placeholders replaced. The kit path goes into a Swift or TOML
    /// string literal, so its backslashes and quotes are escaped (the same way in both).
    private func fill(_ template: String) -> String {
        let kit = (kitPath ?? "").replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return template.replacing("{{NAME}}", with: name).replacing("{{ID}}", with: id)
            .replacing("{{TITLE}}", with: title).replacing("{{MODULE}}", with: moduleName)
            .replacing("{{CRATE}}", with: crateName).replacing("{{KIT}}", with: kit)
    }

    /// Writes the project into `directory`, which must not exist: the files go into a hidden
    /// sibling folder first, which is renamed to `directory` when complete (removed on failure).
    public func write(into directory: String) throws(ScaffoldError) {
        var st = stat()
        if lstat(directory, &st) == 0 { throw .exists(directory) }
        let parent = directory.contains("/") ? String(directory[..<directory.lastIndex(of: "/")!]) : "."
        var template = Array("\(parent.isEmpty ? "/" : parent)/.bristle-new-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .cannotCreate(directory, String(cString: strerror(errno))) }
        let staging = String(cString: made)
        let mask = umask(0)
        umask(mask)
        chmod(staging, 0o777 & ~mask)  // mkdtemp made it private; a project folder is not
        do {
            for file in files {
                let path = staging + "/" + file.path
                try makeParents(of: path, below: staging)
                try AtomicFileWriter.write(Array(file.contents.utf8), to: path)
            }
            guard rename(staging, directory) == 0 else { throw ScaffoldError.cannotCreate(directory, String(cString: strerror(errno))) }
        } catch let error as ScaffoldError {
            remove(staging)
            throw error
        } catch {
            remove(staging)
            throw .cannotCreate(directory, "\(error)")
        }
    }

    /// Creates the folders between `base` and the file at `path`.
    private func makeParents(of path: String, below base: String) throws(ScaffoldError) {
        var folder = base
        for part in path.dropFirst(base.count + 1).split(separator: "/").dropLast() {
            folder += "/\(part)"
            if mkdir(folder, 0o755) != 0, errno != EEXIST { throw .cannotCreate(folder, String(cString: strerror(errno))) }
        }
    }

    /// Removes a staging folder and everything in it (it holds only what ``write(into:)`` made).
    private func remove(_ staging: String) {
        for file in files { unlink(staging + "/" + file.path) }
        for folder in ["Sources/\(moduleName)", "Sources", "src"] { rmdir(staging + "/" + folder) }
        rmdir(staging)
    }

    /// `stroke.json`: two pen strokes with pressure, drawn with the project's brush by
    /// `bristle render stroke.json -o out.png --brush ./libNAME.so`.
    static let strokeScript = #"""
{"canvas": {"width": 320, "height": 200, "background": "#ffffff"},
 "actions": [
  {"brush": {"id": "{{ID}}", "color": "#1a4dcc", "width": 10}},
  {"stroke": {"pointerType": "pen", "events": [
    {"x": 30, "y": 140, "pressure": 0.2, "timeStamp": 0},
    {"x": 90, "y": 60, "pressure": 0.6, "timeStamp": 16},
    {"x": 160, "y": 40, "pressure": 1.0, "timeStamp": 32},
    {"x": 230, "y": 90, "pressure": 0.7, "timeStamp": 48},
    {"x": 290, "y": 160, "pressure": 0.3, "timeStamp": 64}]}},
  {"brush": {"id": "{{ID}}", "color": "#e0483e", "width": 16, "params": {"opacity": 0.5}}},
  {"stroke": {"pointerType": "mouse", "events": [
    {"x": 40, "y": 180, "timeStamp": 0},
    {"x": 280, "y": 120, "timeStamp": 20}]}}]}
"""#
}
