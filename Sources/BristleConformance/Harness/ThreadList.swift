import Glibc

/// The threads of this process (from /proc/self/task), with their names, to see which a
/// brush started and left running.
struct ThreadList {
    /// Thread id to name (`comm`).
    var names: [Int32: String]

    var count: Int { names.count }

    static func capture() -> ThreadList {
        var names: [Int32: String] = [:]
        guard let dir = opendir("/proc/self/task") else { return ThreadList(names: [:]) }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let text = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int32(text) else { continue }
            var name = "?"
            let fd = open("/proc/self/task/\(tid)/comm", O_RDONLY)
            if fd >= 0 {
                var bytes = [UInt8](repeating: 0, count: 32)
                let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                close(fd)
                if n > 0 { name = String(decoding: bytes.prefix(n), as: UTF8.self).trimmingNewline }
            }
            names[tid] = name
        }
        return ThreadList(names: names)
    }

    /// The threads a brush may still be ending: captures until there are at most `count`, for
    /// at most 2 s (a thread told to stop by `deinit` but not joined needs a moment; one that
    /// never ends does not pass by waiting longer).
    static func settled(towards count: Int) -> ThreadList {
        var now = capture()
        var waited = 0
        while now.count > count, waited < 200 {
            usleep(10_000)
            waited += 1
            now = capture()
        }
        return now
    }

    /// "1 thread (zoo-worker)": the threads not in `baseline`.
    func added(since baseline: ThreadList) -> String {
        let new = names.filter { baseline.names[$0.key] == nil }.map(\.value).sorted()
        return "\(new.count) thread(s) (\(new.map { "'\($0)'" }.joined(separator: ", ")))"
    }
}

private extension String {
    var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
