import Glibc

/// C strings that live as long as the library: descriptors and parameter infos point at them,
/// and the ABI lets the host read them until the process ends, so they are never freed.
enum CStrings {
    /// A copy of `text` as a NUL-terminated C string (an empty string if the copy fails).
    static func permanent(_ text: String) -> UnsafePointer<CChar> {
        if let copy = strdup(text) { return UnsafePointer(copy) }
        return UnsafePointer(empty)
    }

    /// A NULL-terminated array of permanent C strings.
    static func permanentList(_ texts: [String]) -> UnsafePointer<UnsafePointer<CChar>?> {
        let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: texts.count + 1)
        for (i, text) in texts.enumerated() { (list + i).initialize(to: permanent(text)) }
        (list + texts.count).initialize(to: nil)
        return UnsafePointer(list)
    }

    /// True when the C string `c` is exactly `text`.
    static func equal(_ c: UnsafePointer<CChar>?, _ text: String) -> Bool {
        guard let c else { return false }
        return text.withCString { strcmp(c, $0) == 0 }
    }

    /// The one empty string used when a copy fails.
    nonisolated(unsafe) private static let empty: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()
}
