/// Decodes the text of an InkML `<trace>` into points of channel values (W3C InkML 3.2.3).
///
/// - Points are separated by commas; the values of a point by white space, or by nothing at
///   all when the next value starts with a sign or a difference mark (`3-584` is 3 and -584,
///   `'-93'37` is -93 and 37, `1.5.5` is 1.5 and .5). Points may wrap over lines.
/// - A value may carry a difference mark: `!` explicit, `'` first difference
///   (`v = previous + d`), `"` second difference (`velocity += d; v = previous + velocity`,
///   where the velocity is the channel's last first difference). A value without a mark keeps
///   the mode of the previous value of the same channel; every channel starts explicit, so the
///   first point is absolute.
/// - `T` and `F` are the booleans 1 and 0, `*` repeats the channel's previous value, `?` is a
///   value that is not known (`nil`). Numbers are decimals with an optional exponent, or `#`
///   and hexadecimal digits.
struct InkMLTraceDecoder {
    /// A point: one value per channel (`nil` for `?` and for an absent intermittent channel),
    /// and where its first value is.
    struct Point {
        var values: [Double?]
        var location: SourceLocation
    }

    /// Where a run of the text starts in the file: the scalar index and its location.
    struct ChunkStart {
        var index: Int
        var location: SourceLocation
    }

    private enum Mode { case explicit, first, second }

    private enum Token {
        case number(Double)
        case boolean(Bool)
        case inferred
        case unknown
    }

    private struct ChannelState {
        var mode = Mode.explicit
        var previous: Double?
        var velocity = 0.0
    }

    let file: String
    /// The channel names in value order: the regular channels, then the intermittent ones.
    let channelNames: [String]
    /// How many leading channels are regular (every point must give them).
    let regularCount: Int
    /// Said when a point has too many values and the trace uses the default format (X Y).
    var defaultFormatHint: String? = nil

    private var text: [Unicode.Scalar] = []
    private var chunks: [ChunkStart] = []
    private var position = 0
    private var nextChunk = 0
    private var line = 1
    private var column = 1

    init(file: String, channelNames: [String], regularCount: Int) {
        self.file = file
        self.channelNames = channelNames
        self.regularCount = regularCount
    }

    /// The points of `text`; `chunks` (sorted by index, the first at index 0) say where runs of
    /// the text are in the file, so that errors and points are located.
    mutating func decode(_ text: [Unicode.Scalar], chunks: [ChunkStart]) throws(InputError) -> [Point] {
        self.text = text
        self.chunks = chunks
        position = 0
        nextChunk = 0
        line = 1
        column = 1
        syncChunk()

        var states = [ChannelState](repeating: ChannelState(), count: channelNames.count)
        var points: [Point] = []
        var values: [Double?] = []
        var pointStart: SourceLocation? = nil

        func finishPoint(at location: SourceLocation) throws(InputError) {
            guard let start = pointStart else {
                throw InputError(file: file, location: location,
                                 message: "expected a point (\(expectedValues)) before ',' in the trace, found none",
                                 hint: "points are separated by single commas; remove the extra comma")
            }
            if values.count < regularCount {
                throw InputError(file: file, location: start,
                                 message: "expected \(expectedValues) in point \(points.count + 1) of the trace, found \(values.count) value\(values.count == 1 ? "" : "s")",
                                 hint: "the trace format has the channels \(channelNames.joined(separator: " ")); separate points with commas")
            }
            while values.count < channelNames.count { values.append(nil) }
            points.append(Point(values: values, location: start))
            values = []
            pointStart = nil
        }

        while true {
            skipWhitespace()
            guard position < text.count else { break }
            let c = text[position]
            if c == "," {
                let comma = here
                try finishPoint(at: comma)
                advance()
                skipWhitespace()
                if position >= text.count {
                    throw InputError(file: file, location: comma,
                                     message: "expected a point after the last ',' of the trace, found the end of the trace",
                                     hint: "remove the comma after the last point")
                }
                continue
            }
            let start = here
            if values.count >= channelNames.count {
                throw InputError(file: file, location: start,
                                 message: "expected at most \(channelNames.count) value\(channelNames.count == 1 ? "" : "s") (\(channelNames.joined(separator: " "))) in point \(points.count + 1) of the trace, found another value",
                                 hint: defaultFormatHint ?? "separate points with commas")
            }
            var mode: Mode? = nil
            switch c {
            case "!": mode = .explicit
            case "'": mode = .first
            case "\"": mode = .second
            default: break
            }
            if mode != nil {
                advance()
                skipWhitespace()
            }
            let token = try readToken(afterMark: mode != nil)
            if pointStart == nil { pointStart = start }
            let channel = values.count
            var state = states[channel]
            if let mode { state.mode = mode }
            var value: Double?
            switch token {
            case .number(let d):
                switch state.mode {
                case .explicit: value = d
                case .first: value = (state.previous ?? 0) + d
                case .second:
                    value = (state.previous ?? 0) + state.velocity + d
                }
            case .boolean(let b): value = b ? 1 : 0
            case .inferred: value = state.previous
            case .unknown: value = nil
            }
            if let v = value {
                guard v.isFinite else {
                    throw InputError(file: file, location: start,
                                     message: "expected a finite value for channel \(channelNames[channel]), found one that overflows")
                }
                state.velocity = state.previous.map { v - $0 } ?? 0
                state.previous = v
            }
            states[channel] = state
            values.append(value)
        }
        if pointStart != nil { try finishPoint(at: here) }
        return points
    }

