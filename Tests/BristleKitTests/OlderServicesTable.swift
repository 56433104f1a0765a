import CBristle
import Glibc

/// The services table a 1.0 host passes: a copy of the first fields of a 1.1 table, with a
/// `struct_size` that ends before `draw_rect`, placed flush against a `PROT_NONE` page, so
/// reading any field a 1.0 table does not have is a crash.
final class OlderServicesTable {
    private let map: UnsafeMutableRawPointer
    private let length: Int
    /// The table; valid as long as this object.
    let table: UnsafePointer<bristle_services_t>

    /// A 1.0 view of `full`; nil when the pages cannot be mapped.
    init?(copying full: UnsafePointer<bristle_services_t>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let size = MemoryLayout<bristle_services_t>.offset(of: \.draw_rect),
              let map = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              map != MAP_FAILED else { return nil }
        self.map = map
        length = 2 * page
        guard mprotect(map + page, page, PROT_NONE) == 0 else {
            munmap(map, length)
            return nil
        }
        let start = map + page - size
        start.copyMemory(from: full, byteCount: size)
        start.storeBytes(of: UInt32(size), as: UInt32.self)
        table = UnsafePointer(start.assumingMemoryBound(to: bristle_services_t.self))
    }

    deinit { munmap(map, length) }
}
