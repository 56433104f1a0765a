import Glibc

/// Finds the BristleKit package a Swift brush project depends on: `BRISTLE_KIT` if set, else
/// `../share/bristle/swift/BristleKit` beside the running executable (where `make install`
/// puts it). A package folder is one holding `Package.swift`.
public enum KitLocator {
    /// The absolute folder of the BristleKit package.
    public static func find() throws(ScaffoldError) -> String {
        var searched: [String] = []
        if let env = getenv("BRISTLE_KIT").map({ String(cString: $0) }), !env.isEmpty {
            if let found = package(at: env) { return found }
            throw .kitNotFound(searched: ["BRISTLE_KIT=\(env)"])
        }
        if let exe = PluginSearchPath.executableDirectory() {
            let candidate = exe + "/../share/bristle/swift/BristleKit"
            searched.append(candidate)
            if let found = package(at: candidate) { return found }
        }
        throw .kitNotFound(searched: searched)
    }

    /// The canonical absolute path of `folder` when it holds a Package.swift.
    private static func package(at folder: String) -> String? {
        guard access(folder + "/Package.swift", R_OK) == 0, let real = realpath(folder, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