    private var expectedValues: String {
        let regular = channelNames.prefix(regularCount).joined(separator: " ")
        let count = regularCount == channelNames.count ? "\(regularCount)" : "\(regularCount) to \(channelNames.count)"
        return "\(count) value\(channelNames.count == 1 ? "" : "s") (\(regular)\(regularCount < channelNames.count ? " and optionally " + channelNames.dropFirst(regularCount).joined(separator: " ") : ""))"
    }

    // MARK: Scanning

    private var here: SourceLocation { SourceLocation(line: line, column: column) }

    private mutating func syncChunk() {
        while nextChunk < chunks.count && chunks[nextChunk].index <= position {
            if chunks[nextChunk].index == position {
                line = chunks[nextChunk].location.line
                column = chunks[nextChunk].location.column
            }
            nextChunk += 1
        }
    }

    private mutating func advance() {
        if text[position] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        position += 1
        syncChunk()
    }

    private mutating func skipWhitespace() {
        while position < text.count {
            switch text[position] {
            case " ", "\t", "\n", "\r": advance()
            default: return
            }
        }
    }

    private func isDigit(_ i: Int) -> Bool {
        i < text.count && text[i].value >= 0x30 && text[i].value <= 0x39
    }

    private func isHexDigit(_ i: Int) -> Bool {
        guard i < text.count else { return false }
        let v = text[i].value
        return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x46) || (v >= 0x61 && v <= 0x66)
    }

    /// A description of what is at `position`, for messages.
    private var found: String {
        guard position < text.count else { return "the end of the trace" }
        let c = text[position]
        if c.value < 0x20 || c.value == 0x7F { return "the control character U+\(String(c.value, radix: 16, uppercase: true))" }
        return "'\(Character(c))'"
    }

    private mutating func readToken(afterMark: Bool) throws(InputError) -> Token {
        guard position < text.count else {
            throw InputError(file: file, location: here,
                             message: "expected a number after the difference mark, found the end of the trace")
        }
        switch text[position] {
        case "T": advance(); return .boolean(true)
        case "F": advance(); return .boolean(false)
        case "*": advance(); return .inferred
        case "?": advance(); return .unknown
        default: break
        }
        let start = here
        var negative = false
        if text[position] == "-" || text[position] == "+" {
            negative = text[position] == "-"
            advance()
            skipWhitespace()
        }
        if position < text.count && text[position] == "#" {
            advance()
            guard isHexDigit(position) else {
                throw InputError(file: file, location: here,
                                 message: "expected hexadecimal digits after '#' in the trace, found \(found)")
            }
            var digits = ""
            while isHexDigit(position) { digits.unicodeScalars.append(text[position]); advance() }
            guard let v = UInt64(digits, radix: 16) else {
                throw InputError(file: file, location: start,
                                 message: "expected a hexadecimal number that fits 64 bits in the trace, found #\(digits)")
            }
            return .number(negative ? -Double(v) : Double(v))
        }
        var literal = ""
        var digitCount = 0
        while isDigit(position) { literal.unicodeScalars.append(text[position]); advance(); digitCount += 1 }
        if position < text.count && text[position] == "." && (digitCount > 0 || isDigit(position + 1)) {
            literal += "."
            advance()
            while isDigit(position) { literal.unicodeScalars.append(text[position]); advance(); digitCount += 1 }
            if literal.hasSuffix(".") { literal += "0" }
        }
        guard digitCount > 0 else {
            let what = afterMark || negative ? "a number" : "a number, a difference mark (! ' \") or ','"
            throw InputError(file: file, location: here,
                             message: "expected \(what) in the trace, found \(found)",
                             hint: "trace values are numbers like 12, -3.5, 1e3 or #1F, optionally marked ! ' or \"; the other values are T, F, * and ?")
        }
        if position < text.count, text[position] == "e" || text[position] == "E" {
            var lookahead = position + 1
            if lookahead < text.count && (text[lookahead] == "-" || text[lookahead] == "+") { lookahead += 1 }
            if isDigit(lookahead) {
                literal += "e"
                advance()
                if text[position] == "-" || text[position] == "+" { literal.unicodeScalars.append(text[position]); advance() }
                while isDigit(position) { literal.unicodeScalars.append(text[position]); advance() }
            }
        }
        if literal.hasPrefix(".") { literal = "0" + literal }
        guard let v = Double(literal), v.isFinite else {
            throw InputError(file: file, location: start,
                             message: "expected a number that fits a 64-bit float in the trace, found \(literal)")
        }
        return .number(negative ? -v : v)
    }
}
