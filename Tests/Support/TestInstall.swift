import Foundation

/// Installs the build the tests run from with the top-level Makefile, the way a user would
/// (`make install PREFIX=...`) except that `BUILT=` points at the products already built, so
/// no second build runs while `swift test` holds the build folder.
public enum TestInstall {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `make install PREFIX=prefix [DESTDIR=destdir] BUILT=<products>` in the package root.
    public static func install(prefix: String, destdir: String? = nil) throws {
        try make(["install", "PREFIX=\(prefix)", "BUILT=\(TestEnvironment.productsDirectory.path)"]
                 + (destdir.map { ["DESTDIR=\($0)"] } ?? []))
    }

    /// Runs `make uninstall PREFIX=prefix [DESTDIR=destdir]` in the package root.
    public static func uninstall(prefix: String, destdir: String? = nil) throws {
        try make(["uninstall", "PREFIX=\(prefix)"] + (destdir.map { ["DESTDIR=\($0)"] } ?? []))
    }

    private static func make(_ args: [String]) throws {
        let r = try ProcessResult.run("/usr/bin/env", ["make", "-C", TestEnvironment.packageRoot.path] + args)
        guard r.status == 0 else { throw Failure(description: "make \(args.joined(separator: " ")) failed:\n\(r.stderr)") }
    }
}
