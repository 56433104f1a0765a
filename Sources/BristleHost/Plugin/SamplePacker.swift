import CBristle

/// Lays out the samples of one hook call as the stride rule of bristle.h says (ARRAYS): every
/// record is ``structSize`` bytes, that many bytes from the previous one, with its
/// `struct_size` set to ``structSize``. A host passes a brush samples of the size its declared
/// minor defines (``ABILayout/sampleSize(forDeclaredMinor:)``), so a brush built before the rule
/// was stated, which indexes `samples[i]`, receives exactly its own size. The conformance
/// harness packs samples larger than the brush's own, with ``filler`` in the trailing bytes,
/// to check that a 1.2 brush steps by `struct_size`.
///
/// The buffer is reused from call to call (no allocation per event once it is large enough);
/// a pointer from ``pack(_:)`` is valid until the next call.
public final class SamplePacker {
    /// Bytes per record, and the `struct_size` written into each.
    public let structSize: Int
    /// The byte written past this host's `sizeof(bristle_sample_t)` when ``structSize`` is larger.
    public let filler: UInt8
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int

    /// A packer for records of `structSize` bytes: at least the sample's size in ABI 1.0 and a
    /// multiple of its alignment, so every `double` stays aligned.
    public init(structSize: Int, filler: UInt8 = 0) {
        precondition(structSize >= Int(ABILayout.sample.minimumSize)
                     && structSize % MemoryLayout<bristle_sample_t>.alignment == 0,
                     "a sample record of \(structSize) bytes breaks the stride rule")
        self.structSize = structSize
        self.filler = filler
        capacity = 8
        buffer = .allocate(byteCount: capacity * structSize, alignment: MemoryLayout<bristle_sample_t>.alignment)
    }

    deinit { buffer.deallocate() }

    /// Copies `samples` into the buffer at the stride and returns the first record.
    public func pack(_ samples: some Collection<bristle_sample_t>) -> UnsafePointer<bristle_sample_t> {
        reserve(samples.count)
        let own = MemoryLayout<bristle_sample_t>.size
        let copied = min(own, structSize)
        for (i, sample) in samples.enumerated() {
            let record = buffer + i * structSize
            withUnsafeBytes(of: sample) { record.copyMemory(from: $0.baseAddress!, byteCount: copied) }
            if structSize > own { (record + own).initializeMemory(as: UInt8.self, repeating: filler, count: structSize - own) }
            record.storeBytes(of: UInt32(structSize), as: UInt32.self)
        }
        return UnsafePointer(buffer.assumingMemoryBound(to: bristle_sample_t.self))
    }

    /// The bytes of the first `count` records packed last (to check that a hook left them alone).
    public func bytes(count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer, count: min(count, capacity) * structSize)
    }

    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        let grown = max(count, capacity * 2)
        buffer.deallocate()
        buffer = .allocate(byteCount: grown * structSize, alignment: MemoryLayout<bristle_sample_t>.alignment)
        capacity = grown
    }
}
