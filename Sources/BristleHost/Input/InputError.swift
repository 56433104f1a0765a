/// An error in a file a person wrote, located where it can be fixed.
///
/// ``description`` has the `file:line:column: message` shape that editors and terminals turn
/// into a link, followed by a `hint:` line when there is a hint:
///
/// ```text
/// demo.json:7:42: actions[1].stroke.events[0].pressure: expected a number in [0, 1], found 1.5
/// hint: pressure is normalised: 0 is no pressure, 1 is the most the hardware reports
/// ```
///
/// `line` and `column` are `nil` when the error concerns the whole file (it cannot be read).
public struct InputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file, as the caller named it.
    public var file: String
    /// 1-based line, or `nil` when the error is not about a place in the file.
    public var line: Int?
    /// 1-based column in Unicode scalars (see ``SourceLocation``), or `nil`.
    public var column: Int?
    /// What was expected and what was found.
    public var message: String
    /// How to fix it, when there is something useful to say.
    public var hint: String?

    public init(file: String, line: Int?, column: Int?, message: String, hint: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// An error at `location` (or about the whole file when `location` is `nil`).
    public init(file: String, location: SourceLocation?, message: String, hint: String? = nil) {
        self.init(file: file, line: location?.line, column: location?.column,
                  message: message, hint: hint)
    }

    /// The location, when both line and column are known.
    public var location: SourceLocation? {
        guard let line, let column else { return nil }
        return SourceLocation(line: line, column: column)
    }

    /// `file:line:column: message`, then `hint: ...` on a second line when there is a hint.
    public var description: String {
        headline + (hint.map { "\nhint: " + $0 } ?? "")
    }

    /// `file:line:column: message` alone, for reporters that print the hint their own way.
    public var headline: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text + ": " + message
    }
}
