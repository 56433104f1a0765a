/// Reading plugin-owned C strings safely for messages and checks.
enum CStrings {
    /// The string as UTF-8 text; nil for NULL or invalid UTF-8.
    static func text(_ p: UnsafePointer<CChar>?) -> String? {
        guard let p else { return nil }
        return String(validatingCString: p)
    }
}
