import CBristleHarness
import Glibc

/// Host-owned memory of one kind (samples, stroke context, target, dirty rectangle) handed to
/// a brush for one call and taken back when the call returns, so that a brush that keeps the
/// pointer dies at its next use of it (bristle.h, OWNERSHIP AND LIFETIME: "valid until the
/// call returns").
///
/// Each call gets the next of ``slotCount`` slots, round robin: a mapping whose data ends flush
/// against a `PROT_NONE` guard page (so reading one element past the end is a fault too).
/// When the call returns the slot becomes `PROT_NONE` and stays so for the next
/// `slotCount - 1` calls of its kind; the fault handler names the call that received it. An
/// arena made with `retiring: false` keeps one slot, always accessible: only its guard page
/// counts (for arrays a brush appends to, such as the dirty list's rectangles).
final class HandoffArena {
    /// Slots per kind: a pointer kept across up to this many calls is caught.
    static let slotCount = 8

    private struct Slot {
        var map: UnsafeMutableRawPointer
        var size: Int
        var region: Int32
    }

    /// What the memory is, for messages: "samples", "stroke context", ...
    let kind: String
    private let retiring: Bool
    private var slots: [Slot?]
    private var next = 0
    private var lent: (index: Int, data: UnsafeMutableRawPointer, count: Int)?
    private let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    init(kind: String, retiring: Bool = true) {
        self.kind = kind
        self.retiring = retiring
        slots = Array(repeating: nil, count: retiring ? Self.slotCount : 1)
    }

    deinit {
        for case let slot? in slots {
            bristle_guard_unregister(slot.region)
            munmap(slot.map, slot.size)
        }
    }

    /// Copies `bytes` (a multiple of 8 bytes keeps the data flush against the guard page and
    /// aligned) into a fresh slot and returns it, for `call`. Nil when memory cannot be mapped.
    func lend(_ bytes: UnsafeRawBufferPointer, to call: String) -> UnsafeMutableRawPointer? {
        let index = next
        next = (next + 1) % slots.count
        let dataPages = max(1, (bytes.count + page - 1) / page)
        if let slot = slots[index], slot.size != (dataPages + 1) * page {
            bristle_guard_unregister(slot.region)
            munmap(slot.map, slot.size)
            slots[index] = nil
        }
        if slots[index] == nil {
            let size = (dataPages + 1) * page
            guard let map = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), map != MAP_FAILED else { return nil }
            slots[index] = Slot(map: map, size: size, region: bristle_guard_register(map, map + size, map, map, 0, 0, 0, ""))
        }
        let slot = slots[index]!
        let end = slot.map + dataPages * page
        let data = end - (bytes.count + 7) / 8 * 8
        mprotect(slot.map, dataPages * page, PROT_READ | PROT_WRITE)
        if let base = bytes.baseAddress { data.copyMemory(from: base, byteCount: bytes.count) }
        bristle_guard_unregister(slot.region)
        slots[index]!.region = bristle_guard_register(slot.map, slot.map + slot.size, data, data + bytes.count, 0, 0, 0,
                                                      "the \(kind) handed to \(call)")
        lent = (index, data, bytes.count)
        return data
    }

    /// The lent bytes as they are now, after which the slot is taken back (when retiring):
    /// `PROT_NONE`, its label naming `call`.
    func takeBack(after call: String) -> [UInt8] {
        guard let (index, data, count) = lent, let slot = slots[index] else { return [] }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
        lent = nil
        guard retiring else { return bytes }
        mprotect(slot.map, slot.size - page, PROT_NONE)
        bristle_guard_relabel(slot.region, "the \(kind) handed to \(call), after that call returned", 1)
        return bytes
    }
}
