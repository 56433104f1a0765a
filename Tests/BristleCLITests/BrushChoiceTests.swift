import BristleTestSupport
import Foundation
import Testing

/// Choosing a brush with `--brush` (docs/CLI.md, "Choosing a brush"): a warning when several
/// plugins on the search path declare the id, `FILE.so#ID` to pick one explicitly in `render`,
/// `conform` and `inspect`, and "did you mean" for an unknown id. The messages are checked
/// whole.
@Suite struct BrushChoiceTests {
    static let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path

    private func bristle(_ args: [String], path: String? = nil) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, args,
                              environment: ["BRISTLE_PATH": path, "HOME": TestEnvironment.scratchDirectory("home").path])
    }

    /// The mirror fixture ("test.mirror", a correct line brush) compiled to `dir/name`.
    private func mirror(in dir: URL, named name: String) throws -> String {
        try CCompiler.build(TestEnvironment.fixture("brushes/mirror.c").path, output: dir.appendingPathComponent(name).path)
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func aClashBetweenFoldersWarnsNamingBothFilesTheWinnerAndWhy() throws {
        let first = TestEnvironment.scratchDirectory("clash-first"), second = TestEnvironment.scratchDirectory("clash-second")
        let a = try mirror(in: first, named: "libmirror.so"), b = try mirror(in: second, named: "libmirror.so")
        let out = TestEnvironment.scratchDirectory("clash-out").appendingPathComponent("a.png").path
        let r = try bristle(["render", Self.hello, "-o", out, "--brush", "test.mirror"], path: "\(first.path):\(second.path)")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(lines(r.stderr) == [
            "bristle: warning: 2 plugins provide brush 'test.mirror': using \(a), ignoring \(b) (the first on the "
                + "search path wins: \(first.path) comes before \(second.path) on the plugin search path); pick one "
                + "with --brush \(b)#test.mirror",
        ])
    }

    @Test func aClashInOneFolderIsDecidedByFileName() throws {
        let dir = TestEnvironment.scratchDirectory("clash-one-folder")
        let a = try mirror(in: dir, named: "liba.so"), b = try mirror(in: dir, named: "libb.so")
        let out = TestEnvironment.scratchDirectory("clash-one-out").appendingPathComponent("a.png").path
        let r = try bristle(["render", Self.hello, "-o", out, "--brush", "test.mirror"], path: dir.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(lines(r.stderr) == [
            "bristle: warning: 2 plugins provide brush 'test.mirror': using \(a), ignoring \(b) (the first on the "
                + "search path wins: files of one folder are searched in name order); pick one with --brush \(b)#test.mirror",
        ])
        // Picking explicitly: no warning, and the same picture from either copy.
        let explicit = TestEnvironment.scratchDirectory("clash-one-out").appendingPathComponent("b.png").path
        let e = try bristle(["render", Self.hello, "-o", explicit, "--brush", "\(b)#test.mirror"], path: dir.path)
        #expect(e.status == 0, "\(e.stderr)")
        #expect(e.stderr.isEmpty, "\(e.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: out, andPath: explicit))
    }

    @Test func fileHashIdPicksOneBrushOfAFileInRenderConformAndInspect() throws {
        let pencil = TestEnvironment.plugin("BristlePencil")
        let out = TestEnvironment.scratchDirectory("hash-id").appendingPathComponent("eraser.png").path
        // The pencil library holds two brushes: the file alone is ambiguous, FILE#ID is not.
        #expect(try bristle(["render", Self.hello, "-o", out, "--brush", pencil]).status == 64)
        let r = try bristle(["render", Self.hello, "-o", out, "--brush", "\(pencil)#org.bristle.pencil"])
        #expect(r.status == 0, "\(r.stderr)")
        let c = try bristle(["conform", "\(pencil)#org.bristle.eraser", "--tier", "basic", "--seed", "1"])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(c.stdout.hasPrefix("PASS    library.load ("), "\(c.stdout)")
        #expect(c.stdout.contains("1 brush(es): org.bristle.eraser\n"), "\(c.stdout)")
        #expect(c.stdout.contains("CONFORMANT at tier basic: "), "\(c.stdout)")
        let viaBrush = try bristle(["conform", "--brush", "\(pencil)#org.bristle.eraser", "--tier", "basic", "--seed", "1"])
        #expect(viaBrush.status == 0, "\(viaBrush.stderr)")
        #expect(viaBrush.stdout.contains("1 brush(es): org.bristle.eraser\n"), "\(viaBrush.stdout)")
        let i = try bristle(["inspect", "\(pencil)#org.bristle.eraser"])
        #expect(i.status == 0, "\(i.stderr)")
        #expect(i.stdout.contains("org.bristle.eraser") && !i.stdout.contains("org.bristle.pencil\n"), "\(i.stdout)")
    }

    @Test func conformFindsABrushIdOnTheSearchPathAndWarnsOnAClash() throws {
        let dir = TestEnvironment.scratchDirectory("conform-clash")
        let a = try mirror(in: dir, named: "liba.so"), b = try mirror(in: dir, named: "libb.so")
        let r = try bristle(["conform", "--brush", "test.mirror", "--tier", "basic", "--seed", "1"], path: dir.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(lines(r.stderr) == [
            "bristle: warning: 2 plugins provide brush 'test.mirror': using \(a), ignoring \(b) (the first on the "
                + "search path wins: files of one folder are searched in name order); pick one with --brush \(b)#test.mirror",
        ])
    }

    @Test func anUnknownIdSuggestsTheNearestIds() throws {
        let out = TestEnvironment.scratchDirectory("did-you-mean").appendingPathComponent("x.png").path
        let r = try bristle(["render", Self.hello, "-o", out, "--brush", "org.bristle.pencl"])
        #expect(r.status == 66)
        let got = lines(r.stderr)
        #expect(got.count == 2, "\(r.stderr)")
        #expect(got.first?.hasPrefix("bristle: error: no brush with id 'org.bristle.pencl' on the plugin search path: ") == true)
        #expect(got.last == "bristle: hint: did you mean org.bristle.pencil? (`bristle list` shows every brush found)")
        // Nothing close: the general hint.
        let far = try bristle(["render", Self.hello, "-o", out, "--brush", "com.example.watercolour"])
        #expect(lines(far.stderr).last == "bristle: hint: run `bristle list` to see the brushes found, or add the plugin's folder to BRISTLE_PATH")
        // In a named file, and in conform, the file's ids are the candidates.
        let pencil = TestEnvironment.plugin("BristlePencil")
        let inFile = try bristle(["render", Self.hello, "-o", out, "--brush", "\(pencil)#org.bristle.erasr"])
        #expect(inFile.status == 66)
        #expect(lines(inFile.stderr).last == "bristle: hint: did you mean org.bristle.eraser? (`bristle list` shows every brush found)")
        let c = try bristle(["conform", pencil, "--brush", "org.bristle.pencill", "--tier", "basic"])
        #expect(c.status == 2)
        #expect(lines(c.stderr) == ["bristle: error: the plugin has no brush 'org.bristle.pencill'; did you mean "
                                        + "org.bristle.pencil? It has: org.bristle.pencil, org.bristle.eraser"])
    }
}
