import CBristle

/// The paint a brush passed last and its conversion (``HostServices/makePaint(_:)``), so that a
/// brush drawing many calls with one paint has it validated and converted once.
///
/// The key is the paint's 28 bytes, compared bit for bit: equal bytes convert to an equal
/// ``Paint``, so the result is the same as converting every call. Only valid paints are kept.
/// Not thread-safe; one per ``BrushHost``, used from the thread that drives it.
struct PaintCache {
    /// `bristle_paint_t`'s bytes as three 8-byte words and one 4-byte word.
    private struct Key: Equatable {
        var a: UInt64, b: UInt64, c: UInt64, d: UInt32

        init(_ p: UnsafePointer<bristle_paint_t>) {
            assert(MemoryLayout<bristle_paint_t>.size == 28, "PaintCache.Key covers 28 bytes")
            let raw = UnsafeRawPointer(p)
            a = raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            b = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            c = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            d = raw.loadUnaligned(fromByteOffset: 24, as: UInt32.self)
        }
    }

    private var key: Key?
    private var paint = Paint(color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))

    /// `HostServices.makePaint(paint)`, from the cache when the bytes are the last valid ones.
    @inline(__always)
    mutating func paint(_ p: UnsafePointer<bristle_paint_t>?) -> Paint? {
        guard let p else { return nil }
        let k = Key(p)
        if k == key { return paint }
        guard let converted = HostServices.makePaint(p) else { return nil }
        key = k
        paint = converted
        return converted
    }
}
