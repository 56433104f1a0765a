/// A position in a text file: 1-based line and 1-based column.
///
/// The column counts **Unicode scalar values** (code points) from the start of the line, so
/// `"é"` or `"🖌"` each advance it by one and a tab counts as one column, whatever its width
/// on screen. Lines end at LF, CR LF or a lone CR. A UTF-8 byte-order mark at the start of a
/// file is not counted.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
