import BristleHost
import Glibc

/// Finds the authoring kit a brush project depends on: for Swift the BristleKit package, for
/// Rust the folder holding the `bristle` and `bristle-sys` crates. In this order: the kit's
/// environment variable (`BRISTLE_KIT`, `BRISTLE_RUST`) if set, else where `make install`
/// puts it beside the running executable (`../share/bristle/swift/BristleKit`,
/// `../share/bristle/rust`), else, for Rust, the Bristle source tree the executable was built
/// in (`bindings/rust` in a folder above it).
public enum KitLocator {
    /// The kits `bristle new` can depend on.
    public enum Kit: Sendable {
        case swift
        case rust

        /// The environment variable naming the kit's folder.
        public var environmentVariable: String { self == .swift ? "BRISTLE_KIT" : "BRISTLE_RUST" }
        /// The kit's folder relative to the executable's folder, once installed.
        var installed: String { self == .swift ? "/../share/bristle/swift/BristleKit" : "/../share/bristle/rust" }
        /// A file the kit's folder holds.
        var marker: String { self == .swift ? "Package.swift" : "bristle/Cargo.toml" }
        /// The kit's folder in a source tree, for kits used straight from a checkout.
        var sourceTree: String? { self == .swift ? nil : "bindings/rust" }
    }

    /// The absolute folder of `kit`.
    public static func find(_ kit: Kit = .swift) throws(ScaffoldError) -> String {
        let notFound = { (searched: [String]) -> ScaffoldError in
            kit == .swift ? .kitNotFound(searched: searched) : .rustCratesNotFound(searched: searched)
        }
        if let env = getenv(kit.environmentVariable).map({ String(cString: $0) }), !env.isEmpty {
            if let found = folder(at: env, holding: kit.marker) { return found }
            throw notFound(["\(kit.environmentVariable)=\(env)"])
        }
        var searched: [String] = []
        guard let exe = PluginSearchPath.executableDirectory() else { throw notFound(searched) }
        let candidate = exe + kit.installed
        searched.append(candidate)
        if let found = folder(at: candidate, holding: kit.marker) { return found }
        if let tree = kit.sourceTree, let real = canonical(exe) {
            // The checkout the executable was built in: .build/<triple>/<config>/bristle.
            var ancestor = real
            for _ in 0..<4 {
                guard let slash = ancestor.lastIndex(of: "/"), slash != ancestor.startIndex else { break }
                ancestor = String(ancestor[..<slash])
                if let found = folder(at: ancestor + "/" + tree, holding: kit.marker) { return found }
            }
            searched.append("\(tree) in the folders above \(real)")
        }
        throw notFound(searched)
    }

    /// The canonical absolute path of `folder` when it holds `marker`.
    private static func folder(at folder: String, holding marker: String) -> String? {
        guard access(folder + "/" + marker, R_OK) == 0 else { return nil }
        return canonical(folder)
    }

    /// `realpath(path)`, or nil when it does not resolve.
    private static func canonical(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
