/// Reads Google's Quick, Draw! data set: newline-delimited JSON (`.ndjson`), one drawing per
/// line, each an object whose `drawing` is a list of strokes.
///
/// A stroke is `[[x...], [y...]]` (the simplified form, positions 0...255) or
/// `[[x...], [y...], [t...]]` (the raw form, with milliseconds since the drawing began).
/// Drawings are read one line at a time (``QuickDrawReader/lines(of:)`` streams a file), so a
/// file of any number of drawings never has more than one in memory. Lines that hold only
/// white space are not drawings and do not count.
enum QuickDrawReader {
    /// Whether `prefix` (the start of a file) is Quick, Draw!: its first line is a JSON object
    /// with a `drawing` member. A first line longer than the prefix is judged by the text of
    /// the prefix alone (`{` then, before any newline, `"drawing"`).
    static func looksLikeQuickDraw(_ prefix: ArraySlice<UInt8>) -> Bool {
        let start = InkFormatSniffer.contentStart(Array(prefix))
        let body = prefix.dropFirst(start)
        guard body.first == UInt8(ascii: "{") else { return false }
        guard let newline = body.firstIndex(of: UInt8(ascii: "\n")) else {
            return contains(body, "\"drawing\"")
        }
        let line = Array(body[..<newline])
        guard let root = try? JSONParser.parse(line, file: "") else { return false }
        return root["drawing"]?.arrayValue != nil
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        var i = bytes.startIndex
        while i + needle.count <= bytes.endIndex {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// The drawing on `line` (the text of line `number` of `file`), its strokes in source units.
    /// Errors are located on that line of the file.
    static func drawing(_ line: [UInt8], number: Int, file: String) throws(InputError) -> InkRecording {
        let root: JSONValue
        do {
            root = try JSONParser.parse(line, file: file)
        } catch {
            var moved = error
            moved.line = (error.line ?? 1) + number - 1
            throw moved
        }
        func at(_ value: JSONValue) -> SourceLocation {
            SourceLocation(line: number, column: value.location.column)
        }
        guard let strokes = root["drawing"]?.arrayValue else {
            throw InputError(file: file, location: at(root),
                             message: "expected a Quick, Draw! drawing (an object with a \"drawing\" list of strokes) on line \(number), found none",
                             hint: "every line of a .ndjson file is one drawing")
        }
        var recording = InkRecording()
        for (s, stroke) in strokes.enumerated() {
            guard let axes = stroke.arrayValue, axes.count == 2 || axes.count == 3 else {
                throw InputError(file: file, location: at(stroke),
                                 message: "expected stroke \(s + 1) to be [[x...], [y...]] or [[x...], [y...], [t...]], found something else")
            }
            var columns: [[Double]] = []
            for (a, axis) in axes.enumerated() {
                guard let values = axis.arrayValue?.map(\.doubleValue), values.allSatisfy({ $0 != nil }) else {
                    throw InputError(file: file, location: at(axis),
                                     message: "expected stroke \(s + 1) to hold lists of numbers, found a \(["x", "y", "t"][a]) list with something else")
                }
                columns.append(values.map { $0! })
            }
            guard columns.allSatisfy({ $0.count == columns[0].count }) else {
                throw InputError(file: file, location: at(stroke),
                                 message: "expected the lists of stroke \(s + 1) to be equally long, found \(columns.map { String($0.count) }.joined(separator: ", ")) values")
            }
            recording.samplesRead += columns[0].count
            guard !columns[0].isEmpty else { continue }
            var samples: [PointerSample] = []
            samples.reserveCapacity(columns[0].count)
            for i in columns[0].indices {
                var sample = PointerSample(x: columns[0][i], y: columns[1][i], location: at(stroke))
                sample.buttons = 1
                if columns.count == 3 { sample.timeStamp = columns[2][i] }
                samples.append(sample)
            }
            recording.strokes.append(InkStroke(pointerType: "pen", samples: samples, location: at(stroke)))
        }
        return recording
    }

    /// The drawings of a file in memory, as (line number, line) pairs, blank lines left out.
    static func lines(in bytes: [UInt8]) -> [(number: Int, text: [UInt8])] {
        var result: [(Int, [UInt8])] = []
        var number = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if !isBlank(line) { result.append((number, Array(line))) }
        }
        return result
    }

    /// Whether a line holds only white space (a drawing it is not).
    static func isBlank(_ line: some Collection<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
