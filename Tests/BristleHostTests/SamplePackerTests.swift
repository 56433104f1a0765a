@testable import BristleHost
import Testing

/// The host's side of the stride rule: samples laid out at the size a brush's declared minor
/// defines, larger records with their trailing bytes filled, and host_abi_min read only when
/// the entry has it.
@Suite struct SamplePackerTests {
    static func sample(_ x: Double) -> bristle_sample_t {
        var s = bristle_sample_t()
        s.x = x
        s.y = -x
        s.pointer_id = 7
        return s
    }

    @Test func recordsSitStructSizeApartWithTheirSizeSet() {
        let own = MemoryLayout<bristle_sample_t>.size
        let packer = SamplePacker(structSize: own + 24, filler: 0xA5)
        let first = UnsafeRawPointer(packer.pack([Self.sample(1), Self.sample(2), Self.sample(3)]))
        for i in 0..<3 {
            let record = first + i * (own + 24)
            let s = record.load(as: bristle_sample_t.self)
            #expect(s.struct_size == UInt32(own + 24) && s.x == Double(i + 1) && s.y == -Double(i + 1) && s.pointer_id == 7)
            #expect((own..<own + 24).allSatisfy { record.load(fromByteOffset: $0, as: UInt8.self) == 0xA5 })
        }
        #expect(packer.bytes(count: 3).count == 3 * (own + 24))
        // The buffer grows and is reused.
        let many = (0..<100).map { Self.sample(Double($0)) }
        let p = UnsafeRawPointer(packer.pack(many))
        #expect((p + 99 * (own + 24)).load(as: bristle_sample_t.self).x == 99)
    }

    @Test func aBrushGetsTheSampleSizeOfItsDeclaredMinor() {
        // Every published minor has an 88-byte sample; a brush newer than the host gets the host's.
        for minor: UInt32 in [0, 1, 2, 9] {
            #expect(ABILayout.sampleSize(forDeclaredMinor: minor) == ABILayout.sample.size(inMinor: min(minor, ABILayout.hostMinor)))
        }
        #expect(ABILayout.sampleSize(forDeclaredMinor: 9) == MemoryLayout<bristle_sample_t>.size)
    }

    @Test func hostABIMinimumIsReadOnlyWhenPresentAndSet() {
        var e = bristle_entry_t()
        e.struct_size = UInt32(MemoryLayout<bristle_entry_t>.size)
        e.host_abi_min = bristle_version_t(major: 1, minor: 9, patch: 0)
        #expect(PluginLoader.hostABIMinimum(e)?.minor == 9)
        e.struct_size = 40 // a 1.1 entry: the field is not there, whatever the bytes say
        #expect(PluginLoader.hostABIMinimum(e) == nil)
        e.struct_size = UInt32(MemoryLayout<bristle_entry_t>.size)
        e.host_abi_min = bristle_version_t(major: 0, minor: 0, patch: 0) // zero-initialised: any host
        #expect(PluginLoader.hostABIMinimum(e) == nil)
    }
}
