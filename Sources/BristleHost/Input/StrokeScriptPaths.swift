import Foundation

/// How paths in a stroke script become absolute: lexically, without touching the disk.
enum StrokeScriptPaths {
    /// `path` made absolute against the current directory, with `.`, `..` and repeated
    /// slashes removed. `~` is not expanded.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        return normalize(FileManager.default.currentDirectoryPath + "/" + path)
    }

    /// The absolute folder that holds `file` (the current directory when `file` is empty).
    static func directory(of file: String) -> String {
        let full = absolute(file.isEmpty ? "." : file)
        if file.isEmpty { return full }
        guard let slash = full.lastIndex(of: "/"), slash != full.startIndex else { return "/" }
        return String(full[..<slash])
    }

    /// `path` resolved against the absolute folder `base` (absolute paths are kept).
    static func resolve(_ path: String, against base: String) -> String {
        path.hasPrefix("/") ? normalize(path) : normalize(base + "/" + path)
    }

    /// Removes `.`, `..` and empty components of an absolute path (`..` at the root stays
    /// at the root, as in the kernel).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
