import BristleHost

/// Parsing of flag values that are not plain numbers or strings.
enum CLIParsing {
    /// `640x480` -> (640, 480), each side within the host's limits.
    static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...Layer.maximumSide).contains(w), (1...Layer.maximumSide).contains(h) else { return nil }
        return (w, h)
    }

    /// `NAME=VALUE` -> (NAME, VALUE); the name must not be empty.
    static func assignment(_ text: String) -> (name: String, value: String)? {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { return nil }
        return (String(text[..<eq]), String(text[text.index(after: eq)...]))
    }

    /// A colour if the text is one, otherwise an image path (made absolute).
    static func background(_ text: String) -> BackgroundSpec {
        if let color = try? RGBAColor(parsing: text) { return .color(color) }
        return .image(path: Paths.absolute(text))
    }
}
