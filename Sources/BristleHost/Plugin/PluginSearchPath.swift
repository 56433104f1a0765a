import Glibc

/// Where plugins are looked for, in order (bristle.h, "WHERE THE HOST LOOKS FOR PLUGINS"):
/// each directory of `BRISTLE_PATH`; the running executable's directory and
/// `../lib/bristle/plugins` beside it; `~/.local/lib/bristle/plugins`,
/// `/usr/local/lib/bristle/plugins`, `/usr/lib/bristle/plugins`.
public enum PluginSearchPath {
    /// The directories for this process, without duplicates, in search order.
    public static func directories(
        environment: [String: String] = currentEnvironment(),
        executableDirectory: String? = PluginSearchPath.executableDirectory()
    ) -> [String] {
        var list: [String] = []
        if let path = environment["BRISTLE_PATH"] {
            list += path.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        }
        if let exe = executableDirectory {
            list.append(exe)
            list.append(normalized(exe + "/../lib/bristle/plugins"))
        }
        if let home = environment["HOME"], !home.isEmpty {
            list.append(home + "/.local/lib/bristle/plugins")
        }
        list += ["/usr/local/lib/bristle/plugins", "/usr/lib/bristle/plugins"]
        var seen: Set<String> = []
        return list.filter { seen.insert($0).inserted }
    }

    /// The directory holding the running executable (`/proc/self/exe`).
    public static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        return String(exe[..<slash])
    }

    /// The process environment as a dictionary.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }

    /// Removes `dir/..` pairs textually (the directory may not exist).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." , let last = parts.last, last != ".." { parts.removeLast() }
            else if part != "." { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// The `.so` files directly inside `directory`, sorted by name; hidden files are skipped.
    /// A missing or unreadable directory has no plugins.
    public static func pluginFiles(in directory: String) -> [String] {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return (Paths.visibleEntries(of: directory) ?? []).filter { $0.hasSuffix(".so") }.map { base + $0 }
    }
}
