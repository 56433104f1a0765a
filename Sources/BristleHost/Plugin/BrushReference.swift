/// What a `--brush` value names (docs/CLI.md): a brush id looked up on the plugin search path,
/// a plugin file holding one brush, or `FILE.so#ID`, one brush of a given file, which is how to
/// pick a brush whose id several plugins on the search path declare.
public enum BrushReference: Equatable, Sendable {
    /// An id, resolved on the search path (the first plugin providing it wins).
    case id(String)
    /// A plugin file, and the brush in it (nil: the file must hold exactly one brush).
    case file(path: String, id: String?)

    /// Reads a `--brush` value. `FILE#ID` is a file and an id when `FILE` names a file (contains
    /// `/`, ends in `.so` or exists) and `ID` is not empty; a value naming a file is a file; the
    /// rest is an id.
    public init(_ text: String) {
        if let hash = text.lastIndex(of: "#"), !Paths.exists(text) {
            let path = String(text[..<hash]), id = String(text[text.index(after: hash)...])
            if !id.isEmpty, !path.isEmpty, Paths.namesAFile(path) {
                self = .file(path: path, id: id)
                return
            }
        }
        self = Paths.namesAFile(text) ? .file(path: text, id: nil) : .id(text)
    }

    /// The value that names this brush explicitly, `FILE#ID`: what a clash warning suggests.
    public static func explicit(path: String, id: String) -> String { "\(path)#\(id)" }
}
