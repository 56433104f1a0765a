import Glibc

/// The process's open file descriptors (from /proc/self/fd): for each, the file it refers to
/// (device and inode), its offset (which a `write` advances) and its name. Comparing two tables
/// shows a brush closing, replacing or writing to a descriptor it does not own.
struct DescriptorTable {
    struct Entry: Equatable {
        var device: UInt64
        var inode: UInt64
        var offset: Int64
        var name: String
    }

    var entries: [Int32: Entry]

    static func capture() -> DescriptorTable {
        var entries: [Int32: Entry] = [:]
        guard let dir = opendir("/proc/self/fd") else { return DescriptorTable(entries: [:]) }
        let own = dirfd(dir)
        var fds: [Int32] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd != own { fds.append(fd) }
        }
        closedir(dir)
        for fd in fds {
            var st = stat()
            guard fstat(fd, &st) == 0 else { continue }
            var link = [CChar](repeating: 0, count: 512)
            let n = readlink("/proc/self/fd/\(fd)", &link, link.count - 1)
            let name = n > 0 ? String(decoding: link.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
            entries[fd] = Entry(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), offset: Int64(lseek(fd, 0, SEEK_CUR)),
                                name: name)
        }
        return DescriptorTable(entries: entries)
    }

    /// What happened to the descriptors of `baseline` (closed, replaced, written to), one
    /// sentence each, leaving out writes to `tolerated` (reported separately as warnings).
    func misuse(of baseline: DescriptorTable, tolerating tolerated: Set<Int32> = []) -> [String] {
        var out: [String] = []
        for (fd, was) in baseline.entries.sorted(by: { $0.key < $1.key }) {
            guard let now = entries[fd] else {
                out.append("closed file descriptor \(fd) (\(was.name)), which it does not own")
                continue
            }
            if now.device != was.device || now.inode != was.inode {
                out.append("replaced file descriptor \(fd) (\(was.name), now \(now.name)), which it does not own")
            } else if now.offset != was.offset, !tolerated.contains(fd) {
                out.append("wrote \(now.offset - was.offset) byte(s) to file descriptor \(fd) (\(Self.describe(fd, was.name))), which it does not own")
            }
        }
        return out
    }

    /// Bytes written to `fd` since `baseline` (0 when it was not open in both).
    func written(to fd: Int32, since baseline: DescriptorTable) -> Int64 {
        guard let now = entries[fd], let was = baseline.entries[fd], now.inode == was.inode else { return 0 }
        return now.offset - was.offset
    }

    /// Descriptors open now that were not open in `baseline`.
    func added(since baseline: DescriptorTable) -> [(Int32, String)] {
        entries.filter { baseline.entries[$0.key] == nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value.name) }
    }

    private static func describe(_ fd: Int32, _ name: String) -> String {
        switch fd {
        case 0: "stdin"
        case 1: "stdout, the host's output"
        case 2: "stderr"
        default: name
        }
    }
}
