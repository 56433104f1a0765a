import Foundation

/// Reads pen recordings into the native model, ``StrokeScript``, so that the renderer plays
/// them unchanged. See `docs/importers.md`.
///
/// Supported formats, recognised by content (never by file extension):
/// - native stroke scripts (`docs/stroke-format.md`), delegated to ``StrokeScriptReader``;
/// - W3C InkML;
/// - Pointer Events captures as one JSON object of parallel arrays;
/// - Pointer Events points as JSON `[x, y, pressure, t]` arrays, one stroke or several;
/// - Wacom's raw sensor CSV (`SPLINE_X`, `SPLINE_Y`, `SENSOR_*`);
/// - Google Quick, Draw! `.ndjson`, one drawing per line (``QuickDrawReader``);
/// - SVC tablet captures of handwriting data sets (``SVCReader``).
///
/// Recordings other than native scripts carry no canvas: they are fitted into the size asked
/// for, keeping their aspect ratio, centred, with a margin of ``marginFraction`` of the
/// smaller side on every edge.
public enum InkImporter {
    public enum Format: String, Sendable, CaseIterable {
        case nativeJSON = "native JSON"
        case inkML = "InkML"
        case pointerEventsArrays = "Pointer Events (parallel arrays)"
        case pointsArray = "Pointer Events ([x, y, pressure, t] points)"
        case wacomCSV = "Wacom sensor CSV"
        case quickDraw = "Google Quick, Draw! ndjson"
        case svc = "SVC tablet capture"
    }

    /// The canvas a recording is fitted into when the caller does not say: 1024 x 768, the
    /// host's default canvas.
    public static let defaultCanvasSize: (width: Int, height: Int) = (1024, 768)

    /// The margin left on each edge when fitting, as a fraction of the canvas's smaller side
    /// (5%: 38.4 pixels on 1024 x 768).
    public static let marginFraction = 0.05
    /// The largest input file read. Parsing holds the whole document in memory (about 50
    /// bytes per byte of JSON), and batches read one file per core at once; real recordings
    /// are kilobytes.
    public static let maximumFileBytes = 64 << 20

