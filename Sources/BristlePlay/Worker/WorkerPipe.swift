import Glibc

/// Frames on the pipes between the server and its brush worker: a little-endian `u32` length
/// of what follows, a `u8` code, then the payload. Blocking I/O on file descriptors; reads can
/// wait with a deadline (the server must not wait forever for a hung brush).
enum WorkerPipe {
    /// The largest frame accepted (a whole 16384 x 16384 layer is 1 GiB; patches are smaller
    /// than the canvas).
    static let maximumFrameBytes = 1 << 31 - 1

    enum ReadResult {
        case frame(code: UInt8, payload: [UInt8])
        /// The other end closed the pipe (or sent a malformed frame).
        case closed
        /// Nothing complete arrived before the deadline.
        case timedOut
    }

    /// Writes one frame in one `write` (a reader woken by the header alone would sleep again
    /// until the payload came); false when the pipe is closed.
    static func write(_ fd: Int32, code: UInt8, payload: [UInt8]) -> Bool {
        var frame = ByteWriter(capacity: 5 + payload.count)
        frame.u32(UInt32(payload.count + 1))
        frame.u8(code)
        frame.raw(payload)
        return writeAll(fd, frame.bytes)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Reads one frame, waiting until `deadline` (``Clock/seconds()``), or forever when nil.
    static func read(_ fd: Int32, deadline: Double?) -> ReadResult {
        var header = [UInt8](repeating: 0, count: 4)
        switch readExactly(fd, into: &header, deadline: deadline) {
        case .closed: return .closed
        case .timedOut: return .timedOut
        case .done: break
        }
        var r = ByteReader(header)
        let length = Int(r.u32()!)
        guard length >= 1, length <= maximumFrameBytes else { return .closed }
        var body = [UInt8](repeating: 0, count: length)
        switch readExactly(fd, into: &body, deadline: deadline) {
        case .closed: return .closed
        case .timedOut: return .timedOut
        case .done: return .frame(code: body[0], payload: Array(body[1...]))
        }
    }

    private enum Progress { case done, closed, timedOut }

    private static func readExactly(_ fd: Int32, into buffer: inout [UInt8], deadline: Double?) -> Progress {
        var done = 0
        while done < buffer.count {
            if let deadline {
                let left = deadline - Clock.seconds()
                guard left > 0 else { return .timedOut }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, Int32(min(left * 1000 + 1, 60_000)))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { continue }
            }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .closed }
            done += n
        }
        return .done
    }
}

/// Monotonic seconds.
enum Clock {
    static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
