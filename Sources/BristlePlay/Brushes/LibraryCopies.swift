import Glibc

/// The copies of watched libraries that `bristle play` loads: each version of a `.so` is
/// copied once under a name of its own (`NAME-1.so`, `NAME-2.so`...), because a library is
/// never unloaded and a path is loaded once. The copies stay after the server ends, so that
/// `recording.json`, which names them, still renders.
final class LibraryCopies {
    let directory: String
    /// Per source file: the content hashes already copied and their copies.
    private var copies: [String: [(hash: UInt64, path: String)]] = [:]
    private var counter = 0

    init(directory: String) { self.directory = directory }

    /// A new folder for copies under `parent` (`bristle-play-XXXXXX`).
    static func makeDirectory(in parent: String) -> String? {
        var template = Array((parent + "/bristle-play-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        return String(cString: made)
    }

    /// Copies `source` (the version it holds now) and returns the copy's path; the same bytes
    /// copied before give the earlier copy.
    func copy(_ source: String) -> Result<String, ProbeFailure> {
        guard let bytes = Self.read(source) else {
            return .failure(ProbeFailure(reason: "cannot read it: \(String(cString: strerror(errno)))"))
        }
        let hash = Self.fnv1a(bytes)
        if let earlier = copies[source]?.first(where: { $0.hash == hash }) { return .success(earlier.path) }
        let name = source.split(separator: "/").last.map(String.init) ?? "library.so"
        let stem = name.hasSuffix(".so") ? String(name.dropLast(3)) : name
        while true {
            counter += 1
            let path = "\(directory)/\(stem)-\(counter).so"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
            if fd < 0 && errno == EEXIST { continue }
            guard fd >= 0 else {
                return .failure(ProbeFailure(reason: "cannot write a copy in \(directory): \(String(cString: strerror(errno)))"))
            }
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == bytes.count else {
                unlink(path)
                return .failure(ProbeFailure(reason: "cannot write a copy in \(directory) (disk full?)"))
            }
            copies[source, default: []].append((hash, path))
            return .success(path)
        }
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return out }
            out += chunk[0..<n]
        }
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
