import BristleHost

/// Why `bristle new` could not make a project; each case knows its message, hint and exit
/// status (sysexits).
public enum ScaffoldError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is not id-safe.
    case invalidName(String)
    /// The brush id has characters a C or Swift string literal or a host would choke on.
    case invalidID(String)
    /// Something exists at the destination already.
    case exists(String)
    /// A folder or file could not be created.
    case cannotCreate(String, String)
    /// No BristleKit package for a Swift project; `searched` lists where it looked.
    case kitNotFound(searched: [String])
    /// No `bristle` Rust crate for a Rust project; `searched` lists where it looked.
    case rustCratesNotFound(searched: [String])

    public var description: String {
        switch self {
        case .invalidName(let name):
            "invalid project name \"\(name)\": use 1 to 64 lower-case letters, digits and '-', starting with a letter"
        case .invalidID(let id):
            "invalid brush id \"\(id)\": use letters, digits, '.', '-' and '_' (e.g. org.example.charcoal)"
        case .exists(let path):
            "\(path) already exists; bristle new never overwrites"
        case .cannotCreate(let path, let reason):
            "cannot create \(path): \(reason)"
        case .kitNotFound(let searched):
            "BristleKit not found" + (searched.isEmpty ? "" : " (looked in \(searched.joined(separator: ", ")))")
        case .rustCratesNotFound(let searched):
            "the Rust crates bristle and bristle-sys were not found" + (searched.isEmpty ? "" : " (looked in \(searched.joined(separator: ", ")))")
        }
    }

    /// What to do about it.
    public var hint: String {
        switch self {
        case .invalidName: "for example: bristle new charcoal --lang c"
        case .invalidID: "pass --id with a reverse-DNS id such as org.example.charcoal"
        case .exists: "choose another NAME or --dir, or remove the existing folder"
        case .cannotCreate: "check that the parent folder exists and is writable"
        case .kitNotFound:
            "install Bristle with `make install PREFIX=...` (it installs share/bristle/swift/BristleKit beside bin/bristle), or set BRISTLE_KIT to a BristleKit package folder"
        case .rustCratesNotFound:
            "install Bristle with `make install PREFIX=...` (it installs share/bristle/rust beside bin/bristle), or set BRISTLE_RUST to the folder holding bristle/Cargo.toml (bindings/rust in a Bristle checkout)"
        }
    }

    /// 64 for usage errors, 73 when the project cannot be created, 69 without BristleKit or the
    /// Rust crates.
    public var exitStatus: Int32 {
        switch self {
        case .invalidName, .invalidID: 64
        case .exists, .cannotCreate: 73
        case .kitNotFound, .rustCratesNotFound: 69
        }
    }
}
