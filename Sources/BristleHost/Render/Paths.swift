import Glibc

/// Path helpers for user-given file names.
public enum Paths {
    /// `path` made absolute against the current directory (no symlink resolution).
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return cwd == "/" ? "/" + path : cwd + "/" + path
    }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// True when `path` is an existing directory.
    /// Creates the folder `path` and any missing parents (`mkdir -p`, mode 0755); true when it
    /// exists as a folder afterwards.
    @discardableResult
    public static func makeDirectories(_ path: String) -> Bool {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return false }
            prefix += "/"
        }
        return isDirectory(path)
    }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when a brush argument names a plugin file rather than a brush id: it contains a
    /// `/`, ends in `.so`, or is an existing file.
    public static func namesAFile(_ text: String) -> Bool {
        text.contains("/") || text.hasSuffix(".so") || exists(text)
    }

    /// The names of the visible (not dot-prefixed) entries of `directory`, sorted; nil when the
    /// directory cannot be read.
    public static func visibleEntries(of directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}
