@testable import BristleHost
import Foundation
import Testing

/// The layers' memory (``PlaneMemory``): small layers from `calloc`, large ones a mapping on a
/// 2 MiB boundary advised to use transparent huge pages; both zeroed, padded rows kept, and
/// given back whole.
@Suite struct PlaneMemoryTests {
    /// One mapping of /proc/self/smaps: its range and its `VmFlags`.
    struct Mapping {
        var start: UInt
        var end: UInt
        var flags: [Substring]
    }

    /// The whole of a /proc file (read to its end: `String(contentsOfFile:)` stops after the
    /// first read, a page of smaps).
    static func procFile(_ path: String) throws -> String {
        let file = try #require(FileHandle(forReadingAtPath: path), "cannot open \(path)")
        defer { try? file.close() }
        return String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The mappings of this process now.
    static func mappings() throws -> [Mapping] {
        let text = try procFile("/proc/self/smaps")
        var result: [Mapping] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmFlags:") {
                result[result.count - 1].flags = line.dropFirst("VmFlags:".count).split(separator: " ")
            } else if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
                      let start = UInt(line[..<dash], radix: 16),
                      let end = UInt(line[line.index(after: dash)..<space], radix: 16) {
                result.append(Mapping(start: start, end: end, flags: []))
            }
        }
        return result
    }

    /// True when the kernel has transparent huge pages (the advice is then accepted, whatever
    /// the `enabled` mode).
    static var kernelHasHugePages: Bool {
        FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")
    }

    /// True when every one of the `count` bytes at `p` is zero.
    static func allZero(_ p: UnsafeMutableRawPointer, count: Int) -> Bool {
        let zeros = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        defer { zeros.deallocate() }
        zeros.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        return memcmp(p, zeros, count) == 0
    }

    @Test func smallLayersComeFromCallocZeroedAndPadded() throws {
        let layer = try #require(Layer(width: 100, height: 40))
        #expect(layer.strideBytes == 448, "400 bytes of pixels rounded up to 7 lines of 64")
        #expect(layer.memory.byteCount == 448 * 40)
        #expect(layer.memory.mappedBytes == 0)
        #expect(!layer.memory.isHugePageAdvised)
        #expect(Self.allZero(layer.memory.base, count: layer.memory.byteCount))
    }

    @Test func largeLayersAreAlignedAdvisedZeroedAndPadded() throws {
        // 1000 x 700: 4,000 bytes of pixels per row padded to 4,032 (63 lines), 2.8 MB.
        let layer = try #require(Layer(width: 1000, height: 700))
        let memory = layer.memory
        #expect(layer.strideBytes == 4032)
        #expect(memory.byteCount == 4032 * 700)
        #expect(memory.mappedBytes == (4032 * 700 + 4095) / 4096 * 4096)
        #expect(Int(bitPattern: memory.base) % PlaneMemory.hugePageBytes == 0, "the plane starts on a huge page boundary")
        #expect(UnsafeMutableRawPointer(layer.pixels) == memory.base)
        #expect(Self.allZero(memory.base, count: memory.byteCount))
        #expect(memory.isHugePageAdvised == Self.kernelHasHugePages)

        let start = UInt(bitPattern: Int(bitPattern: memory.base))
        let mapping = try #require(Self.mappings().first { $0.start <= start && start < $0.end })
        #expect(mapping.end >= start + UInt(memory.mappedBytes), "one mapping holds the whole plane")
        #expect(mapping.flags.contains("hg") == memory.isHugePageAdvised, "smaps shows the advice: \(mapping.flags)")
        // The pixels are writable to the last byte of the last row.
        layer.fill(.white, in: layer.bounds)
        #expect(layer.pixels[memory.byteCount - 4032 + 3999] == 255)
    }

    @Test func releaseUnmapsThePlaneAndItsSlack() throws {
        // 1000 x 701 (a size no other suite allocates): the mapping is gone after the layer.
        var layer = Layer(width: 1000, height: 701)
        let memory = try #require(layer?.memory)
        let start = UInt(bitPattern: Int(bitPattern: memory.base))
        let end = start + UInt(memory.mappedBytes)
        #expect(try Self.mappings().contains { $0.start == start && $0.end == end && $0.flags.contains("hg") }
                == Self.kernelHasHugePages)
        layer = nil
        #expect(try !Self.mappings().contains { $0.start == start && $0.end == end && $0.flags.contains("hg") })

        // Neither the plane nor the slack before and after it stays mapped: 200 large layers
        // (559 MiB with their slack) grow the address space by far less than 64 of them.
        func addressSpace() throws -> Int {
            let statm = try Self.procFile("/proc/self/statm")
            return try #require(Int(statm.split(separator: " ")[0])) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        let before = try addressSpace()
        for _ in 0..<200 { #expect(Layer(width: 1000, height: 701) != nil) }
        #expect(try addressSpace() - before < 64 * (4032 * 701 + PlaneMemory.hugePageBytes))
    }
}
