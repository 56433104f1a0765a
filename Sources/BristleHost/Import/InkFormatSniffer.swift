/// Recognises a recording's format from its first bytes, and words the error when it is none.
enum InkFormatSniffer {
    /// The offset of the first byte after a UTF-8 byte-order mark and white space.
    static func contentStart(_ bytes: [UInt8]) -> Int {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D {
            i += 1
        }
        return i
    }

    /// The 1-based line and column (in Unicode scalars) of `offset`, the byte-order mark not
    /// counted.
    static func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
        var line = 1, column = 1
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < offset && i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || (b == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if b != 0x0D && b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return SourceLocation(line: line, column: column)
    }

    // MARK: XML

    /// True when the XML from `start` has a start tag whose local name is `ink`, outside
    /// comments, CDATA sections, processing instructions and declarations.
    static func hasInkElement(_ bytes: [UInt8], from start: Int) -> Bool {
        let n = bytes.count
        var i = start
        func skip(past terminator: [UInt8]) {
            while i < n {
                if bytes[i] == terminator[0], bytes[i...].starts(with: terminator) {
                    i += terminator.count
                    return
                }
                i += 1
            }
        }
        /// Skips to just past the '>' of a tag, over quoted attribute values.
        func skipTag() {
            var quote: UInt8? = nil
            while i < n {
                let b = bytes[i]
                i += 1
                if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") {
                    return
                }
            }
        }
        while i < n {
            guard bytes[i] == UInt8(ascii: "<") else { i += 1; continue }
            let rest = bytes[i...]
            if rest.starts(with: Array("<!--".utf8)) {
                i += 4; skip(past: Array("-->".utf8))
            } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                i += 9; skip(past: Array("]]>".utf8))
            } else if rest.starts(with: Array("<?".utf8)) {
                i += 2; skip(past: Array("?>".utf8))
            } else if rest.starts(with: Array("<!".utf8)) || rest.starts(with: Array("</".utf8)) {
                i += 2; skipTag()
            } else {
                i += 1
                var name: [UInt8] = []
                while i < n {
                    let b = bytes[i]
                    if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") { break }
                    name.append(b)
                    i += 1
                }
                let local = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last.map(Array.init) ?? []
                if local == Array("ink".utf8) { return true }
                skipTag()
            }
        }
        return false
    }

    // MARK: JSON

    /// The format of a parsed JSON document, or `nil`.
    static func classify(_ root: JSONValue) -> InkImporter.Format? {
        switch root.kind {
        case .object:
            if root.member("actions") != nil || root.member("canvas") != nil { return .nativeJSON }
            if root["x"]?.arrayValue != nil || root["y"]?.arrayValue != nil { return .pointerEventsArrays }
            return nil
        case .array(let elements):
            // The first element that is not an empty array decides.
            guard let first = elements.first(where: { !($0.arrayValue?.isEmpty ?? false) }),
                  let point = first.arrayValue?.first else { return nil }
            if point.doubleValue != nil { return .pointsArray }
            if let inner = point.arrayValue, inner.first?.doubleValue != nil { return .pointsArray }
            return nil
        default:
            return nil
        }
    }

    /// The error for JSON that is none of the supported shapes.
    static func unknownJSON(_ root: JSONValue, file: String) -> InputError {
        let formats = "a stroke script (an object with \"actions\"), a Pointer Events capture (an object of parallel arrays \"x\" and \"y\") or an array of [x, y, pressure, t] points"
        switch root.kind {
        case .object(let members):
            for key in ["x", "y"] {
                if let v = root[key] {
                    return InputError(file: file, location: v.location,
                                      message: "\(key): expected an array with one value per event, found \(v.briefDescription)",
                                      hint: "a Pointer Events capture is {\"x\": [...], \"y\": [...], \"time\": [...], ...}")
                }
            }
            let keys = members.prefix(6).map { JSONValue.quoted($0.key, limit: 30) }.joined(separator: ", ")
                + (members.count > 6 ? ", ..." : "")
            var hint = "a script is {\"canvas\": {...}, \"actions\": [...]} (docs/stroke-format.md); importers are in docs/importers.md"
            for m in members {
                if let s = InputSpelling.suggestion(for: m.key, among: ["actions", "canvas"]) {
                    hint = "did you mean \"\(s)\" for \(JSONValue.quoted(m.key, limit: 30))?"
                    break
                }
            }
            return InputError(file: file, location: root.location,
                              message: "expected \(formats), found \(members.isEmpty ? "an empty object" : "an object with the keys \(keys)")",
                              hint: hint)
        case .array(let elements):
            guard let first = elements.first(where: { !($0.arrayValue?.isEmpty ?? false) }) else {
                return InputError(file: file, location: root.location,
                                  message: "expected an array of [x, y, pressure, t] points, or an array of such strokes, found \(elements.isEmpty ? "an empty array" : "only empty arrays")",
                                  hint: "a recording needs at least one point")
            }
            let path = "[\(elements.firstIndex { !($0.arrayValue?.isEmpty ?? false) } ?? 0)]"
            guard let point = first.arrayValue?.first else {
                return InputError(file: file, location: first.location,
                                  message: "\(path): expected a point [x, y, pressure, t] or a stroke of such points, found \(first.briefDescription)",
                                  hint: "a stroke script is an object: {\"actions\": [...]}")
            }
            let inner = point.arrayValue?.first ?? point
            return InputError(file: file, location: inner.location,
                              message: "\(path): expected a point [x, y, pressure, t] of numbers, found \(inner.briefDescription)")
        default:
            return InputError(file: file, location: root.location,
                              message: "expected \(formats), found \(root.briefDescription)")
        }
    }

    // MARK: Text

    /// True when the first line is a CSV header naming SPLINE_X and SPLINE_Y.
    static func isWacomCSV(_ bytes: [UInt8]) -> Bool {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let line = body.prefix { $0 != 0x0A && $0 != 0x0D }
        let names = String(decoding: line, as: UTF8.self).split(separator: ",").map {
            $0.trimmingCharacters(in: " \t\"").uppercased()
        }
        return names.contains("SPLINE_X") && names.contains("SPLINE_Y")
    }

    /// The error for content that is no supported format.
    static func unknownText(_ bytes: [UInt8], from start: Int, file: String) -> InputError {
        let location = location(of: start, in: bytes)
        let head = bytes[start...].prefix(200)
        // The first 200 bytes may end inside a character: valid text validates once the
        // incomplete tail (at most 3 bytes) is dropped.
        let isBinary = head.contains(0) || !(0...3).contains { String(validating: head.dropLast($0), as: UTF8.self) != nil }
        let found: String
        var hint = "supported: native stroke scripts (docs/stroke-format.md), InkML, Pointer Events JSON and Wacom sensor CSV (docs/importers.md)"
        if isBinary {
            found = "binary data"
        } else {
            let firstLine = String(decoding: head.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
            found = "text starting \(JSONValue.quoted(firstLine, limit: 40))"
            if firstLine.contains(",") {
                hint = "a Wacom sensor CSV starts with a header naming its columns, including SPLINE_X and SPLINE_Y"
            }
        }
        return InputError(file: file, location: location,
                          message: "expected a stroke script or a pen recording (native JSON, InkML, Pointer Events JSON or Wacom CSV), found \(found)",
                          hint: hint)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = self[...]
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
