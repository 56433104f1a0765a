import Glibc

/// What a path names, judged with `stat(2)` (symbolic links followed) without opening it, so
/// that a FIFO, a device or a socket given where a file is expected is refused at once instead
/// of blocking a read or being read forever.
public enum FileKind: Equatable, Sendable {
    case missing
    case regular
    case directory
    case fifo
    case characterDevice
    case blockDevice
    case socket
    /// Something `stat` could not inspect (permission denied on a folder of the path, ...).
    case unreadable(errno: Int32)

    /// The kind of what `path` names.
    public init(path: String) {
        var st = stat()
        guard !path.isEmpty, stat(path, &st) == 0 else {
            let code = path.isEmpty ? ENOENT : errno
            self = code == ENOENT || code == ENOTDIR ? .missing : .unreadable(errno: code)
            return
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unreadable(errno: EINVAL)
        }
    }

    /// For a path that exists but is not a regular file: what it is instead, as a phrase
    /// ("a FIFO (named pipe)"); nil for a regular file, a missing path, or one that cannot be
    /// inspected (opening it says why).
    public var notRegularDescription: String? {
        switch self {
        case .missing, .regular, .unreadable: return nil
        case .directory: return "a directory"
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        }
    }
}
