import Glibc

/// Keeps a render from writing over a file it reads: the input itself (under any name:
/// `sub/../in.json`, a symbolic link, a hard link), the background image, a brush plugin, or
/// any other file the caller protects (a batch protects every input).
///
/// Files are compared by device and inode, so every name of a file is the same file. An
/// output that does not exist yet cannot be an input.
public enum OutputGuard {
    /// The files a render of `script` reads with `options`, as paths.
    public static func inputs(of script: StrokeScript, options: RenderOptions) -> [String] {
        var paths = [script.sourcePath] + options.protectedPaths
        if case .image(let path) = options.background ?? script.canvas.background { paths.append(path) }
        if let brush = options.brush, Paths.namesAFile(brush) { paths.append(brush) }
        for action in script.actions {
            if case .brush(let spec) = action.kind, let path = spec.path { paths.append(path) }
        }
        return paths
    }

    /// Throws ``RenderError/outputIsAnInput(output:input:)`` when `output` is one of `inputs`.
    public static func check(_ output: String, against inputs: [String]) throws(RenderError) {
        guard let target = identity(output) else { return }
        for input in inputs where identity(input) == target {
            throw .outputIsAnInput(output: output, input: input)
        }
    }

    /// The device and inode of the file `path` names (links followed), or nil.
    private static func identity(_ path: String) -> [UInt64]? {
        var st = stat()
        guard !path.isEmpty, stat(path, &st) == 0 else { return nil }
        return [UInt64(st.st_dev), UInt64(st.st_ino)]
    }
}
