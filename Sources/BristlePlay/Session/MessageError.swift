/// A message from the page that the server cannot use; `#bristle-status` shows it.
struct MessageError: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
