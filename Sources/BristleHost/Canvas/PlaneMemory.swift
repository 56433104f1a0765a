import Glibc

/// Zeroed memory for a pixel plane, owned by whoever allocated it (``Layer``) and given back
/// with ``release()``.
///
/// Below ``hugePageBytes`` the bytes come from `calloc`. From ``hugePageBytes`` up they are an
/// anonymous private mapping that starts on a ``hugePageBytes`` boundary and is advised
/// `MADV_HUGEPAGE`, so that where transparent huge pages are on (`always`, or `madvise` as on
/// most distributions) the kernel backs each whole 2 MiB of it with one huge page: a
/// 2048x1536 layer (12.1 MiB) is six TLB entries instead of 3,096, and a stroke's side
/// walking down the rows (8 KiB apart, a new 4 KiB page every row) no longer misses the TLB
/// on each (docs/PERFORMANCE.md, "Fifth session: rect_stroke and the layers' memory"). The
/// bytes after the last whole huge page stay ordinary pages. Where the kernel refuses the
/// advice (THP compiled out, or `never`) the mapping is used as it is: nothing fails.
///
/// Both kinds are zero on return (transparent black), and untouched memory costs nothing; a
/// huge page is committed whole at the first touch of any of its bytes, so a sparsely drawn
/// large layer may hold up to 2 MiB per touched huge page where 4 KiB pages held less.
struct PlaneMemory {
    /// The first byte, aligned to ``hugePageBytes`` when mapped, to 16 bytes otherwise.
    let base: UnsafeMutableRawPointer
    /// The bytes asked for.
    let byteCount: Int
    /// The mapping's length (`byteCount` rounded up to whole pages), or 0 for `calloc` memory.
    let mappedBytes: Int
    /// True when the kernel took the `MADV_HUGEPAGE` advice for the mapping (never for
    /// `calloc` memory). The advice lets the kernel use huge pages; it does not promise them.
    let isHugePageAdvised: Bool

    /// The size and alignment of a huge page on x86-64 and on arm64 with 4 KiB pages, and the
    /// smallest plane that is mapped and advised.
    static let hugePageBytes = 2 << 20

    /// `byteCount` zeroed bytes (at least one), or nil when memory is short.
    static func allocate(byteCount: Int) -> PlaneMemory? {
        guard byteCount >= hugePageBytes else {
            guard let memory = calloc(max(byteCount, 1), 1) else { return nil }
            return PlaneMemory(base: memory, byteCount: byteCount, mappedBytes: 0, isHugePageAdvised: false)
        }
        // Map a huge page more than needed, then unmap the slack before the first boundary and
        // after the end, so the plane starts on a boundary (the kernel backs only aligned whole
        // huge pages with huge pages).
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (byteCount + page - 1) / page * page
        let reserved = length + hugePageBytes
        guard let raw = mmap(nil, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let start = Int(bitPattern: raw)
        let aligned = (start + hugePageBytes - 1) & ~(hugePageBytes - 1)
        if aligned > start { munmap(raw, aligned - start) }
        let end = aligned + length
        if start + reserved > end { munmap(UnsafeMutableRawPointer(bitPattern: end), start + reserved - end) }
        let base = UnsafeMutableRawPointer(bitPattern: aligned)!
        let advised = madvise(base, length, MADV_HUGEPAGE) == 0
        return PlaneMemory(base: base, byteCount: byteCount, mappedBytes: length, isHugePageAdvised: advised)
    }

    /// Gives the memory back; the plane must not be used afterwards.
    func release() {
        if mappedBytes > 0 {
            munmap(base, mappedBytes)
        } else {
            free(base)
        }
    }
}
