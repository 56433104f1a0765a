import Glibc

/// Writes text to the process's standard error (file descriptor 2) without going through
/// C's `stderr` global, which Swift 6 treats as shared mutable state.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }
}
