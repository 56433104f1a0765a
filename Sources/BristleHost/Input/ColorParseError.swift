/// Why a string is not a colour (see ``RGBAColor/init(parsing:)``).
public struct ColorParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The text that was given.
    public var input: String
    /// What is wrong with it, e.g. `expected 3, 4, 6 or 8 hex digits after '#' but found 5`.
    public var reason: String
    /// The closest colour name when the input looks like a misspelt name.
    public var suggestion: String?

    /// The forms ``RGBAColor/init(parsing:)`` accepts, for messages.
    public static let acceptedForms =
        "#rgb, #rgba, #rrggbb, #rrggbbaa, a CSS colour name (like red, rebeccapurple or transparent), "
        + "rgb(r g b) or rgb(r g b / a), rgb(r, g, b) or rgba(r, g, b, a)"

    public init(input: String, reason: String, suggestion: String? = nil) {
        self.input = input
        self.reason = reason
        self.suggestion = suggestion
    }

    /// `"#12345" is not a colour: ...; accepted: ...`, ending with `did you mean "..."?` when
    /// there is a suggestion.
    public var description: String {
        var text = "\(JSONValue.quoted(input, limit: 40)) is not a colour: \(reason); accepted: \(Self.acceptedForms)"
        if let suggestion { text += "; did you mean \"\(suggestion)\"?" }
        return text
    }
}
