import Glibc

/// What `bristle play` reads from its environment.
enum PlayEnvironment {
    /// `TMPDIR` when set and not empty, else /tmp.
    static var temporaryDirectory: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 {
            let s = String(cString: t)
            return s.count > 1 && s.hasSuffix("/") ? String(s.dropLast()) : s
        }
        return "/tmp"
    }
}
