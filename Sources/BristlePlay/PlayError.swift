/// Why `bristle play` cannot start or serve, with its exit status (sysexits).
public enum PlayError: Error, Equatable, CustomStringConvertible {
    /// A bad flag value (64).
    case usage(String)
    /// A `--brushes` folder that does not exist (66).
    case notFound(String)
    /// A folder or file that cannot be created (73).
    case cannotCreate(String)
    /// The system refused (memory, sockets, processes) (71).
    case system(String)

    public var description: String {
        switch self {
        case .usage(let s), .notFound(let s), .cannotCreate(let s), .system(let s): return s
        }
    }

    public var exitStatus: Int32 {
        switch self {
        case .usage: return 64
        case .notFound: return 66
        case .cannotCreate: return 73
        case .system: return 71
        }
    }
}
