import Foundation

/// Reads stroke scripts (`docs/stroke-format.md`) into a ``StrokeScript``.
///
/// Every problem is an ``InputError`` located at the offending value and naming its JSON
/// path, e.g. `demo.json:7:42: actions[1].stroke.events[0].pressure: expected a number in
/// [0, 1], found 1.5`.
public enum StrokeScriptReader {
    /// Reads and parses the file at `path`. Relative paths inside the script resolve against
    /// the file's folder; `path` itself resolves against the current directory.
    public static func read(contentsOf path: String) throws(InputError) -> StrokeScript {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, location: nil,
                             message: "expected a stroke script file but found no file at this path",
                             hint: path.hasPrefix("/") ? nil
                                : "relative paths start at the current directory, \(FileManager.default.currentDirectoryPath)")
        }
        if isDirectory.boolValue {
            throw InputError(file: path, location: nil,
                             message: "expected a stroke script file but found a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputError(file: path, location: nil,
                             message: "expected a readable stroke script file but could not read it (\(error.localizedDescription))")
        }
        return try parse([UInt8](data), sourcePath: path)
    }

    /// Parses UTF-8 `bytes`. `sourcePath` names the file in errors and is the base for
    /// relative paths inside the script (its folder, made absolute against the current
    /// directory); it is not read.
    public static func parse(_ bytes: [UInt8], sourcePath: String) throws(InputError) -> StrokeScript {
        try Document(bytes, sourcePath: sourcePath).script()
    }

    /// A parsed document whose strokes' events were decoded while parsing (``StreamedEvents``):
    /// the tree holds everything but the events, so a long stroke costs its samples only.
    /// ``root`` can be inspected (to tell formats apart) before ``script()`` decodes it.
    struct Document {
        let root: JSONValue
        private let decoder: StrokeScriptDecoder

        init(_ bytes: [UInt8], sourcePath: String) throws(InputError) {
            var decoder = StrokeScriptDecoder(file: sourcePath,
                                              baseDirectory: StrokeScriptPaths.directory(of: sourcePath))
            let events = StreamedEvents(decoder: decoder)
            root = try JSONParser().parse(bytes, file: sourcePath, streaming: events.stream)
            decoder.streamedEvents = events
            self.decoder = decoder
        }

        /// The script (the first problem in file order is thrown).
        func script() throws(InputError) -> StrokeScript { try decoder.script(root) }
    }

    /// Parses `text`, like the `[UInt8]` overload.
    public static func parse(_ text: String, sourcePath: String) throws(InputError) -> StrokeScript {
        try parse(Array(text.utf8), sourcePath: sourcePath)
    }
}
