import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The C examples under Examples/, built with plain `cc` against the header only (strict
/// flags, warnings are errors), loaded, and rendered through `bristle render` to golden images.
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
        #expect(try exportedSymbols(library) == ["bristle_entry_v1"])
        let loaded = try PluginLoader.load(path: library)
        #expect(loaded.descriptors.map(\.id) == [c.id])
        let out = dir.appendingPathComponent("out.png").path
        let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["render", hello, "-o", out, "--brush", library],
                                      environment: ["BRISTLE_PATH": nil])
        #expect(r.status == 0, "\(r.stderr)")
        let conform = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["conform", library, "--tier", "standard", "--seed", "1"])
        #expect(conform.status == 0, "\(conform.stdout)\(conform.stderr)")
        let image = try PNGCodec.read(path: out)
        let mismatch = try GoldenImage.compare(image.pixels, width: image.width, height: image.height, name: c.golden)
        #expect(mismatch == nil, "\(mismatch!)")
    }
}
