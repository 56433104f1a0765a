import Foundation

/// Builds C plugins with plain `cc`, exactly as a third-party brush author would: only the
/// public header, hidden visibility, no Swift runtime.
public enum CCompiler {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The flags every test plugin is built with.
    public static let strictFlags = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O1"]

    /// The folder holding the current `bristle/bristle.h`.
    public static let includeDirectory = TestEnvironment.packageRoot.appendingPathComponent("include").path

    /// Compiles `source` (a path) into `output` with extra flags (`-DNAME`...), against the
    /// header in `include` (the current one by default; the fixtures hold older and future ones).
    /// `shared: false` makes an object file instead of a shared library.
    @discardableResult
    public static func build(_ source: String, output: String, defines: [String] = [],
                             shared: Bool = true, extra: [String] = [],
                             include: String = CCompiler.includeDirectory) throws -> String {
        var args = strictFlags + ["-fPIC", "-fvisibility=hidden", "-I", include]
        args += defines + extra
        args += shared ? ["-shared", source, "-o", output, "-lm"] : ["-c", source, "-o", output]
        let result = try ProcessResult.run("/usr/bin/env", ["cc"] + args)
        guard result.status == 0 else {
            throw Failure(description: "cc \(args.joined(separator: " ")) failed:\n\(result.stderr)")
        }
        return output
    }

    /// Builds a fixture from `Tests/Fixtures/brushes/NAME.c` into a fresh scratch folder.
    public static func buildFixture(_ name: String, defines: [String] = [], fileName: String? = nil,
                                    include: String = CCompiler.includeDirectory) throws -> String {
        let dir = TestEnvironment.scratchDirectory(name)
        let out = dir.appendingPathComponent(fileName ?? "lib\(name).so").path
        return try build(TestEnvironment.fixture("brushes/\(name).c").path, output: out, defines: defines,
                         include: include)
    }
}
