/// A strict RFC 8259 JSON parser whose values and errors carry line and column.
///
/// Foundation's `JSONSerialization` reports neither where a syntax error is nor where a value
/// came from, and a person fixing a stroke script needs both. This parser:
///
/// - accepts exactly RFC 8259 JSON in UTF-8: no comments, no trailing commas, no single
///   quotes, no `NaN`/`Infinity`, no leading zeros, no unescaped control characters;
/// - skips one UTF-8 byte-order mark at the start and rejects UTF-16/32 input with a clear
///   message, and rejects invalid UTF-8 inside strings;
/// - decodes every escape, joins `\uD83D\uDD8C` surrogate pairs and rejects unpaired ones;
/// - rejects numbers that do not fit a finite `Double` (`1e999`); tiny ones become 0;
/// - keeps object members in file order and rejects a duplicate key (keys compare by
///   Unicode scalars, so `"é"` and `"e\u0301"` are different keys, as in RFC 8259);
/// - rejects anything after the top-level value;
/// - limits nesting to ``maxDepth`` arrays/objects (512 by default), so that hostile input
///   cannot exhaust the stack. The size of the input is not limited.
///
/// Every error is an ``InputError`` whose message says what was expected and what was found,
/// at the offending character. Columns count Unicode scalars (see ``SourceLocation``).
public struct JSONParser: Sendable {
    /// The default nesting limit.
    public static let defaultMaxDepth = 512

    /// The largest ``maxDepth`` allowed. Parsing itself keeps open arrays and objects on the
    /// heap, but releasing (and comparing) a ``JSONValue`` recurses once per level, so the
    /// limit keeps that well within even a 512 KiB thread stack.
    public static let maximumMaxDepth = 2048

    /// The deepest nesting of arrays and objects accepted; a top-level `[]` has depth 1.
    public let maxDepth: Int

    /// A parser that accepts `maxDepth` levels of nesting, clamped to
    /// `1...JSONParser.maximumMaxDepth`.
    public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.maxDepth = min(max(1, maxDepth), JSONParser.maximumMaxDepth)
    }

    /// Parses UTF-8 `bytes`; `file` is only used to name the file in errors.
    public func parse(_ bytes: [UInt8], file: String) throws(InputError) -> JSONValue {
        var state = JSONParserState(bytes: bytes, file: file, maxDepth: maxDepth)
        return try state.parseDocument()
    }

    /// Parses like ``parse(_:file:)``, but streams every array that is the value of a member
    /// named `stream.key`: each element, as soon as it is parsed, goes to `stream.consume` and
    /// is not kept; in the tree such an array is empty (at its own location). A reader of a
    /// long list decodes it element by element this way, so the list is never held as a tree.
    func parse(_ bytes: [UInt8], file: String, streaming stream: JSONStream) throws(InputError) -> JSONValue {
        var state = JSONParserState(bytes: bytes, file: file, maxDepth: maxDepth)
        state.stream = stream
        return try state.parseDocument()
    }

    /// Parses `text`; `file` is only used to name the file in errors.
    public func parse(_ text: String, file: String) throws(InputError) -> JSONValue {
        try parse(Array(text.utf8), file: file)
    }

    /// Parses UTF-8 `bytes` with the default nesting limit.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> JSONValue {
        try JSONParser().parse(bytes, file: file)
    }

    /// Parses `text` with the default nesting limit.
    public static func parse(_ text: String, file: String) throws(InputError) -> JSONValue {
        try JSONParser().parse(text, file: file)
    }
}

/// The streamed arrays of ``JSONParser/parse(_:file:streaming:)``.
struct JSONStream {
    /// One step from the root to a value: a member's key or an array index.
    enum PathComponent: Equatable {
        case key(String)
        case index(Int)
    }

    /// The member name whose array values are streamed.
    var key: String
    /// Receives each element: the element, its index, where its array starts (which tells
    /// the arrays apart), and its path from the root (built only when asked for).
    var consume: (_ element: JSONValue, _ index: Int, _ array: SourceLocation,
                  _ path: () -> [PathComponent]) -> Void
}

