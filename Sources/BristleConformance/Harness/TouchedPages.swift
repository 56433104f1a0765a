import Glibc

/// Which pages of a fresh anonymous mapping were ever touched (present, or swapped out), from
/// /proc/self/pagemap: an untouched page still reads as zeros, so two buffers that share a
/// zero-filled start need not be compared there. For a 4096x4096 canvas that turns a 64 MiB
/// comparison (and 16 384 page faults) into one over what was drawn. Small spans (under 256
/// pages) are not looked up: every page counts as touched.
struct TouchedPages {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    private let first: Int
    private let touched: [Bool]?

    init(_ start: UnsafeMutablePointer<UInt8>, bytes: Int) {
        let page = Self.pageSize
        first = Int(bitPattern: start) / page * page
        let pages = (Int(bitPattern: start) + bytes - first + page - 1) / page
        touched = pages >= 256 ? Self.read(first: first, pages: pages) : nil
    }

    /// True when any byte of `start ..< start + count` lies on a touched page.
    func any(_ start: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard let touched, count > 0 else { return true }
        let from = (Int(bitPattern: start) - first) / Self.pageSize
        let to = (Int(bitPattern: start) + count - 1 - first) / Self.pageSize
        return (from...to).contains { $0 < 0 || $0 >= touched.count || touched[$0] }
    }

    private static func read(first: Int, pages: Int) -> [Bool]? {
        let fd = open("/proc/self/pagemap", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var entries = [UInt64](repeating: 0, count: pages)
        let wanted = pages * 8
        let got = entries.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(first / pageSize * 8)) }
        guard got == wanted else { return nil }
        return entries.map { $0 & (3 << 62) != 0 } // bit 63: present, bit 62: swapped
    }
}
