import Foundation

/// Quotes a word for a POSIX shell when it needs it, so reproduce commands paste as-is.
enum ShellQuote {
    static func quote(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@".contains($0)) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
