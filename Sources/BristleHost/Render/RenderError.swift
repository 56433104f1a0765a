/// Why a render failed, grouped by what the user has to fix. ``exitStatus`` follows
/// sysexits(3), as the CLI documents (docs/CLI.md).
public enum RenderError: Error, Sendable, CustomStringConvertible {
    /// The input file does not exist.
    case inputNotFound(path: String)
    /// The input file is malformed (located).
    case input(InputError)
    /// A plugin file could not be used.
    case plugin(PluginLoadError)
    /// A brush could not be found, created or configured, or a hook failed.
    case brush(BrushError)
    /// A brush error caused by what the script says, at `file:line:column` (an unknown brush
    /// id, a parameter the brush does not have, a value that does not fit).
    case brushInScript(BrushError, file: String, line: Int, column: Int)
    /// The session refused a request.
    case session(SessionError)
    /// Reading the background image or writing the output failed.
    case png(PNGError, writing: Bool)

    public var description: String {
        switch self {
        case .inputNotFound(let path): return "\(path): no such input file"
        case .input(let e): return e.headline
        case .plugin(let e): return e.description
        case .brush(let e): return e.description
        case .brushInScript(let e, let file, let line, let column): return "\(file):\(line):\(column): \(e.description)"
        case .session(let e): return e.description
        case .png(let e, _): return e.description
        }
    }

    /// One sentence on what to do, when there is something useful to say.
    public var hint: String? {
        switch self {
        case .inputNotFound: return "check the path; relative paths start from the current directory"
        case .input(let e): return e.hint
        case .plugin(let e): return e.hint
        case .brush(let e), .brushInScript(let e, _, _, _): return e.hint
        case .session(.brushFailed(let e)): return e.hint
        case .session: return nil
        case .png(_, let writing):
            return writing ? "check that the output folder exists and is writable" : nil
        }
    }

    /// The process exit status for this error (sysexits.h).
    public var exitStatus: Int32 {
        switch self {
        case .inputNotFound: return 66                     // EX_NOINPUT
        case .input: return 65               // EX_DATAERR
        case .plugin(let e): return e.isNotFound ? 66 : 69 // EX_NOINPUT / EX_UNAVAILABLE
        case .brush(.unknownBrush), .brushInScript(.unknownBrush, _, _, _): return 66
        case .brushInScript(let e, _, _, _): return RenderError.brush(e).exitStatus == 64 ? 65 : RenderError.brush(e).exitStatus
        case .brush(.unknownParameter), .brush(.badParameterValue), .brush(.ambiguousLibrary): return 64
        case .brush: return 69
        case .session(.badCanvasSize), .session(.badScale): return 64 // EX_USAGE
        case .session(.outOfMemory): return 70              // EX_SOFTWARE
        case .session(.brushFailed): return 69
        case .session: return 70
        case .png(let e, let writing):
            if writing { return e.kind == .cannotCreate ? 73 : 74 } // EX_CANTCREAT / EX_IOERR
            return e.kind == .notFound ? 66 : e.kind == .io ? 74 : 65
        }
    }
}
