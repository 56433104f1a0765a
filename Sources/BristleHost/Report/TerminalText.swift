/// Text from files (input paths and content, plugin descriptors, plugin log messages) made
/// safe to print on a terminal: control characters are written as `\u{1B}`, so no escape
/// sequence from a file ever reaches the terminal raw and no carriage return or bidirectional
/// override can disguise a message.
public enum TerminalText {
    /// `text` with every C0 and C1 control character, DEL, the line and paragraph separators
    /// and the bidirectional embedding, override and isolate characters written as `\u{XX}`;
    /// newlines are kept when `keepingNewlines`, escaped otherwise (a message stays one line).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingNewlines) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, _ keepingNewlines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: return !keepingNewlines
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
