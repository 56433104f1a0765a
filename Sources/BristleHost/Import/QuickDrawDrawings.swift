import Synchronization

/// The drawings of a Quick, Draw! file on disk, read one line at a time by any number of
/// threads: each ``next()`` hands out the next drawing, so a file of 100,000 drawings is
/// rendered with one drawing per worker in memory.
public final class QuickDrawDrawings: Sendable {
    /// One drawing: its index (from 0, blank lines not counted), its line and its text.
    public struct Drawing: Sendable {
        public var index: Int
        public var line: Int
        var text: [UInt8]
    }

    public let path: String
    private let state: Mutex<(reader: LineReaderBox, count: Int)>

    /// The drawings of the file at `path`, or nil when it cannot be opened or is not Quick,
    /// Draw! (judged from its first ``InkImporter/sniffBytes`` bytes).
    public init?(path: String) {
        guard let sniffer = LineReader(path: path), let reader = LineReader(path: path) else { return nil }
        guard QuickDrawReader.looksLikeQuickDraw(sniffer.prefix(InkImporter.sniffBytes)[...]) else { return nil }
        self.path = path
        state = Mutex((LineReaderBox(reader), 0))
    }

    /// The next drawing of the file, or nil at its end.
    public func next() -> Drawing? {
        state.withLock { s in
            while let line = s.reader.reader.next() {
                guard !QuickDrawReader.isBlank(line) else { continue }
                defer { s.count += 1 }
                return Drawing(index: s.count, line: s.reader.reader.lineNumber, text: line)
            }
            return nil
        }
    }

    /// How many drawings ``next()`` has handed out.
    public var count: Int { state.withLock { $0.count } }

    /// Reads on to the drawing `index` (from 0); nil when the file has fewer drawings.
    public func drawing(_ index: Int) -> Drawing? {
        guard index >= 0 else { return nil }
        while let d = next() {
            if d.index == index { return d }
        }
        return nil
    }

    /// The stroke script of `drawing`, fitted into `size` like every recording.
    public func script(of drawing: Drawing, fitInto size: (width: Int, height: Int)) throws(InputError) -> StrokeScript {
        var recording = try QuickDrawReader.drawing(drawing.text, number: drawing.line, file: path)
        recording.dropConstantChannels(file: path)
        let width = min(max(size.width, 1), 65536), height = min(max(size.height, 1), 65536)
        return recording.script(width: width, height: height, sourcePath: path)
    }
}

/// A ``LineReader`` that a mutex may hold (only ever used under that mutex).
struct LineReaderBox: @unchecked Sendable {
    let reader: LineReader
    init(_ reader: LineReader) { self.reader = reader }
}
