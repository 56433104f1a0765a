import Glibc

/// Records the plugin call in flight (hook name, arguments, seed) in a small buffer, so that
/// when a brush crashes, aborts, exits or hangs the parent process can still say where.
///
/// In a child the buffer is a `MAP_SHARED` mapping of a file the parent created and reads back
/// after the child ends; in-process it is plain memory. Layout: byte 0 is the state (0 nothing
/// called yet, 1 a call is in flight, 2 the last call returned), then a NUL-terminated UTF-8
/// description of the call. Writing costs a short `memcpy`, so every hook is recorded.
public final class HookRecorder: @unchecked Sendable {
    /// The size of the shared record.
    public static let size = 4096

    private let buffer: UnsafeMutablePointer<UInt8>
    private let shared: Bool

    /// A recorder in private memory (in-process runs).
    public init() {
        buffer = .allocate(capacity: Self.size)
        buffer.initialize(repeating: 0, count: Self.size)
        shared = false
    }

    /// A recorder writing into a file the parent shares; nil when the file cannot be mapped.
    public init?(sharedFileDescriptor fd: Int32) {
        guard ftruncate(fd, off_t(Self.size)) == 0,
              let map = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              map != MAP_FAILED else { return nil }
        buffer = map.assumingMemoryBound(to: UInt8.self)
        shared = true
    }

    deinit {
        if shared { munmap(buffer, Self.size) } else { buffer.deallocate() }
    }

    /// Marks `call` (e.g. `moved(count=4, first=(1,2) ...)`) as in flight.
    public func enter(_ call: String) {
        buffer[0] = 0
        var bytes = Array(call.utf8.prefix(Self.size - 2))
        bytes.append(0)
        bytes.withUnsafeBufferPointer { (buffer + 1).update(from: $0.baseAddress!, count: $0.count) }
        buffer[0] = 1
    }

    /// Marks the call in flight as returned.
    public func leave() { if buffer[0] == 1 { buffer[0] = 2 } }

    /// Runs `body` as the recorded call `call`.
    @inline(__always)
    public func record<T, E: Error>(_ call: @autoclosure () -> String, _ body: () throws(E) -> T) throws(E) -> T {
        enter(call())
        defer { leave() }
        return try body()
    }

    /// What the record says: the call, and whether it was still in flight.
    public var snapshot: HookRecord? { HookRecord(bytes: UnsafeBufferPointer(start: buffer, count: Self.size)) }
}
