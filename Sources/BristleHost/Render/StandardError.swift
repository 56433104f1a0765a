import Glibc

/// Writes text to the process's standard error (file descriptor 2) without going through
/// C's `stderr` global, which Swift 6 treats as shared mutable state. Control characters other
/// than newlines are escaped (``TerminalText``): messages quote paths and file content.
public enum StandardError {
    public static func write(_ text: String) {
        raw(TerminalText.escaped(text, keepingNewlines: true))
    }

    /// One line: `text` with every control character escaped, newlines included (a file name
    /// holding a newline cannot split a message), then a newline.
    public static func line(_ text: String) {
        raw(TerminalText.escaped(text) + "\n")
    }

    /// A progress line that replaces the previous one (a carriage return, then `line`, escaped).
    public static func progress(_ line: String) {
        raw("\r" + TerminalText.escaped(line))
    }

    private static func raw(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }
}
