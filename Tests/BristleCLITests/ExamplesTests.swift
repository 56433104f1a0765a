import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The C, C++ and Rust examples under Examples/, built against the header only (strict flags,
/// warnings are errors; C with plain `cc`, C++ with its Makefile) or the bristle crate (Rust,
/// with `cargo build --release`), loaded, rendered through `bristle render` to golden images
/// and checked by `bristle conform`.
@Suite struct ExamplesTests {
    struct Case: Sendable, CustomStringConvertible {
        var source: String
        var id: String
        var golden: String
        var description: String { source }
    }

    @Test(arguments: [Case(source: "Examples/c-minimal/dot.c", id: "org.example.dot", golden: "examples/dot"),
                      Case(source: "Examples/c-pixels/pixel_pen.c", id: "org.example.pixel-pen", golden: "examples/pixel-pen")])
    func cExampleBuildsLoadsAndRendersItsGolden(_ c: Case) throws {
        let dir = TestEnvironment.scratchDirectory("example")
        let library = try CCompiler.build(TestEnvironment.packageRoot.appendingPathComponent(c.source).path,
                                          output: dir.appendingPathComponent("libexample.so").path)
        try check(library, c, tier: "standard", in: dir)
    }

    /// Examples/cpp-brush, built by its own Makefile (g++ -std=c++17 -Wall -Wextra -Werror) in
    /// a copy of the folder, so the checkout stays clean. It is the C++ twin of c-minimal/dot.c
    /// and must render the same golden.
    @Test func cppExampleBuildsWithItsMakefileRendersItsGoldenAndIsStrictlyConformant() throws {
        let dir = TestEnvironment.scratchDirectory("example-cpp")
        let example = TestEnvironment.packageRoot.appendingPathComponent("Examples/cpp-brush")
        for file in ["cpp-brush.cpp", "Makefile"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(file), to: dir.appendingPathComponent(file))
        }
        let include = TestEnvironment.packageRoot.appendingPathComponent("include").path
        let build = try ProcessResult.run("/usr/bin/env", ["make", "BRISTLE_INCLUDE=\(include)"], currentDirectory: dir)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("-std=c++17 -Wall -Wextra -Werror"), "\(build.stdout)")
        let c = Case(source: "Examples/cpp-brush/cpp-brush.cpp", id: "org.example.cpp-brush", golden: "examples/dot")
        try check(dir.appendingPathComponent("libcpp-brush.so").path, c, tier: "strict", in: dir)
    }

    /// Examples/rust-brush, built by `cargo build --release` with the bristle crate of this
    /// checkout (no registry). An ink pen: its translucent stroke keeps one opacity where it
    /// crosses itself, so its golden differs from dot.c's.
    @Test(.enabled(if: Cargo.isAvailable, "cargo is not installed (scripts/ensure-deps.sh installs Debian's cargo and rustc)"))
    func rustExampleBuildsWithCargoRendersItsGoldenAndIsStrictlyConformant() throws {
        let dir = TestEnvironment.scratchDirectory("example-rust")
        let build = try Cargo.run(["build", "--release"], in: TestEnvironment.packageRoot.appendingPathComponent("Examples/rust-brush"))
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let c = Case(source: "Examples/rust-brush/src/lib.rs", id: "org.example.rust-brush", golden: "examples/rust-brush")
        try check(Cargo.releaseLibrary("rust-brush"), c, tier: "strict", in: dir)
    }

    /// The built example exports only the entry, loads with its one id, renders
    /// Examples/strokes/hello.json to its golden and passes `bristle conform` at `tier`.
    private func check(_ library: String, _ c: Case, tier: String, in dir: URL) throws {
        #expect(try exportedSymbols(library) == ["bristle_entry_v1"])
        let loaded = try PluginLoader.load(path: library)
        #expect(loaded.descriptors.map(\.id) == [c.id])
        let out = dir.appendingPathComponent("out.png").path
        let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["render", hello, "-o", out, "--brush", library],
                                      environment: ["BRISTLE_PATH": nil])
        #expect(r.status == 0, "\(r.stderr)")
        let conform = try ProcessResult.run(TestEnvironment.bristleExecutable.path,
                                            ["conform", library, "--tier", tier, "--seed", "1", "--jobs", "2", "--fuzz-scale", "0.1"])
        #expect(conform.status == 0, "\(conform.stdout)\(conform.stderr)")
        let image = try PNGCodec.read(path: out)
        let mismatch = try GoldenImage.compare(image.pixels, width: image.width, height: image.height, name: c.golden)
        #expect(mismatch == nil, "\(mismatch!)")
    }
}