// MARK: - Implementation

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let lineFeed: UInt8 = 0x0A
private let carriageReturn: UInt8 = 0x0D

/// A byte offset together with the line it is on, so that its column can be found later.
private struct Mark {
    var offset: Int
    var line: Int
    var lineStart: Int
}

/// A key compared and hashed by its UTF-8 bytes (RFC 8259 compares names code unit by code
/// unit; `String` would treat canonically equivalent keys as equal).
private struct ExactKey: Hashable {
    var text: String
    static func == (a: ExactKey, b: ExactKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

private struct JSONParserState {
    let bytes: [UInt8]
    let file: String
    let maxDepth: Int
    /// Arrays streamed instead of kept (``JSONParser/parse(_:file:streaming:)``).
    var stream: JSONStream?
    var pos = 0
    /// 1-based number of the line `pos` is on and the offset where that line starts.
    var line = 1
    var lineStart = 0
    /// A known (offset, column) pair on the current line, to count columns incrementally.
    var cacheOffset = 0
    var cacheColumn = 1

    init(bytes: [UInt8], file: String, maxDepth: Int) {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
    }

    // MARK: Locations

    var mark: Mark { Mark(offset: pos, line: line, lineStart: lineStart) }

    /// The number of Unicode scalars in `bytes[start..<end]`: the UTF-8 bytes that are not
    /// continuation bytes. A column is one plus the scalars between the line start and it.
    private static func scalars(in bytes: [UInt8], from start: Int, to end: Int) -> Int {
        var n = 0
        var i = start
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    mutating func location(of m: Mark) -> SourceLocation {
        if m.line == line && m.lineStart == lineStart {
            if m.offset < cacheOffset {
                cacheOffset = lineStart
                cacheColumn = 1
            }
            cacheColumn += Self.scalars(in: bytes, from: cacheOffset, to: m.offset)
            cacheOffset = m.offset
            return SourceLocation(line: line, column: cacheColumn)
        }
        let column = 1 + Self.scalars(in: bytes, from: m.lineStart, to: m.offset)
        return SourceLocation(line: m.line, column: column)
    }

    mutating func here() -> SourceLocation { location(of: mark) }

    func error(at location: SourceLocation, _ message: String, hint: String? = nil) -> InputError {
        InputError(file: file, location: location, message: message, hint: hint)
    }

    mutating func error(_ message: String, hint: String? = nil) -> InputError {
        error(at: here(), message, hint: hint)
    }

    // MARK: Whitespace

    mutating func startNewLine() {
        line += 1
        lineStart = pos
        cacheOffset = pos
        cacheColumn = 1
    }

    mutating func skipWhitespace() {
        let count = bytes.count
        while pos < count {
            switch bytes[pos] {
            case 0x20, 0x09:
                pos += 1
            case lineFeed:
                pos += 1
                startNewLine()
            case carriageReturn:
                pos += 1
                if pos < count && bytes[pos] == lineFeed { pos += 1 }
                startNewLine()
            default:
                return
            }
        }
    }

    // MARK: Describing what was found

    static func isWordByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
             UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// The run of word characters at `offset` (letters, digits, `_ $ . + -`), at most 32.
    func word(at offset: Int) -> String {
        var end = offset
        while end < bytes.count && end - offset < 32 && Self.isWordByte(bytes[end]) { end += 1 }
        var text = String(decoding: bytes[offset..<end], as: UTF8.self)
        if end < bytes.count && Self.isWordByte(bytes[end]) { text += "…" }
        return text
    }

    /// The scalar starting at `offset`, or nil when the bytes there are not valid UTF-8.
    func scalar(at offset: Int) -> Unicode.Scalar? {
        guard let length = Self.validUTF8Length(bytes, at: offset) else { return nil }
        var decoder = UTF8()
        var iterator = bytes[offset..<(offset + length)].makeIterator()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return nil
    }

    /// A phrase for what is at `offset`: `end of file`, `'}'`, `'True'`, `the string "b"`,
    /// `U+0009 (tab)`, `the byte 0xFF (not valid UTF-8)`.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of file" }
        let b = bytes[offset]
        if b == quote {
            // Show the string when it closes on the same line.
            var end = offset + 1
            while end < bytes.count && end - offset < 48 {
                let c = bytes[end]
                if c == quote || c == lineFeed || c == carriageReturn || c == backslash { break }
                end += 1
            }
            if end < bytes.count && bytes[end] == quote {
                return "the string \"" + String(decoding: bytes[(offset + 1)..<end], as: UTF8.self) + "\""
            }
            return "'\"'"
        }
        if Self.isWordByte(b) { return "'" + word(at: offset) + "'" }
        guard let s = scalar(at: offset) else {
            return "the byte 0x" + String(b, radix: 16, uppercase: true) + " (not valid UTF-8)"
        }
        switch s.value {
        case 0x09: return "a tab (U+0009)"
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return (U+000D)"
        case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0xFEFF, 0x200B:
            return "the invisible character U+" + JSONValue.hex4(s.value)
        default:
            return "'" + String(Character(s)) + "'"
        }
    }

    /// A hint for a character that cannot start a value (or a key).
    func hintForUnexpected(at offset: Int) -> String? {
        guard offset < bytes.count else { return nil }
        let b = bytes[offset]
        switch b {
        case UInt8(ascii: "'"):
            return "JSON strings and keys use double quotes (\"), not single quotes"
        case UInt8(ascii: "/"):
            if offset + 1 < bytes.count
                && (bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*")) {
                return "JSON does not allow comments"
            }
            return nil
        case UInt8(ascii: "+"):
            return "JSON numbers cannot start with '+'; write the number without it"
        case UInt8(ascii: "."):
            return "JSON numbers need a digit before the decimal point: write 0.5, not .5"
        default:
            break
        }
        switch word(at: offset) {
        case "NaN", "Infinity", "+Infinity", "-Infinity", "inf", "nan":
            return "JSON has no NaN or Infinity; every number must be finite"
        case "True", "TRUE", "False", "FALSE", "Null", "NULL":
            return "JSON literals are lower-case: true, false, null"
        case "None", "nil", "undefined":
            return "JSON writes a missing value as null"
        default:
            break
        }
        if Self.isWordByte(b) && b != UInt8(ascii: "-") {
            return "text values must be in double quotes, like \"\(word(at: offset))\""
        }
        return nil
    }

    // MARK: Document

    mutating func parseDocument() throws(InputError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            pos = 3
            lineStart = 3
            cacheOffset = 3
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
                    || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0)) {
            throw error(at: SourceLocation(line: 1, column: 1),
                        "expected UTF-8 text but found UTF-16 or UTF-32 encoded text",
                        hint: "save the file as UTF-8")
        }
        skipWhitespace()
        if pos == bytes.count {
            throw error("expected a JSON value but found end of file",
                        hint: bytes.count <= 3 ? "the file is empty" : "the file holds only white space")
        }
        let value = try parseValue()
        skipWhitespace()
        if pos < bytes.count {
            throw error("expected end of file after the top-level value but found \(describe(at: pos))",
                        hint: "a JSON document holds exactly one value; check the brackets and commas before this")
        }
        return value
    }

