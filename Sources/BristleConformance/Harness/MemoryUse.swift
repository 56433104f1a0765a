import CBristleHarness
import Glibc

/// How much memory the process holds: bytes malloc has handed out and not had back
/// (`mallinfo2`: `uordblks + hblkhd`, over all arenas) and the size of every mapping
/// (/proc/self/statm). Both are exact counts, not samples, so growth over a fixed sequence of
/// strokes is reproducible.
struct MemoryUse {
    var heap: Int
    var mapped: Int

    static func now() -> MemoryUse {
        var mapped = 0
        let fd = open("/proc/self/statm", O_RDONLY)
        if fd >= 0 {
            var bytes = [UInt8](repeating: 0, count: 128)
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            close(fd)
            let pages = String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self).split(separator: " ").first.flatMap { Int($0) }
            mapped = (pages ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        return MemoryUse(heap: Int(bristle_heap_in_use()), mapped: mapped)
    }
}
