import Glibc

/// Reads a file one line at a time through a fixed buffer, so that a file of any size is
/// read in constant memory (plus the longest line). Lines end with LF; a CR before it stays
/// in the line.
final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the last line returned, from 1.
    private(set) var lineNumber = 0

    /// Opens `path`, or returns nil when it cannot be opened.
    init?(path: String) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    /// Up to `count` bytes from the start of the file (for recognising its format); the
    /// reader is at the end of them afterwards.
    func prefix(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes[..<filled])
    }

    /// The next line without its LF, or nil at the end of the file.
    func next() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                lineNumber += 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                lineNumber += 1
                return line
            }
            buffer.removeSubrange(0..<start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { atEnd = true } else { buffer += chunk[..<n] }
        }
    }
}
