import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `make install` into a temporary prefix, then the installed SDK used as a newcomer would,
/// with a clean environment: the installed `bristle list` finds the reference brushes without
/// BRISTLE_PATH, `pkg-config bristle` finds the header for a C project, the installed
/// BristleKit package builds the Swift example, and `make uninstall` removes everything.
@Suite struct InstallTests {
    /// A minimal environment: PATH for the tools (swift, cc, make), HOME, and what `extra` adds.
    private func clean(_ home: URL, _ extra: [String: String] = [:]) -> [String: String?] {
        var env: [String: String?] = [:]
        for key in ProcessInfo.processInfo.environment.keys { env[key] = .some(nil) }
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        env["HOME"] = home.path
        for (k, v) in extra { env[k] = v }
        return env
    }

    @Test func installedSDKWorksEndToEnd() throws {
        let root = TestEnvironment.scratchDirectory("install")
        let prefix = root.appendingPathComponent("prefix").path, home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try TestInstall.install(prefix: prefix)
        let bristle = prefix + "/bin/bristle"

        // The installed CLI finds the installed reference brushes, with no BRISTLE_PATH.
        let list = try ProcessResult.run(bristle, ["list"], environment: clean(home))
        #expect(list.status == 0, "\(list.stderr)")
        for id in ["org.bristle.pencil", "org.bristle.spray", "org.bristle.marker", "org.bristle.force-hue"] {
            #expect(list.stdout.contains("\(id) ") && list.stdout.contains("\(prefix)/lib/bristle/plugins/"), "\(id): \(list.stdout)")
        }
        #expect(FileManager.default.fileExists(atPath: prefix + "/include/bristle/bristle.h"))

        // pkg-config points at the installed header.
        let pcEnv = clean(home, ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"])
        let cflags = try ProcessResult.run("/usr/bin/env", ["pkg-config", "--cflags", "bristle"], environment: pcEnv)
        #expect(cflags.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(prefix)/include")

        // A C project made by the installed bristle builds with the installed header only.
        #expect(try ProcessResult.run(bristle, ["new", "inked", "--lang", "c"], environment: pcEnv, currentDirectory: root).status == 0)
        let project = root.appendingPathComponent("inked")
        let make = try ProcessResult.run("/usr/bin/env", ["make"], environment: pcEnv, currentDirectory: project)
        #expect(make.status == 0 && make.stdout.contains("-I\(prefix)/include"), "\(make.stdout)\(make.stderr)")
        let render = try ProcessResult.run(bristle, ["render", "stroke.json", "-o", "out.png", "--brush", "./libinked.so"],
                                           environment: pcEnv, currentDirectory: project)
        #expect(render.status == 0, "\(render.stderr)")

        // A Rust project made by the installed bristle depends on the installed crates.
        #expect(try ProcessResult.run(bristle, ["new", "rusty", "--lang", "rust"], environment: clean(home), currentDirectory: root).status == 0)
        let cargoToml = try String(contentsOf: root.appendingPathComponent("rusty/Cargo.toml"), encoding: .utf8)
        #expect(cargoToml.contains("bristle = { path = \"\(prefix)/share/bristle/rust/bristle\" }"), "\(cargoToml)")

        // The Swift example package builds against the installed BristleKit, loads and renders.
        let kit = prefix + "/share/bristle/swift/BristleKit"
        let scratch = root.appendingPathComponent("swift-example-build").path
        let example = TestEnvironment.packageRoot.appendingPathComponent("Examples/swift-brush")
        let build = try ProcessResult.run("/usr/bin/env", ["swift", "build", "-c", "release", "--scratch-path", scratch],
                                          environment: clean(home, ["BRISTLE_KIT": kit]), currentDirectory: example)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let library = scratch + "/release/libswift-brush.so"
        #expect(try exportedSymbols(library) == ["bristle_entry_v1"])
        let out = root.appendingPathComponent("swift.png").path
        let swiftRender = try ProcessResult.run(bristle, ["render", TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path,
                                                          "-o", out, "--brush", library, "-v"], environment: clean(home))
        #expect(swiftRender.status == 0 && swiftRender.stderr.contains("org.example.swift-brush"), "\(swiftRender.stderr)")
        let conform = try ProcessResult.run(bristle, ["conform", library, "--tier", "standard", "--seed", "1"], environment: clean(home))
        #expect(conform.status == 0, "\(conform.stdout)\(conform.stderr)")

        // Uninstall leaves nothing behind.
        try TestInstall.uninstall(prefix: prefix)
        #expect(files(under: prefix).isEmpty, "left after uninstall: \(files(under: prefix))")
    }

    /// Every regular file below `folder`, relative to it.
    private func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects.compactMap { $0 as? String } ?? []).filter { path in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDir) && !isDir.boolValue
        }
    }

    @Test func invalidKitDeclarationsMakeTheLibraryUnusableNotACrash() throws {
        let root = TestEnvironment.scratchDirectory("kit-invalid")
        let prefix = root.appendingPathComponent("prefix").path
        try TestInstall.install(prefix: prefix)
        let bristle = prefix + "/bin/bristle"
        #expect(try ProcessResult.run(bristle, ["new", "broken", "--lang", "swift"], currentDirectory: root).status == 0)
        let project = root.appendingPathComponent("broken")
        // Two mistakes the kit must catch: a space in the id and a default outside its range.
        let source = project.appendingPathComponent("Sources/Broken/Broken.swift")
        var text = try String(contentsOf: source, encoding: .utf8)
        text = text.replacingOccurrences(of: "id: \"org.example.broken\"", with: "id: \"org.example broken\"")
            .replacingOccurrences(of: "range: 0...1, default: 1,", with: "range: 0...1, default: 2,")
        try text.write(to: source, atomically: true, encoding: .utf8)
        let build = try ProcessResult.run("/usr/bin/env", ["swift", "build", "-c", "release"], currentDirectory: project)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let inspect = try ProcessResult.run(bristle, ["inspect", ".build/release/libbroken.so"], currentDirectory: project)
        #expect(inspect.status == 69, "\(inspect.stdout)\(inspect.stderr)")
        #expect(inspect.stderr.contains("init"), "\(inspect.stderr)")
    }

    @Test func destdirStagesUnderItButNamesThePrefix() throws {
        let stage = TestEnvironment.scratchDirectory("destdir").path
        try TestInstall.install(prefix: "/opt/bristle-test", destdir: stage)
        let installed = Set(files(under: stage + "/opt/bristle-test"))
        for path in ["bin/bristle", "include/bristle/bristle.h", "include/bristle/bristle_plugin.h", "lib/pkgconfig/bristle.pc",
                     "lib/bristle/plugins/libBristlePencil.so", "lib/bristle/plugins/libBristleSpray.so",
                     "share/bristle/swift/BristleKit/Package.swift", "share/bristle/swift/BristleKit/include/bristle/bristle.h",
                     "share/bristle/rust/bristle/Cargo.toml", "share/bristle/rust/bristle/src/lib.rs",
                     "share/bristle/rust/bristle-sys/Cargo.toml", "share/bristle/rust/bristle-sys/src/lib.rs"] {
            #expect(installed.contains(path), "\(path) not installed")
        }
        #expect(!installed.contains { $0.contains("Example") }, "examples are not installed as plugins")
        let pc = try String(contentsOfFile: stage + "/opt/bristle-test/lib/pkgconfig/bristle.pc", encoding: .utf8)
        #expect(pc.hasPrefix("prefix=/opt/bristle-test\n") && pc.contains("Cflags: -I${includedir}"), "\(pc)")
        let header = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("include/bristle/bristle.h"), encoding: .utf8)
        let abi = ["MAJOR", "MINOR", "PATCH"].map { part in
            header.split(separator: "\n").first { $0.hasPrefix("#define BRISTLE_VERSION_\(part) ") }.flatMap { line in
                line.split(separator: ")").last.map(String.init)
            } ?? "?"
        }.joined(separator: ".")
        #expect(pc.contains("Version: \(abi)\n"), "the pc file carries the header's ABI version \(abi): \(pc)")
        try TestInstall.uninstall(prefix: "/opt/bristle-test", destdir: stage)
        #expect(files(under: stage).isEmpty)
    }
}