    /// The format of `bytes`, judged from the content, or `nil` when it is none of them.
    ///
    /// - XML (after an optional byte-order mark and white space, `<`) with an `ink` element,
    ///   prefixed (`inkml:ink`) or not, as the root or inside another document: InkML.
    /// - A JSON object with an array `x` or `y`: Pointer Events parallel arrays; with
    ///   `actions` or `canvas`: a native script.
    /// - A JSON array whose first point is an array of numbers, or whose first stroke is an
    ///   array of such arrays: Pointer Events points.
    /// - Text whose first line is a CSV header naming `SPLINE_X` and `SPLINE_Y`: Wacom CSV.
    /// - A first line that is a JSON object with a `drawing` member: Quick, Draw! ndjson.
    /// - A first line holding one whole number, then rows of at least three numbers: SVC.
    public static func detect(_ bytes: [UInt8]) -> Format? {
        let start = InkFormatSniffer.contentStart(bytes)
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "<"):
            return InkFormatSniffer.hasInkElement(bytes, from: start) ? .inkML : nil
        case UInt8(ascii: "{") where QuickDrawReader.looksLikeQuickDraw(bytes[...]):
            return .quickDraw
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard let root = try? JSONParser.parse(bytes, file: "") else { return nil }
            return InkFormatSniffer.classify(root)
        default:
            if InkFormatSniffer.isWacomCSV(bytes) { return .wacomCSV }
            return SVCReader.looksLikeSVC(bytes) ? .svc : nil
        }
    }

    /// How much of a file is read to recognise a Quick, Draw! file, which is then streamed.
    static let sniffBytes = 1 << 16

    /// Reads the file at `path` in any supported format.
    ///
    /// A native script is read by ``StrokeScriptReader`` unchanged (`size` does not apply to
    /// it). Any other recording is fitted into `size` (see ``InkImporter``): the script's
    /// canvas is `size`, and every position and contact size is scaled onto it.
    ///
    /// Errors are ``InputError``s naming the file, with the line and column of the problem
    /// (the CLI exits with status 65 for them).
    ///
    /// A Quick, Draw! file holds many drawings: `drawing` (from 0) chooses one. It is streamed,
    /// line by line, so it is not subject to ``maximumFileBytes``.
    public static func read(contentsOf path: String, fitInto size: (width: Int, height: Int) = defaultCanvasSize,
                            drawing: Int = 0)
        throws(InputError) -> (script: StrokeScript, format: Format) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, location: nil,
                             message: "expected a stroke script or pen recording file but found no file at this path",
                             hint: path.hasPrefix("/") ? nil
                                : "relative paths start at the current directory, \(FileManager.default.currentDirectoryPath)")
        }
        if isDirectory.boolValue {
            throw InputError(file: path, location: nil,
                             message: "expected a stroke script or pen recording file but found a directory")
        }
        if let drawings = QuickDrawDrawings(path: path) {
            guard let found = drawings.drawing(drawing) else {
                throw InputError(file: path, location: nil,
                                 message: "expected a drawing \(drawing) (counted from 0), found only \(drawings.count) drawing(s) in the file")
            }
            return (try drawings.script(of: found, fitInto: size), .quickDraw)
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard bytes <= maximumFileBytes else {
            throw InputError(file: path, location: nil,
                             message: "expected a file of at most \(maximumFileBytes >> 20) MB, found \(bytes >> 20) MB",
                             hint: "split the recording into several files (reading holds the whole parsed file in memory, about 50 times its size)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputError(file: path, location: nil,
                             message: "expected a readable file but could not read it (\(error.localizedDescription))")
        }
        return try parse([UInt8](data), sourcePath: path, fitInto: size, drawing: drawing)
    }

    /// Reads `bytes` like ``read(contentsOf:fitInto:)``; `sourcePath` names the file in errors
    /// and is the base of relative paths in a native script. It is not read.
    public static func parse(_ bytes: [UInt8], sourcePath: String,
                             fitInto size: (width: Int, height: Int) = defaultCanvasSize,
                             drawing: Int = 0)
        throws(InputError) -> (script: StrokeScript, format: Format) {
        let file = sourcePath
        let start = InkFormatSniffer.contentStart(bytes)
        guard start < bytes.count else {
            throw InputError(file: file, location: SourceLocation(line: 1, column: 1),
                             message: "expected a stroke script or a pen recording (native JSON, InkML, Pointer Events JSON or Wacom CSV), found an empty file")
        }
        let width = min(max(size.width, 1), 65536), height = min(max(size.height, 1), 65536)
        var recording: InkRecording
        let format: Format
        switch bytes[start] {
        case UInt8(ascii: "<"):
            // InkML, or XML without ink: the reader says which (and reports malformed XML).
            recording = try InkMLReader.read(bytes, file: file)
            format = .inkML
        case UInt8(ascii: "{") where QuickDrawReader.looksLikeQuickDraw(bytes[...]):
            let lines = QuickDrawReader.lines(in: bytes)
            guard drawing >= 0 && drawing < lines.count else {
                throw InputError(file: file, location: nil,
                                 message: "expected a drawing \(drawing) (counted from 0), found only \(lines.count) drawing(s) in the file")
            }
            recording = try QuickDrawReader.drawing(lines[drawing].text, number: lines[drawing].number, file: file)
            format = .quickDraw
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // One parse serves every JSON format; a native script's events are decoded as they
            // are parsed (no tree of a long stroke; Pointer Events JSON has no "events" key).
            let document = try StrokeScriptReader.Document(bytes, sourcePath: sourcePath)
            let root = document.root
            switch InkFormatSniffer.classify(root) {
            case .nativeJSON:
                return (try document.script(), .nativeJSON)
            case .pointerEventsArrays:
                recording = try PointerEventsJSONReader.readParallelArrays(root, file: file)
                format = .pointerEventsArrays
            case .pointsArray:
                recording = try PointerEventsJSONReader.readPoints(root, file: file)
                format = .pointsArray
            default:
                throw InkFormatSniffer.unknownJSON(root, file: file)
            }
        case _ where !InkFormatSniffer.isWacomCSV(bytes) && SVCReader.looksLikeSVC(bytes):
            recording = try SVCReader.read(bytes, file: file)
            format = .svc
        default:
            guard InkFormatSniffer.isWacomCSV(bytes) else {
                // JSON that is not an object or an array ("text", 42, true) is named as JSON.
                if let root = try? JSONParser.parse(bytes, file: file) {
                    throw InkFormatSniffer.unknownJSON(root, file: file)
                }
                throw InkFormatSniffer.unknownText(bytes, from: start, file: file)
            }
            recording = try WacomCSVReader.read(bytes, file: file)
            format = .wacomCSV
        }
        var measured = recording
        measured.dropConstantChannels(file: file)
        return (measured.script(width: width, height: height, sourcePath: sourcePath), format)
    }
}
