import Foundation

/// Runs `cargo` for the Rust bindings, the Rust example and Rust projects made by
/// `bristle new`, as a Rust brush author would: no registry, path dependencies only.
public enum Cargo {
    /// True when `cargo` runs (CI installs it with scripts/ensure-deps.sh). Tests that need it
    /// are skipped, with that reason, when it does not.
    public static let isAvailable: Bool = {
        (try? ProcessResult.run("/usr/bin/env", ["cargo", "--version"]).status == 0) ?? false
    }()

    /// The target folder every test build shares: under `.build` (ignored by git), so the
    /// crates compile once per checkout and later runs reuse them. Concurrent builds wait for
    /// each other on cargo's lock.
    public static let targetDirectory = TestEnvironment.packageRoot.appendingPathComponent(".build/cargo").path

    /// `cargo ARGS` in `folder` with the shared target folder, plus `environment`.
    public static func run(_ args: [String], in folder: URL, environment: [String: String?] = [:]) throws -> ProcessResult {
        var env: [String: String?] = ["CARGO_TARGET_DIR": targetDirectory]
        for (k, v) in environment { env[k] = v }
        return try ProcessResult.run("/usr/bin/env", ["cargo"] + args, environment: env, currentDirectory: folder)
    }

    /// The release `cdylib` a cargo package named `package` builds.
    public static func releaseLibrary(_ package: String) -> String {
        targetDirectory + "/release/lib\(package.replacingOccurrences(of: "-", with: "_")).so"
    }
}
