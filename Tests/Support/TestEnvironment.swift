import Foundation

/// Where things are when tests run: the package, the build products (the `.so` plugins and the
/// `bristle` executable sit beside the test binary), and a scratch folder per test run.
public enum TestEnvironment {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding the test binary, the plugins and the `bristle` executable.
    public static let productsDirectory: URL = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
    }()

    /// The built `bristle` executable.
    public static var bristleExecutable: URL { productsDirectory.appendingPathComponent("bristle") }

    /// A built reference plugin, e.g. `plugin("BristlePencil")`.
    public static func plugin(_ product: String) -> String {
        productsDirectory.appendingPathComponent("lib\(product).so").path
    }

    /// A fresh, empty directory under the build folder (kept for inspection after failures).
    public static func scratchDirectory(_ label: String) -> URL {
        let base = packageRoot.appendingPathComponent(".build/test-scratch")
        let dir = base.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A file under `Tests/Fixtures`.
    public static func fixture(_ relative: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relative)
    }
}