    // MARK: Values

    /// An array or object being read: its start, and what it holds so far.
    struct Frame {
        let isObject: Bool
        let start: SourceLocation
        let open: Mark
        var elements: [JSONValue] = []
        var members: [JSONValue.Member] = []
        /// Keys to member indices, built once an object has many members.
        var index: [ExactKey: Int] = [:]
        /// The key whose value is being read.
        var key = ""
        var keyLocation = SourceLocation(line: 0, column: 0)
        /// For a streamed array: the elements handed to the stream so far (none are kept).
        var streamed: Int?

        init(isObject: Bool, start: SourceLocation, open: Mark) {
            self.isObject = isObject
            self.start = start
            self.open = open
        }
    }

    /// Parses the value at `pos`, with everything nested in it.
    ///
    /// Open arrays and objects are kept on an explicit stack rather than the call stack, so
    /// the nesting depth costs heap memory only; ``maxDepth`` is a policy limit.
    mutating func parseValue() throws(InputError) -> JSONValue {
        var stack: [Frame] = []
        var value: JSONValue
        parsing: while true {
            // 1. The start of a value: a scalar, or an array or object that is opened here.
            skipWhitespace()
            guard pos < bytes.count else {
                throw error("expected a JSON value but found end of file")
            }
            let start = here()
            let b = bytes[pos]
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                let isObject = b == UInt8(ascii: "{")
                if stack.count >= maxDepth {
                    throw error(at: start,
                                "expected at most \(maxDepth) nested arrays and objects but found deeper nesting",
                                hint: "the nesting limit protects against hostile input; no valid document needs this depth")
                }
                let open = mark
                pos += 1
                skipWhitespace()
                if pos < bytes.count && bytes[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    value = JSONValue(isObject ? .object([]) : .array([]), at: start)
                } else {
                    var frame = Frame(isObject: isObject, start: start, open: open)
                    if isObject { try readKey(into: &frame, comma: nil) }
                    if !isObject, let stream, let parent = stack.last, parent.isObject, parent.key == stream.key {
                        frame.streamed = 0
                    }
                    stack.append(frame)
                    continue parsing
                }
            } else {
                value = try parseScalar(start)
            }

            // 2. Hand the value to the innermost open container; close containers that end
            //    here and hand them on in turn, until one needs another value.
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members.append(JSONValue.Member(key: stack[top].key,
                                                               keyLocation: stack[top].keyLocation,
                                                               value: value))
                } else if let index = stack[top].streamed, let stream {
                    stream.consume(value, index, stack[top].start, { Self.path(of: stack) })
                    stack[top].streamed = index + 1
                } else {
                    stack[top].elements.append(value)
                }
                skipWhitespace()
                let isObject = stack[top].isObject
                let kind = isObject ? "object" : "array"
                guard pos < bytes.count else {
                    throw error("expected ',' or '\(isObject ? "}" : "]")' but found end of file",
                                hint: "the \(kind) opened at \(location(of: stack[top].open)) is not closed")
                }
                let c = bytes[pos]
                if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    let frame = stack.removeLast()
                    value = JSONValue(frame.isObject ? .object(frame.members) : .array(frame.elements),
                                      at: frame.start)
                    continue
                }
                if c != UInt8(ascii: ",") {
                    if isObject {
                        throw error("expected ',' or '}' after the value of \(JSONValue.quoted(stack[top].key, limit: 40)) but found \(describe(at: pos))",
                                    hint: c == quote ? "is a comma missing?" : nil)
                    }
                    throw error("expected ',' or ']' after an array element but found \(describe(at: pos))",
                                hint: c == quote || c == UInt8(ascii: "{") || c == UInt8(ascii: "[")
                                    || Self.isWordByte(c) ? "is a comma missing?" : nil)
                }
                let comma = mark
                pos += 1
                skipWhitespace()
                if isObject {
                    try readKey(into: &stack[top], comma: comma)
                } else if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") {
                    throw error(at: location(of: comma),
                                "expected another element after ',' but found ']' (a trailing comma)",
                                hint: "JSON does not allow a comma after the last element; remove it")
                }
                continue parsing
            }
            return value
        }
    }

    /// The path from the root to the value being handed to the innermost frame of `stack`.
    static func path(of stack: [Frame]) -> [JSONStream.PathComponent] {
        stack.map { $0.isObject ? .key($0.key) : .index($0.streamed ?? $0.elements.count) }
    }

    /// Reads `"key":` at `pos` into `frame`, rejecting a key the object already has.
    /// `comma` is the comma before the key, if any (for the trailing-comma message).
    mutating func readKey(into frame: inout Frame, comma: Mark?) throws(InputError) {
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == quote else {
            if let comma, pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                throw error(at: location(of: comma),
                            "expected another member after ',' but found '}' (a trailing comma)",
                            hint: "JSON does not allow a comma after the last member; remove it")
            }
            var hint = hintForUnexpected(at: pos)
            if pos < bytes.count && Self.isWordByte(bytes[pos]) {
                hint = "keys must be in double quotes, like \"\(word(at: pos))\""
            }
            if pos == bytes.count { hint = "the object opened at \(location(of: frame.open)) is not closed" }
            throw error("expected a key in double quotes but found \(describe(at: pos))", hint: hint)
        }
        let keyLocation = here()
        let key = try parseString()
        let count = frame.members.count
        if count < 12 {
            if let first = frame.members.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) {
                throw duplicate(key, at: keyLocation, first: first.keyLocation)
            }
            if count == 11 {
                for (i, m) in frame.members.enumerated() { frame.index[ExactKey(text: m.key)] = i }
                frame.index[ExactKey(text: key)] = count
            }
        } else if let i = frame.index.updateValue(count, forKey: ExactKey(text: key)) {
            throw duplicate(key, at: keyLocation, first: frame.members[i].keyLocation)
        }
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
            throw error("expected ':' after the key \(JSONValue.quoted(key, limit: 40)) but found \(describe(at: pos))")
        }
        pos += 1
        frame.key = key
        frame.keyLocation = keyLocation
    }

    /// A string, number, `true`, `false` or `null` at `pos`.
    mutating func parseScalar(_ start: SourceLocation) throws(InputError) -> JSONValue {
        switch bytes[pos] {
        case quote:
            return JSONValue(.string(try parseString()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(.number(try parseNumber(start)), at: start)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            switch word(at: pos) {
            case "true": pos += 4; return JSONValue(.bool(true), at: start)
            case "false": pos += 5; return JSONValue(.bool(false), at: start)
            case "null": pos += 4; return JSONValue(.null, at: start)
            default: break
            }
        default:
            break
        }
        throw error(at: start, "expected a JSON value but found \(describe(at: pos))",
                    hint: hintForUnexpected(at: pos))
    }

    func duplicate(_ key: String, at location: SourceLocation, first: SourceLocation) -> InputError {
        error(at: location,
              "expected each key once in an object but found \(JSONValue.quoted(key, limit: 40)) again (first at \(first))",
              hint: "remove one of the two; JSON readers disagree about which one wins")
    }

    // MARK: Numbers

    func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
    }

    mutating func skipDigits() {
        while isDigit(pos) { pos += 1 }
    }

    mutating func parseNumber(_ start: SourceLocation) throws(InputError) -> JSONValue.Number {
        let startOffset = pos
        if bytes[pos] == UInt8(ascii: "-") {
            pos += 1
            guard isDigit(pos) else {
                throw error(at: start, "expected a digit after '-' but found \(describe(at: pos))",
                            hint: hintForUnexpected(at: startOffset))
            }
        }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if isDigit(pos) {
                skipDigits()
                let text = String(decoding: bytes[startOffset..<pos], as: UTF8.self)
                throw error(at: start, "expected a number without leading zeros but found '\(text)'",
                            hint: "JSON numbers cannot start with 0 unless they are 0 or 0.something")
            }
        } else {
            skipDigits()
        }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard isDigit(pos) else {
                throw error("expected a digit after the decimal point but found \(describe(at: pos))",
                            hint: "write 1.0 or 1, not 1.")
            }
            skipDigits()
        }
        if pos < bytes.count && (bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")) {
            pos += 1
            if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) {
                pos += 1
            }
            guard isDigit(pos) else {
                throw error("expected a digit in the exponent but found \(describe(at: pos))")
            }
            skipDigits()
        }
        let literal = String(decoding: bytes[startOffset..<pos], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw error(at: start,
                        "expected a number that fits a 64-bit float but found \(literal), which overflows to infinity",
                        hint: "the largest finite number is about 1.8e308")
        }
        return JSONValue.Number(literal: literal, value: value)
    }

    // MARK: Strings

    /// The length of the valid UTF-8 sequence at `offset` (1...4), or nil.
    static func validUTF8Length(_ bytes: [UInt8], at offset: Int) -> Int? {
        let b0 = bytes[offset]
        if b0 < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // range of the second byte
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        let b1 = bytes[offset + 1]
        guard b1 >= low && b1 <= high else { return nil }
        for i in 2..<max(2, length) where bytes[offset + i] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// Parses the string whose opening quote is at `pos`.
    mutating func parseString() throws(InputError) -> String {
        let open = mark
        pos += 1
        var decoded: [UInt8]? = nil  // only used once an escape is seen
        var runStart = pos
        let count = bytes.count
        while true {
            guard pos < count else {
                throw error(at: location(of: open),
                            "expected '\"' to close this string but found end of file",
                            hint: "the string is not terminated")
            }
            let b = bytes[pos]
            if b == quote {
                let text: String
                if var d = decoded {
                    d.append(contentsOf: bytes[runStart..<pos])
                    text = String(decoding: d, as: UTF8.self)
                } else {
                    text = String(decoding: bytes[runStart..<pos], as: UTF8.self)
                }
                pos += 1
                return text
            }
            if b == backslash {
                if decoded == nil { decoded = [] }
                decoded!.append(contentsOf: bytes[runStart..<pos])
                try parseEscape(into: &decoded!, open: open)
                runStart = pos
                continue
            }
            if b < 0x20 {
                if b == lineFeed || b == carriageReturn {
                    throw error(at: location(of: open),
                                "expected '\"' to close this string but found the end of the line",
                                hint: "the string is not terminated; a line break inside a string must be written \\n")
                }
                throw error("expected a character in the string but found the control character U+\(JSONValue.hex4(UInt32(b)))",
                            hint: b == 0x09 ? "write a tab inside a string as \\t" : "write it as \\u\(JSONValue.hex4(UInt32(b)))")
            }
            if b < 0x80 {
                pos += 1
                continue
            }
            guard let length = Self.validUTF8Length(bytes, at: pos) else {
                throw error("expected UTF-8 text in the string but found \(describe(at: pos))",
                            hint: "save the file as UTF-8")
            }
            pos += length
        }
    }

    mutating func parseEscape(into out: inout [UInt8], open: Mark) throws(InputError) {
        let escape = here()
        pos += 1  // the backslash
        guard pos < bytes.count else {
            throw error(at: location(of: open), "expected '\"' to close this string but found end of file",
                        hint: "the string is not terminated")
        }
        let c = bytes[pos]
        pos += 1
        switch c {
        case quote, backslash, UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let first = try hex4()
            var value = UInt32(first)
            if (0xDC00...0xDFFF).contains(first) {
                throw error(at: escape,
                            "expected a high surrogate (\\uD800-\\uDBFF) before the low surrogate \\u\(JSONValue.hex4(value)) but found none",
                            hint: "a character outside the Basic Multilingual Plane is written as a pair, like \\uD83D\\uDD8C")
            }
            if (0xD800...0xDBFF).contains(first) {
                let second: UInt16?
                if pos + 1 < bytes.count && bytes[pos] == backslash && bytes[pos + 1] == UInt8(ascii: "u") {
                    pos += 2
                    second = try hex4()
                } else {
                    second = nil
                }
                guard let second, (0xDC00...0xDFFF).contains(second) else {
                    throw error(at: escape,
                                "expected a low surrogate (\\uDC00-\\uDFFF) after the high surrogate \\u\(JSONValue.hex4(value)) but found none",
                                hint: "a character outside the Basic Multilingual Plane is written as a pair, like \\uD83D\\uDD8C")
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            }
            let scalar = Unicode.Scalar(value)!  // surrogates were excluded above
            UTF8.encode(scalar) { out.append($0) }
        default:
            pos -= 1
            throw error(at: escape, "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after '\\' but found \(describe(at: pos))",
                        hint: "to write a backslash, write \\\\ (in file paths, '/' also works)")
        }
    }

    /// Four hex digits at `pos`.
    mutating func hex4() throws(InputError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard pos < bytes.count, let digit = Self.hexValue(bytes[pos]) else {
                throw error("expected 4 hex digits after \\u but found \(describe(at: pos))")
            }
            value = value << 4 | UInt16(digit)
            pos += 1
        }
        return value
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
