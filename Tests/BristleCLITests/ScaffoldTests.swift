import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle new`: the projects it writes build with their one documented command, load and
/// render (the C++ and Rust ones pass strict conformance); it refuses bad names and existing
/// folders with the right exit status; the first C brush is one source in docs/ABI.md and
/// Examples/c-minimal, whose hooks the C template (with bristle_plugin.h) shares; the C++, Rust
/// and Swift examples are what their templates write.
@Suite struct ScaffoldTests {
    /// Runs bristle with no BRISTLE_PATH, BRISTLE_KIT or BRISTLE_RUST from the user's environment.
    private func bristle(_ args: [String], in dir: URL, environment: [String: String?] = [:]) throws -> ProcessResult {
        var env: [String: String?] = ["BRISTLE_PATH": nil, "BRISTLE_KIT": nil, "BRISTLE_RUST": nil]
        for (k, v) in environment { env[k] = v }
        return try ProcessResult.run(TestEnvironment.bristleExecutable.path, args, environment: env, currentDirectory: dir)
    }

    /// Ink (alpha > 0 after flattening over white: anything not white) in a PNG.
    private func inkedPixels(_ path: String) throws -> Int {
        let image = try PNGCodec.read(path: path)
        return stride(from: 0, to: image.pixels.count, by: 4).filter { i in
            image.pixels[i] != 255 || image.pixels[i + 1] != 255 || image.pixels[i + 2] != 255
        }.count
    }

    @Test func cProjectBuildsWithMakeLoadsAndRenders() throws {
        let dir = TestEnvironment.scratchDirectory("new-c")
        let made = try bristle(["new", "my-brush", "--lang", "c"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let project = dir.appendingPathComponent("my-brush")
        let files = try FileManager.default.contentsOfDirectory(atPath: project.path).sorted()
        #expect(files == ["Makefile", "README.md", "my-brush.c", "stroke.json"])
        let include = TestEnvironment.packageRoot.appendingPathComponent("include").path
        let build = try ProcessResult.run("/usr/bin/env", ["make", "BRISTLE_INCLUDE=\(include)", "CFLAGS=-O2 -Werror"],
                                          currentDirectory: project)
        #expect(build.status == 0, "\(build.stderr)")
        let library = project.appendingPathComponent("libmy-brush.so").path
        #expect(try exportedSymbols(library) == ["bristle_entry_v1"])
        let render = try bristle(["render", "stroke.json", "-o", "out.png", "--brush", "./libmy-brush.so", "-v"], in: project)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("with org.example.my-brush"))
        let conform = try bristle(["conform", "./libmy-brush.so", "--tier", "standard", "--seed", "1"], in: project)
        #expect(conform.status == 0, "\(conform.stdout)\(conform.stderr)")
        #expect(try inkedPixels(project.appendingPathComponent("out.png").path) > 1000)
    }

    @Test func cppProjectBuildsWithMakeRendersAndIsStrictlyConformant() throws {
        let dir = TestEnvironment.scratchDirectory("new-cpp")
        let made = try bristle(["new", "my-brush", "--lang", "cpp"], in: dir)
        #expect(made.status == 0 && made.stdout.contains("&& make"), "\(made.stdout)\(made.stderr)")
        let project = dir.appendingPathComponent("my-brush")
        let files = try FileManager.default.contentsOfDirectory(atPath: project.path).sorted()
        #expect(files == ["Makefile", "README.md", "my-brush.cpp", "stroke.json"])
        let include = TestEnvironment.packageRoot.appendingPathComponent("include").path
        let build = try ProcessResult.run("/usr/bin/env", ["make", "BRISTLE_INCLUDE=\(include)"], currentDirectory: project)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("g++ -std=c++17 -Wall -Wextra -Werror"), "\(build.stdout)")
        let library = project.appendingPathComponent("libmy-brush.so").path
        #expect(try exportedSymbols(library) == ["bristle_entry_v1"])
        let render = try bristle(["render", "stroke.json", "-o", "out.png", "--brush", "./libmy-brush.so", "-v"], in: project)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("with org.example.my-brush"))
        #expect(try inkedPixels(project.appendingPathComponent("out.png").path) > 1000)
        let conform = try bristle(["conform", "./libmy-brush.so", "--tier", "strict", "--seed", "1", "--jobs", "2",
                                   "--fuzz-scale", "0.1"], in: project)
        #expect(conform.status == 0, "\(conform.stdout)\(conform.stderr)")
    }

    /// The Rust project finds the crates of this checkout (the executable under test was built
    /// in it), builds with `cargo build --release` and passes strict conformance.
    @Test(.enabled(if: Cargo.isAvailable, "cargo is not installed (scripts/ensure-deps.sh installs Debian's cargo and rustc)"))
    func rustProjectBuildsWithCargoRendersAndIsStrictlyConformant() throws {
        let dir = TestEnvironment.scratchDirectory("new-rust")
        let made = try bristle(["new", "my-brush", "--lang", "rust"], in: dir)
        #expect(made.status == 0 && made.stdout.contains("&& cargo build --release"), "\(made.stdout)\(made.stderr)")
        let project = dir.appendingPathComponent("my-brush")
        let files = try FileManager.default.contentsOfDirectory(atPath: project.path).sorted()
        #expect(files == ["Cargo.toml", "README.md", "src", "stroke.json"])
        let manifest = try String(contentsOf: project.appendingPathComponent("Cargo.toml"), encoding: .utf8)
        let crates = TestEnvironment.packageRoot.appendingPathComponent("bindings/rust").resolvingSymlinksInPath().path
        #expect(manifest.contains("bristle = { path = \"\(crates)/bristle\" }"), "\(manifest)")
        let build = try Cargo.run(["build", "--release"], in: project)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let library = Cargo.releaseLibrary("my-brush")
        #expect(try exportedSymbols(library) == ["bristle_entry_v1"])
        let render = try bristle(["render", "stroke.json", "-o", "out.png", "--brush", library, "-v"], in: project)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("with org.example.my-brush"))
        #expect(try inkedPixels(project.appendingPathComponent("out.png").path) > 1000)
        let conform = try bristle(["conform", library, "--tier", "strict", "--seed", "1", "--jobs", "2",
                                   "--fuzz-scale", "0.1"], in: project)
        #expect(conform.status == 0, "\(conform.stdout)\(conform.stderr)")
    }

    @Test func rustProjectNeedsTheCrates() throws {
        let dir = TestEnvironment.scratchDirectory("new-rust-nocrates")
        let r = try bristle(["new", "r", "--lang", "rust"], in: dir, environment: ["BRISTLE_RUST": dir.path])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("Rust crates bristle and bristle-sys were not found (looked in BRISTLE_RUST=\(dir.path))"), "\(r.stderr)")
        #expect(r.stderr.contains("make install"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "nothing is created")
    }

    @Test func makefileExplainsAMissingHeader() throws {
        let dir = TestEnvironment.scratchDirectory("new-c-nopc")
        #expect(try bristle(["new", "lonely", "--lang", "c"], in: dir).status == 0)
        let build = try ProcessResult.run("/usr/bin/env", ["make"], environment: ["PKG_CONFIG_PATH": "/nonexistent", "PKG_CONFIG_LIBDIR": "/nonexistent"],
                                          currentDirectory: dir.appendingPathComponent("lonely"))
        #expect(build.status != 0)
        #expect(build.stderr.contains("bristle.pc not found") && build.stderr.contains("BRISTLE_INCLUDE"), "\(build.stderr)")
    }

    @Test(arguments: ["Bad", "1brush", "a_b", "trailing-", "", "x/y", String(repeating: "a", count: 65)])
    func invalidNamesAreUsageErrors(_ name: String) throws {
        let dir = TestEnvironment.scratchDirectory("new-bad")
        let r = try bristle(["new", name, "--lang", "c"], in: dir)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("invalid project name") || r.stderr.contains("Error:"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "nothing is created")
    }

    @Test func otherUsageErrors() throws {
        let dir = TestEnvironment.scratchDirectory("new-usage")
        #expect(try bristle(["new", "ok", "--lang", "cobol"], in: dir).status == 64)
        #expect(try bristle(["new", "ok"], in: dir).status == 64)
        let badID = try bristle(["new", "ok", "--lang", "c", "--id", "org.example.\"x"], in: dir)
        #expect(badID.status == 64 && badID.stderr.contains("invalid brush id"), "\(badID.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func anExistingFolderIsNeverTouched() throws {
        let dir = TestEnvironment.scratchDirectory("new-exists")
        let existing = dir.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: existing.appendingPathComponent("taken.c"))
        let r = try bristle(["new", "taken", "--lang", "c"], in: dir)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("already exists"))
        #expect(try String(contentsOf: existing.appendingPathComponent("taken.c"), encoding: .utf8) == "mine")
        let other = try bristle(["new", "other", "--lang", "c", "--dir", "taken"], in: dir)
        #expect(other.status == 73)
        let missingParent = try bristle(["new", "x", "--lang", "c", "--dir", "no/such/parent/x"], in: dir)
        #expect(missingParent.status == 73, "\(missingParent.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["taken"], "no staging folder is left")
    }

    @Test func swiftProjectNeedsBristleKit() throws {
        let dir = TestEnvironment.scratchDirectory("new-swift-nokit")
        let r = try bristle(["new", "s", "--lang", "swift"], in: dir)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("BristleKit not found") && r.stderr.contains("make install"), "\(r.stderr)")
        let wrong = try bristle(["new", "s", "--lang", "swift"], in: dir, environment: ["BRISTLE_KIT": dir.path])
        #expect(wrong.status == 69 && wrong.stderr.contains("BRISTLE_KIT="), "\(wrong.stderr)")
    }

    /// A fake BristleKit package folder (only its Package.swift matters to `bristle new`).
    private func fakeKit() throws -> String {
        let kit = TestEnvironment.scratchDirectory("fake-kit")
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: kit.appendingPathComponent("Package.swift"))
        return kit.path
    }

    @Test func theFirstBrushIsOneSource() throws {
        let root = TestEnvironment.packageRoot
        let example = try String(contentsOf: root.appendingPathComponent("Examples/c-minimal/dot.c"), encoding: .utf8)
        // docs/ABI.md section 2: the first ```c block.
        let abi = try String(contentsOf: root.appendingPathComponent("docs/ABI.md"), encoding: .utf8)
        let block = try #require(abi.components(separatedBy: "```c\n").dropFirst().first?.components(separatedBy: "```\n").first)
        #expect(block == example, "docs/ABI.md section 2 and Examples/c-minimal/dot.c differ")
        // The template is the same brush with its plumbing written by bristle_plugin.h: the
        // hooks are the example's, the factory, descriptor and parameter code are gone.
        let dir = TestEnvironment.scratchDirectory("new-dot")
        #expect(try bristle(["new", "dot", "--lang", "c"], in: dir).status == 0)
        let generated = try String(contentsOf: dir.appendingPathComponent("dot/dot.c"), encoding: .utf8)
        #expect(generated.contains("#include <bristle/bristle_plugin.h>\n") && generated.contains("\nBRISTLE_PLUGIN_ENTRY(brushes, 0)"))
        for hook in ["add", "begin", "moved", "ended", "draw"] {
            let body = try #require(Self.function(hook, in: example), "\(hook) in Examples/c-minimal/dot.c")
            #expect(Self.function(hook, in: generated) == body, "the C template's \(hook) differs from Examples/c-minimal/dot.c")
        }
        for plumbing in ["f_create", "p_set", "get_extension", "bristle_entry_v1(void) {"] {
            #expect(example.contains(plumbing) && !generated.contains(plumbing), "\(plumbing)")
        }
        #expect(generated.split(separator: "\n").count < example.split(separator: "\n").count * 2 / 3)
    }

    /// The text of the C function `name` (from `static bristle_status_t name(` to its closing
    /// brace at the start of a line).
    private static func function(_ name: String, in source: String) -> String? {
        guard let start = source.range(of: "static bristle_status_t \(name)("),
              let end = source.range(of: "\n}\n", range: start.upperBound..<source.endIndex) else { return nil }
        return String(source[start.lowerBound..<end.upperBound])
    }

    @Test func theCppExampleIsWhatTheTemplateWrites() throws {
        let dir = TestEnvironment.scratchDirectory("new-cpp-example")
        #expect(try bristle(["new", "cpp-brush", "--lang", "cpp"], in: dir).status == 0)
        let example = TestEnvironment.packageRoot.appendingPathComponent("Examples/cpp-brush")
        for file in ["cpp-brush.cpp", "Makefile"] {
            let a = try String(contentsOf: dir.appendingPathComponent("cpp-brush/\(file)"), encoding: .utf8)
            let b = try String(contentsOf: example.appendingPathComponent(file), encoding: .utf8)
            #expect(a == b, "Examples/cpp-brush/\(file) differs from the template")
        }
    }

    /// The Rust example is what the template writes: the same `src/lib.rs`, and a Cargo.toml
    /// that differs only in where it finds the bristle crate.
    @Test func theRustExampleIsWhatTheTemplateWrites() throws {
        let dir = TestEnvironment.scratchDirectory("new-rust-example")
        let crates = TestEnvironment.packageRoot.appendingPathComponent("bindings/rust").path
        let r = try bristle(["new", "rust-brush", "--lang", "rust"], in: dir, environment: ["BRISTLE_RUST": crates])
        #expect(r.status == 0, "\(r.stderr)")
        let example = TestEnvironment.packageRoot.appendingPathComponent("Examples/rust-brush")
        let generated = dir.appendingPathComponent("rust-brush")
        let read = { (url: URL) in try String(contentsOf: url, encoding: .utf8) }
        #expect(try read(generated.appendingPathComponent("src/lib.rs")) == read(example.appendingPathComponent("src/lib.rs")),
                "Examples/rust-brush/src/lib.rs differs from the template")
        let real = TestEnvironment.packageRoot.appendingPathComponent("bindings/rust").resolvingSymlinksInPath().path
        let manifest = try read(generated.appendingPathComponent("Cargo.toml"))
            .replacingOccurrences(of: "path = \"\(real)/bristle\"", with: "path = \"../../bindings/rust/bristle\"")
        #expect(manifest == (try read(example.appendingPathComponent("Cargo.toml"))), "Examples/rust-brush/Cargo.toml differs from the template")
    }

    @Test func theSwiftExampleIsWhatTheTemplateWrites() throws {
        let dir = TestEnvironment.scratchDirectory("new-swift")
        let kit = try fakeKit()
        let r = try bristle(["new", "swift-brush", "--lang", "swift"], in: dir, environment: ["BRISTLE_KIT": kit])
        #expect(r.status == 0, "\(r.stderr)")
        let generated = dir.appendingPathComponent("swift-brush")
        let manifest = try String(contentsOf: generated.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".package(path: \"\(kit)\")"))
        let example = TestEnvironment.packageRoot.appendingPathComponent("Examples/swift-brush")
        for file in ["exports.map", "Sources/SwiftBrush/SwiftBrush.swift", "Sources/SwiftBrush/SwiftBrushLibrary.swift"] {
            let a = try String(contentsOf: generated.appendingPathComponent(file), encoding: .utf8)
            let b = try String(contentsOf: example.appendingPathComponent(file), encoding: .utf8)
            #expect(a == b, "Examples/swift-brush/\(file) differs from the template")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: generated.path).sorted()
                == ["Package.swift", "README.md", "Sources", "exports.map", "stroke.json"])
        let readme = try String(contentsOf: generated.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("bristle play --brushes .build/release"), "the README says how to draw with it live")
    }
}
