/// The inputs of a batch render (`bristle render DIR... --out-dir OUT`): files given by name
/// are taken as they are (a bad one fails and is reported); the files of a folder are
/// recognised by content, as a single render recognises its input, and the others are skipped
/// with the reason, never dropped silently.
public struct BatchInputs: Sendable {
    /// One input, and the sub-folder of the output folder its PNG goes to (empty for the top).
    public struct Input: Sendable, Equatable {
        public var path: String
        public var subfolder: String
    }

    /// A file of a folder that is not rendered, and why.
    public struct Skipped: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    public private(set) var inputs: [Input] = []
    public private(set) var skipped: [Skipped] = []

    /// The inputs of `paths`: files as given, folders' files in name order, descending into
    /// sub-folders (mirrored under the output folder) when `recursive`. A missing path is kept
    /// as an input, so that it fails and is reported like any other bad input.
    public init(_ paths: [String], recursive: Bool) {
        for path in paths {
            if Paths.isDirectory(path) {
                collect(folder: path, subfolder: "", recursive: recursive)
            } else {
                inputs.append(Input(path: path, subfolder: ""))
            }
        }
    }

    private mutating func collect(folder: String, subfolder: String, recursive: Bool) {
        guard let names = Paths.visibleEntries(of: folder) else {
            // Unreadable: taken as an input, so that reading it fails and is reported.
            inputs.append(Input(path: folder, subfolder: subfolder))
            return
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names {
            let path = base + name
            switch FileKind(path: path) {
            case .directory:
                if recursive {
                    collect(folder: path, subfolder: subfolder.isEmpty ? name : subfolder + "/" + name, recursive: true)
                } else {
                    skipped.append(Skipped(path: path, reason: "a folder (--recursive descends into folders)"))
                }
            case .regular:
                if let reason = Self.notInk(path) {
                    skipped.append(Skipped(path: path, reason: reason))
                } else {
                    inputs.append(Input(path: path, subfolder: subfolder))
                }
            case let kind:
                skipped.append(Skipped(path: path, reason: "not a regular file (\(kind.notRegularDescription ?? "unreadable"))"))
            }
        }
    }

    /// Why the file at `path` is not a stroke script or pen recording, judged from its first
    /// ``InkImporter/sniffBytes`` bytes; nil when it is one (JSON is taken whole: whether it is
    /// a script or a capture is told when it is read).
    static func notInk(_ path: String) -> String? {
        guard let reader = LineReader(path: path) else { return "not readable" }
        let prefix = reader.prefix(InkImporter.sniffBytes)
        let start = InkFormatSniffer.contentStart(prefix)
        guard start < prefix.count else { return "an empty file" }
        switch prefix[start] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return nil
        case UInt8(ascii: "<"):
            return InkFormatSniffer.hasInkElement(prefix, from: start) ? nil : "XML without an <ink> element (not InkML)"
        default:
            if InkImporter.detect(prefix) != nil { return nil }
            return prefix.prefix(1024).contains(0) ? "a binary file, not a pen recording" : "text in no supported format (not Wacom CSV, SVC or JSON)"
        }
    }
}
