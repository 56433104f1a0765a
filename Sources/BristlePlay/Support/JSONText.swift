import BristleHost

/// Writes JSON values as text, exactly: strings escaped per RFC 8259, numbers in the
/// shortest form that reads back as the same `Double`, so a recording replays the very values
/// the live session used.
enum JSONText {
    /// A JSON string literal.
    static func string(_ s: String) -> String { JSONValue.quoted(s) }

    /// A finite number; whole numbers below 2^53 without a fraction (`6`, not `6.0`).
    static func number(_ v: Double) -> String {
        precondition(v.isFinite, "JSON has no \(v)")
        if v == v.rounded(), abs(v) < 9_007_199_254_740_992 { return String(Int64(v)) }
        return String(v)
    }

    /// An object from members already written as JSON, in order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
