/// A JSON value read by ``JSONParser``, with the location of its first character.
///
/// Objects keep their members in file order (duplicate keys are rejected by the parser, so a
/// key names at most one member). Numbers keep the literal as written, for messages and for
/// deciding whether a number is a whole number.
public struct JSONValue: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case null
        case bool(Bool)
        case number(Number)
        case string(String)
        case array([JSONValue])
        case object([Member])
    }

    /// A JSON number: the literal as written and its nearest `Double` (always finite).
    public struct Number: Equatable, Sendable {
        public var literal: String
        public var value: Double

        public init(literal: String, value: Double) {
            self.literal = literal
            self.value = value
        }
    }

    /// One `"key": value` member of an object.
    public struct Member: Equatable, Sendable {
        public var key: String
        /// Where the key's opening quote is.
        public var keyLocation: SourceLocation
        public var value: JSONValue

        public init(key: String, keyLocation: SourceLocation, value: JSONValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public var kind: Kind
    /// Where the value starts: its first character (`{`, `[`, `"`, a digit, `-`, `t`, ...).
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The member named `key` when this is an object. Keys compare by Unicode scalars.
    public func member(_ key: String) -> Member? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }
    }

    /// The value of the member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? { member(key)?.value }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The number, when this is a number.
    public var doubleValue: Double? {
        if case .number(let n) = kind { return n.value }
        return nil
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    /// The members in file order, when this is an object.
    public var objectValue: [Member]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    /// `"an object"`, `"an array"`, `"a string"`, `"a number"`, `"a Boolean"` or `"null"`.
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A short phrase naming this value for a message: `the string "pen"`, `the number 1.5`,
    /// `true`, `null`, `an array`, `an object`. Long strings are shortened.
    public var briefDescription: String {
        switch kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return "the number \(n.literal)"
        case .string(let s): return "the string \(JSONValue.quoted(s, limit: 40))"
        case .array(let a): return a.isEmpty ? "an empty array" : "an array"
        case .object(let m): return m.isEmpty ? "an empty object" : "an object"
        }
    }

    /// `s` as a JSON string literal, shortened with `…` past `limit` scalars (by default never).
    public static func quoted(_ s: String, limit: Int = .max) -> String {
        var out = "\""
        var count = 0
        for scalar in s.unicodeScalars {
            if count == limit { out += "…"; break }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + JSONValue.hex4(scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `value` as at least four upper-case hex digits.
    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
    }
}

