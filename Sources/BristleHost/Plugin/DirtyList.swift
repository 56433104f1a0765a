import CBristle

/// The host-owned `bristle_dirty_list_t` a draw may append rectangles to (bristle.h,
/// `bristle_target_t.dirty_list`, since 1.2), with room for ``DirtyRegion/capacity``
/// rectangles; one per drawing loop, reset before every draw.
public final class DirtyList {
    /// The struct the target points to.
    public let list: UnsafeMutablePointer<bristle_dirty_list_t>
    private let storage: UnsafeMutablePointer<bristle_rect_t>

    public init() {
        storage = .allocate(capacity: DirtyRegion.capacity)
        storage.initialize(repeating: bristle_rect_t(), count: DirtyRegion.capacity)
        list = .allocate(capacity: 1)
        list.initialize(to: bristle_dirty_list_t(
            struct_size: UInt32(MemoryLayout<bristle_dirty_list_t>.size), count: 0,
            capacity: UInt32(DirtyRegion.capacity), reserved: 0, rects: storage))
    }

    deinit {
        list.deallocate()
        storage.deallocate()
    }

    /// Empties the list for the next draw and puts back anything a brush may have overwritten.
    public func reset() {
        list.pointee = bristle_dirty_list_t(
            struct_size: UInt32(MemoryLayout<bristle_dirty_list_t>.size), count: 0,
            capacity: UInt32(DirtyRegion.capacity), reserved: 0, rects: storage)
    }

    /// What the last draw appended, or nil when its `count` exceeds the capacity (a broken
    /// list: the host then trusts `*dirty` only).
    public var listed: UnsafeBufferPointer<bristle_rect_t>? {
        let n = list.pointee.count
        guard n <= UInt32(DirtyRegion.capacity) else { return nil }
        return UnsafeBufferPointer(start: storage, count: Int(n))
    }

    /// The pixels the last draw changed, as the host uses them: the listed rectangles clipped
    /// to `clip` when the draw listed any (and the list is intact), otherwise `dirty` clipped.
    public func region(dirty: bristle_rect_t, clip: PixelRect, into region: inout DirtyRegion) {
        region.removeAll()
        if let listed, !listed.isEmpty {
            for r in listed { region.add(PixelRect(r).intersection(clip)) }
        } else {
            region.add(PixelRect(dirty).intersection(clip))
        }
    }
}
