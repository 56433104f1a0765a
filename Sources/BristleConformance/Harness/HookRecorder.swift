import CBristleHarness
import Glibc

/// Records the plugin call in flight (hook name, arguments, seed) in a small buffer, so that
/// when a brush crashes, aborts, exits or hangs the parent process can still say where.
///
/// In a child the buffer is a `MAP_SHARED` mapping of a file the parent created and reads back
/// after the child ends; in-process it is plain memory. Layout (``size`` bytes): byte 0 is the
/// state (0 nothing called yet, 1 a call is in flight, 2 the last call returned), byte 1 is set
/// once the test body has finished (so an `exit()` after it is the harness's own), then a
/// NUL-terminated UTF-8 description of the call in ``callRange``, and in ``noteRange`` a
/// NUL-terminated note written in the process's last moments: by the fault handler
/// (`bristle_guard_install`: which buffer a SIGSEGV hit), by the exit handler (the plugin
/// called `exit()`), or by the harness when it cannot deliver its result. Writing a call costs a
/// short `memcpy`, so every hook is recorded.
public final class HookRecorder: @unchecked Sendable {
    /// The size of the shared record.
    public static let size = 4096
    static let stateOffset = 0
    static let finishedOffset = 1
    static let callRange = 8..<2048
    static let noteRange = 2048..<4096

    private let buffer: UnsafeMutablePointer<UInt8>
    private let shared: Bool
    /// Set once the fault and exit handlers write here: the buffer then outlives this object.
    private var keptForHandlers = false

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
        guard !keptForHandlers else { return }
        if shared { munmap(buffer, Self.size) } else { buffer.deallocate() }
    }

    /// Marks `call` (e.g. `moved(count=4, first=(1,2) ...)`) as in flight.
    public func enter(_ call: String) {
        buffer[Self.stateOffset] = 0
        Self.put(call, into: buffer, Self.callRange)
        buffer[Self.stateOffset] = 1
    }

    /// Marks the call in flight as returned.
    public func leave() { if buffer[Self.stateOffset] == 1 { buffer[Self.stateOffset] = 2 } }

    /// Runs `body` as the recorded call `call`.
    @inline(__always)
    public func record<T, E: Error>(_ call: @autoclosure () -> String, _ body: () throws(E) -> T) throws(E) -> T {
        enter(call())
        defer { leave() }
        return try body()
    }

    /// Leaves a note for the parent (the harness's own last words, e.g. why it could not
    /// deliver its result).
    public func note(_ text: String) { Self.put(text, into: buffer, Self.noteRange) }

    /// Makes faults in registered buffers leave a note here (see `bristle_guard_install`), and
    /// an `exit()` before ``finish()`` leave a note naming its status. The buffer then stays
    /// mapped until the process ends (the handlers run last).
    public func catchFaultsAndExits() {
        keptForHandlers = true
        let note = UnsafeMutableRawPointer(buffer + Self.noteRange.lowerBound).assumingMemoryBound(to: CChar.self)
        bristle_guard_install(note, Self.noteRange.count)
        on_exit({ status, record in
            guard let bytes = record?.assumingMemoryBound(to: UInt8.self), bytes[HookRecorder.finishedOffset] == 0,
                  bytes[HookRecorder.noteRange.lowerBound] == 0 else { return }
            HookRecorder.put("the plugin called exit(\(status)) (a brush must never end the process)",
                             into: bytes, HookRecorder.noteRange)
        }, UnsafeMutableRawPointer(buffer))
    }

    /// Marks the test body as finished: the process may now exit normally.
    public func finish() { buffer[Self.finishedOffset] = 1 }

    /// What the record says: the call, and whether it was still in flight.
    public var snapshot: HookRecord? { HookRecord(bytes: UnsafeBufferPointer(start: buffer, count: Self.size)) }

    /// Writes `text` (cut to fit) and a NUL into `range` of `record`.
    private static func put(_ text: String, into record: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) {
        var bytes = Array(text.utf8.prefix(range.count - 1))
        bytes.append(0)
        bytes.withUnsafeBufferPointer { (record + range.lowerBound).update(from: $0.baseAddress!, count: $0.count) }
    }
}
