import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The guides in docs/guides run as written: every ```sh block, in order, in one shell
/// (`set -e`), in an empty folder, with Bristle installed where the guide installs it
/// ($HOME/.local). A block right after a `<!-- guide-test: skip ... -->` line is not run: the
/// install step, which the test does itself from the build it runs, and `bristle conform`
/// until it exists (delete that marker line to run it).
@Suite struct GuideTests {
    /// The shell blocks of a guide that the test runs, in order, and how many it skips.
    static func runnableBlocks(_ markdown: String) -> (run: [String], skipped: Int) {
        var blocks: [String] = [], current: [String] = [], inBlock = false, run = false, skipNext = false, skipped = 0
        for line in markdown.components(separatedBy: "\n") {
            if inBlock {
                if line == "```" {
                    if run { blocks.append(current.joined(separator: "\n")) }
                    inBlock = false
                } else {
                    current.append(line)
                }
            } else if line.hasPrefix("<!-- guide-test: skip") {
                skipNext = true
            } else if line.hasPrefix("```") {
                inBlock = true
                run = line == "```sh" && !skipNext
                if line == "```sh" && skipNext { skipped += 1 }
                skipNext = false
                current = []
            }
        }
        return (blocks, skipped)
    }

    struct Case: Sendable, CustomStringConvertible {
        var guide: String
        var library: String
        var description: String { guide }
    }

    @Test(arguments: [Case(guide: "docs/guides/first-brush-c.md", library: "my-brush/libmy-brush.so"),
                      Case(guide: "docs/guides/first-brush-cpp.md", library: "my-brush/libmy-brush.so"),
                      Case(guide: "docs/guides/first-brush-swift.md", library: "my-brush/.build/release/libmy-brush.so")])
    func guideRunsAsWritten(_ c: Case) throws {
        try run(c)
    }

    @Test(.enabled(if: Cargo.isAvailable, "cargo is not installed (scripts/ensure-deps.sh installs Debian's cargo and rustc)"))
    func rustGuideRunsAsWritten() throws {
        try run(Case(guide: "docs/guides/first-brush-rust.md", library: "my-brush/target/release/libmy_brush.so"))
    }

    /// Runs the guide's blocks with a clean environment: PATH, a fresh HOME, and where rustup
    /// keeps its toolchains (a rustup `cargo` on PATH finds them through HOME otherwise).
    private func run(_ c: Case) throws {
        let markdown = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent(c.guide), encoding: .utf8)
        let blocks = Self.runnableBlocks(markdown)
        #expect(blocks.run.count >= 5, "the guide's commands were found")
        #expect(blocks.skipped == 1, "only the install step is skipped")

        let root = TestEnvironment.scratchDirectory("guide")
        let home = root.appendingPathComponent("home"), work = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try TestInstall.install(prefix: home.path + "/.local")
        let script = "set -euo pipefail\n" + blocks.run.joined(separator: "\n") + "\n"
        var env: [String: String?] = [:]
        for key in ProcessInfo.processInfo.environment.keys { env[key] = .some(nil) }
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        env["HOME"] = home.path
        let real = ProcessInfo.processInfo.environment
        if let rustup = real["RUSTUP_HOME"] ?? real["HOME"].map({ $0 + "/.rustup" }),
           FileManager.default.fileExists(atPath: rustup) {
            env["RUSTUP_HOME"] = rustup
        }
        let start = Date()
        let r = try ProcessResult.run("/bin/bash", ["-c", script], environment: env, currentDirectory: work)
        #expect(r.status == 0, "\(c.guide) failed:\n\(r.stdout)\n\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < 15 * 60, "a guide takes under 15 minutes")
        let png = try PNGCodec.read(path: work.appendingPathComponent("my-brush/out.png").path)
        #expect(png.width == 320 && png.height == 200)
        #expect(try exportedSymbols(work.appendingPathComponent(c.library).path) == ["bristle_entry_v1"])
    }

    /// The README's C snippet compiles as strict C99 against the header (with the state type it
    /// assumes), and turns the user's width from points into pixels with the target's scale.
    @Test func readmeSnippetCompilesAndHonoursTheScale() throws {
        let readme = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```c\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let snippet = String(readme[start.upperBound..<end.lowerBound])
        #expect(snippet.contains("t->stroke->width * t->stroke->scale"), "widths are points: multiply by scale")
        let dir = TestEnvironment.scratchDirectory("readme-snippet")
        let source = dir.appendingPathComponent("snippet.c")
        try ("#include <bristle/bristle.h>\n"
             + "typedef struct { double x0, y0, x1, y1; } my_state;\n" + snippet
             + "typedef bristle_status_t (*draw_fn)(const bristle_brush_t *, const bristle_target_t *, bristle_rect_t *);\n"
             + "draw_fn readme_draw(void);\ndraw_fn readme_draw(void) { return draw; }\n")
            .write(to: source, atomically: true, encoding: .utf8)
        try CCompiler.build(source.path, output: dir.appendingPathComponent("snippet.o").path, shared: false)
    }
}
