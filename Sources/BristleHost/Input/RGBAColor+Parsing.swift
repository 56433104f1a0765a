extension RGBAColor {
    /// Every colour name ``init(parsing:)`` accepts, lower case and sorted: the 148 CSS Color 4
    /// named colours plus `transparent` (149 names).
    public static var cssColorNames: [String] { CSSNamedColors.allNames }

    /// Parses a colour as a person writes it in CSS.
    ///
    /// Accepted, with no surrounding white space:
    /// - `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` in hex digits of either case;
    /// - a CSS Color 4 colour name in any letter case (`red`, `RebeccaPurple`, `transparent`);
    /// - `rgb(...)` / `rgba(...)` (either name, either case, alpha optional in both) with
    ///   three components separated by commas (`rgb(26, 77, 204)`, `rgba(26, 77, 204, 0.5)`)
    ///   or by spaces with an optional `/ alpha` (`rgb(26 77 204 / 50%)`). A component is a
    ///   number in [0, 255] or a percentage in [0%, 100%]; alpha is a number in [0, 1] or a
    ///   percentage. Numbers are plain decimals (`12`, `12.5`, `.5`): no sign, no exponent.
    ///   Unlike CSS, out-of-range components are errors, not clamped, and numbers and
    ///   percentages may be mixed in the comma form too.
    public init(parsing text: String) throws(ColorParseError) {
        if text.hasPrefix("#") {
            self = try ColorTextParser.hex(text)
            return
        }
        let lowered = String(text.unicodeScalars.map { scalar -> Character in
            (scalar.value >= 0x41 && scalar.value <= 0x5A) ? Character(Unicode.Scalar(scalar.value + 32)!) : Character(scalar)
        })
        if lowered.hasPrefix("rgb(") || lowered.hasPrefix("rgba(") {
            self = try ColorTextParser.functional(text)
            return
        }
        if let color = CSSNamedColors.byName[lowered] {
            self = color
            return
        }
        if text.isEmpty {
            throw ColorParseError(input: text, reason: "expected a colour but found an empty string")
        }
        let suggestion = InputSpelling.suggestion(for: lowered, among: CSSNamedColors.allNames)
        throw ColorParseError(input: text,
                              reason: "expected a colour but found \(JSONValue.quoted(text, limit: 40)), which is not a colour name",
                              suggestion: suggestion)
    }
}

/// The parsers behind ``RGBAColor/init(parsing:)``.
private enum ColorTextParser {
    static func hex(_ text: String) throws(ColorParseError) -> RGBAColor {
        let digits = Array(text.unicodeScalars.dropFirst())
        var values: [UInt8] = []
        for scalar in digits {
            guard let v = hexValue(scalar) else {
                throw ColorParseError(input: text,
                                      reason: "expected hex digits (0-9, a-f) after '#' but found '\(Character(scalar))'")
            }
            values.append(v)
        }
        switch values.count {
        case 3, 4:
            let c = values.map { $0 * 17 }
            return RGBAColor(red8: c[0], green8: c[1], blue8: c[2], alpha8: c.count == 4 ? c[3] : 255)
        case 6, 8:
            let c = stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] }
            return RGBAColor(red8: c[0], green8: c[1], blue8: c[2], alpha8: c.count == 4 ? c[3] : 255)
        default:
            throw ColorParseError(input: text,
                                  reason: "expected 3, 4, 6 or 8 hex digits after '#' but found \(values.count)")
        }
    }

    static func hexValue(_ s: Unicode.Scalar) -> UInt8? {
        switch s {
        case "0"..."9": return UInt8(s.value - 48)
        case "a"..."f": return UInt8(s.value - 97 + 10)
        case "A"..."F": return UInt8(s.value - 65 + 10)
        default: return nil
        }
    }

    /// `rgb(`/`rgba(` followed by the comma or the space form and `)`.
    static func functional(_ text: String) throws(ColorParseError) -> RGBAColor {
        var s = Array(text.unicodeScalars)[...]
        func fail(_ reason: String) -> ColorParseError { ColorParseError(input: text, reason: reason) }
        func found() -> String {
            guard let c = s.first else { return "the end of the text" }
            return "'\(Character(c))'"
        }
        func skipSpaces() -> Bool {
            var skipped = false
            while let c = s.first, c == " " || c == "\t" { s.removeFirst(); skipped = true }
            return skipped
        }
        /// A number (`12`, `12.5`, `.5`) with an optional `%`.
        func component(_ name: String, max: Double, isAlpha: Bool = false) throws(ColorParseError) -> Float {
            var literal = ""
            while let c = s.first, ("0"..."9").contains(c) { literal.unicodeScalars.append(c); s.removeFirst() }
            if let c = s.first, c == "." {
                literal += "."
                s.removeFirst()
                var fraction = 0
                while let c = s.first, ("0"..."9").contains(c) {
                    literal.unicodeScalars.append(c); s.removeFirst(); fraction += 1
                }
                if fraction == 0 { throw fail("expected a digit after the decimal point in the \(name) but found \(found())") }
            }
            guard !literal.isEmpty, let value = Double(literal.hasPrefix(".") ? "0" + literal : literal) else {
                throw fail("expected a number or a percentage for the \(name) but found \(found())")
            }
            if let c = s.first, c == "%" {
                s.removeFirst()
                guard value <= 100 else { throw fail("expected the \(name) in [0%, 100%] but found \(literal)%") }
                return Float(value) / 100
            }
            guard value <= max else {
                throw fail("expected the \(name) in [0, \(isAlpha ? "1" : "255")] (or a percentage) but found \(literal)")
            }
            return isAlpha ? Float(value) : Float(value) / 255
        }
        // The function name.
        while let c = s.first, c != "(" { s.removeFirst() }
        s.removeFirst()
        _ = skipSpaces()
        let red = try component("red component", max: 255)
        var alpha: Float = 1
        let green: Float, blue: Float
        let spaced = skipSpaces()
        if let c = s.first, c == "," {
            s.removeFirst(); _ = skipSpaces()
            green = try component("green component", max: 255)
            _ = skipSpaces()
            guard let c2 = s.first, c2 == "," else { throw fail("expected ',' after the green component but found \(found())") }
            s.removeFirst(); _ = skipSpaces()
            blue = try component("blue component", max: 255)
            _ = skipSpaces()
            if let c3 = s.first, c3 == "," {
                s.removeFirst(); _ = skipSpaces()
                alpha = try component("alpha", max: 1, isAlpha: true)
                _ = skipSpaces()
            }
        } else {
            guard spaced else { throw fail("expected ',' or a space after the red component but found \(found())") }
            green = try component("green component", max: 255)
            guard skipSpaces() else { throw fail("expected a space after the green component but found \(found())") }
            blue = try component("blue component", max: 255)
            _ = skipSpaces()
            if let c3 = s.first, c3 == "/" {
                s.removeFirst(); _ = skipSpaces()
                alpha = try component("alpha", max: 1, isAlpha: true)
                _ = skipSpaces()
            }
        }
        guard let close = s.first, close == ")" else { throw fail("expected ')' but found \(found())") }
        s.removeFirst()
        guard s.isEmpty else { throw fail("expected nothing after ')' but found \(found())") }
        return RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
    }
}
