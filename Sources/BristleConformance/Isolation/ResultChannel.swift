import Foundation
import Glibc

/// How a child process hands its ``TestOutcome`` to the parent: JSON in the result file (fd 4),
/// after an 8-byte little-endian length. The child maps the file's first ``mappedBytes``
/// (`MAP_SHARED`) before the test runs, so a plugin that closes or replaces file descriptors it
/// does not own cannot cut the harness off from its parent: the test that checks descriptors
/// still reports its verdict. A larger outcome (only `library.load` of a library near the
/// loader's limits) is written through the descriptor instead. The mapping is small because
/// growing a fresh file to many megabytes costs tens of milliseconds per test on some file
/// systems.
final class ResultChannel {
    /// The most a result may hold. The largest honest outcome is `library.load`'s list of 4096
    /// ids of 255 bytes (the loader's limits), under 7 MiB even with every byte escaped.
    static let maximumBytes = 16 << 20
    /// What the child maps: room for every outcome but the largest `library.load` ones.
    static let mappedBytes = 64 << 10
    private static let header = 8

    private let fd: Int32
    private let map: UnsafeMutableRawPointer?

    /// Maps the start of the result file open on `fd`.
    init(descriptor fd: Int32) {
        self.fd = fd
        let size = Self.mappedBytes
        if ftruncate(fd, off_t(size)) == 0,
           let m = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), m != MAP_FAILED {
            map = m
        } else {
            map = nil
        }
    }

    /// Delivers the outcome; returns why it could not, or nil.
    func deliver(_ outcome: TestOutcome) -> String? {
        guard let data = try? JSONEncoder().encode(outcome) else { return "the outcome could not be encoded" }
        guard data.count <= Self.maximumBytes else { return "the outcome is \(data.count) bytes, more than \(Self.maximumBytes)" }
        var length = UInt64(data.count).littleEndian
        guard let map, Self.header + data.count <= Self.mappedBytes else {
            let framed = Data(bytes: &length, count: Self.header) + data
            let written = framed.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            return written == framed.count ? nil : "writing fd \(fd) failed: \(String(cString: strerror(errno)))"
        }
        data.withUnsafeBytes { (map + Self.header).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        map.storeBytes(of: length, as: UInt64.self)
        return nil
    }

    /// The outcome a child delivered into `file`, or nil when there is none or it is garbled.
    static func read(_ file: ScratchFile) -> TestOutcome? {
        let head = file.bytes(at: 0, count: header)
        guard head.count == header else { return nil }
        let length = head.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard length > 0, length <= UInt64(maximumBytes) else { return nil }
        let body = file.bytes(at: header, count: Int(length))
        guard body.count == Int(length) else { return nil }
        return try? JSONDecoder().decode(TestOutcome.self, from: Data(body))
    }
}
