import CBristleCleanup
import CBristleProcess
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file atomically: the new contents are written to a temporary file in the
/// destination's folder (`.NAME.tmp-XXXXXX`, made by `mkostemp`, close-on-exec), optionally `fsync`ed, and
/// then `rename`d over the destination.
///
/// Other processes see either the old file or the complete new one, never a partial file.
/// On any failure the temporary file is removed and the destination is left untouched, and so
/// it is when SIGINT, SIGTERM or SIGHUP ends the process during the write (the temporary file
/// is registered with `CBristleCleanup`, whose handler removes it and lets the signal end the
/// process; a handler the application set for these signals is left in place).
///
/// - A new file gets mode `0666 & ~umask` (like `open(2)` would give it); a replaced file
///   keeps its permission bits.
/// - A symbolic link at the destination is followed: the file it points to is replaced and
///   the link stays.
/// - A destination that is a directory, a device, a pipe or a socket is refused.
public enum AtomicFileWriter {
    /// Why an atomic write failed.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Kind: Equatable, Hashable, Sendable {
            /// The file cannot be created there (missing folder, directory in the way, ...).
            case cannotCreate
            /// A write, flush, close or rename failed.
            case io
        }

        public var kind: Kind
        /// The destination path as given by the caller.
        public var path: String
        /// What went wrong, without the path.
        public var message: String

        public init(kind: Kind, path: String, message: String) {
            self.kind = kind
            self.path = path
            self.message = message
        }

        public var description: String { "cannot write \"\(path)\": \(message)" }
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(Failure) {
        try write(to: path, durable: durable) { (fd: Int32) throws(Failure) in
            var failure: Failure?
            bytes.withUnsafeBytes { raw in
                do throws(Failure) { try writeAll(raw, to: fd, path: path) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    /// Writes all of `bytes` to `fd` (retrying short and interrupted writes), for a `body` of
    /// ``write(to:durable:_:)`` that writes in pieces; a failure names `path`.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(kind: .io, path: path, message: "writing failed: \(errorText(errno))")
            }
            offset += n
        }
    }

    /// Calls `body` with a descriptor open for writing on a fresh temporary file, then moves
    /// that file over `path`. Failures of the writer itself are reported as ``Failure``.
    public static func write(to path: String, durable: Bool = true,
                             _ body: (_ fileDescriptor: Int32) throws(Failure) -> Void) throws(Failure) {
        try write(to: path, durable: durable, mapFailure: { $0 }, body)
    }

    /// Calls `body` with a descriptor open for writing on a fresh temporary file, then
    /// (`fsync` when `durable`) closes it and `rename`s it over `path`.
    ///
    /// If `body` throws, the temporary file is removed and the error is rethrown unchanged.
    /// Failures of the writer itself (creating, syncing, closing or renaming the file) are
    /// turned into `E` by `mapFailure`.
    public static func write<E: Error>(to path: String, durable: Bool = true,
                                       mapFailure: (Failure) -> E,
                                       _ body: (_ fileDescriptor: Int32) throws(E) -> Void) throws(E) {
        func failure(_ kind: Failure.Kind, _ message: String) -> E {
            mapFailure(Failure(kind: kind, path: path, message: message))
        }

        let destination: Destination
        switch checkDestination(path) {
        case .success(let d): destination = d
        case .failure(let f): throw mapFailure(f)
        }

        var template = Array(((destination.folder == "/" ? "/" : destination.folder + "/")
                              + "." + destination.shortName + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { CBristleProcess_make_temporary($0.baseAddress!) }
        if fd < 0 {
            let code = errno
            throw failure(.cannotCreate, "cannot create a file in \(describeFolder(destination.folder)): "
                          + errorText(code) + creationHint(code))
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let cleanupSlot = CBristleCleanup_register(Paths.absolute(temporary))
        defer { CBristleCleanup_unregister(cleanupSlot) }
        _ = fchmod(fd, destination.mode)  // best effort: some file systems have no modes

        func discard() {
            _ = close(fd)
            _ = unlink(temporary)
        }

        do {
            try body(fd)
        } catch {
            discard()
            throw error
        }
        if durable && fsync(fd) != 0 {
            let code = errno
            discard()
            throw failure(.io, "flushing the file to disk failed: \(errorText(code))")
        }
        if close(fd) != 0 {
            let code = errno
            _ = unlink(temporary)
            throw failure(.io, "closing the file failed: \(errorText(code))")
        }
        if rename(temporary, destination.target) != 0 {
            let code = errno
            _ = unlink(temporary)
            if code == EISDIR || code == ENOTEMPTY || code == EEXIST {
                throw failure(.cannotCreate, "it is a directory; give a file name inside it")
            }
            throw failure(.io, "moving the finished file into place failed: \(errorText(code))")
        }
        if durable {
            // Make the rename itself durable. Best effort: some file systems refuse this.
            let dirFD = open(destination.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dirFD >= 0 {
                _ = fsync(dirFD)
                _ = close(dirFD)
            }
        }
    }

    // MARK: - Checks

    /// Throws the failure a write to `path` would meet before writing anything (a missing
    /// folder, a directory in the way, ...), so a caller can refuse it before long work.
    public static func checkDestinationIsWritable(_ path: String) throws(Failure) {
        if case .failure(let failure) = checkDestination(path) { throw failure }
    }

    struct Destination {
        /// The file that will be replaced (the path, or what its symbolic link points to).
        var target: String
        var folder: String
        /// The target's name, shortened so that the temporary name fits in NAME_MAX.
        var shortName: String
        var mode: mode_t
    }

    static func checkDestination(_ path: String) -> Result<Destination, Failure> {
        func cannot(_ message: String) -> Result<Destination, Failure> {
            .failure(Failure(kind: .cannotCreate, path: path, message: message))
        }
        if path.isEmpty { return cannot("the path is empty") }
        if path.utf8.contains(0) { return cannot("the path contains a NUL character") }

        var target = path
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
           let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }

        let (folder, name) = split(target)
        if path.hasSuffix("/") || name.isEmpty || name == "." || name == ".." {
            return cannot("it names a folder, not a file; add a file name such as \"image.png\"")
        }

        var mode: mode_t = 0o666 & ~currentUmask()
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                return cannot("it is a directory; give a file name inside it, e.g. \"\(path)/image.png\"")
            case S_IFREG:
                mode = info.st_mode & 0o777
            default:
                return cannot("it is not a regular file (a device, pipe or socket) and will not be replaced")
            }
        } else if errno != ENOENT {
            let code = errno
            if code == ENOTDIR {
                return cannot("part of the folder path is a file, not a folder")
            }
            return cannot("cannot inspect the destination: \(errorText(code))")
        }

        if stat(folder, &info) != 0 {
            let code = errno
            switch code {
            case ENOENT:
                return cannot("\(describeFolder(folder, capitalized: false)) does not exist; "
                              + "create it first or choose another folder")
            case ENOTDIR:
                return cannot("\(describeFolder(folder, capitalized: false)) is not a folder: "
                              + "part of its path is a file")
            default:
                return cannot("cannot open \(describeFolder(folder)): \(errorText(code))")
            }
        }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            return cannot("\"\(folder)\" is a file, not a folder")
        }

        return .success(Destination(target: target, folder: folder, shortName: shorten(name), mode: mode))
    }

    /// Splits `a/b/c.png` into (`a/b`, `c.png`); a path without a slash is in `.`.
    static func split(_ path: String) -> (folder: String, name: String) {
        let bytes = Array(path.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let name = String(decoding: bytes[(slash + 1)...], as: UTF8.self)
        var end = slash
        while end > 0 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }  // "a//b" -> "a"
        let folder = end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
        return (folder, name)
    }

    /// Keeps the temporary name (`.` + name + `.tmp-XXXXXX`) within 255 bytes.
    static func shorten(_ name: String) -> String {
        let limit = 255 - 1 - 11
        var bytes = Array(name.utf8)
        if bytes.count <= limit { return name }
        bytes.removeLast(bytes.count - limit)
        return String(decoding: bytes, as: UTF8.self).filter { $0 != "\u{FFFD}" }
    }

    static func describeFolder(_ folder: String, capitalized: Bool = false) -> String {
        folder == "." ? "the current folder" : "the folder \"\(folder)\""
    }

    static func creationHint(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return " (you may not write to this folder; choose another one)"
        case EROFS: return " (the file system is read-only; choose another folder)"
        case ENOSPC, EDQUOT: return " (the disk is full; free some space)"
        case ENOENT: return " (this folder does not accept new files; choose another folder)"
        default: return ""
        }
    }

    /// The process umask, read from /proc without changing it (calling `umask` to read it
    /// would briefly change it for every thread). Falls back to 022.
    static func currentUmask() -> mode_t {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0o022 }
        defer { _ = close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
            let digits = line.dropFirst(6).filter { $0 != "\t" && $0 != " " }
            if let value = mode_t(digits, radix: 8) { return value & 0o777 }
        }
        return 0o022
    }
}

/// `write(2)`; named so that it is not shadowed by the `write` methods.
func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// `strerror` text for an errno value, e.g. "No such file or directory".
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
