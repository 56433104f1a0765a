/// Why a render failed, grouped by what the user has to fix. ``exitStatus`` follows
/// sysexits(3), as the CLI documents (docs/CLI.md).
public enum RenderError: Error, Sendable, CustomStringConvertible {
    /// The input file does not exist.
    case inputNotFound(path: String)
    /// The input path names a directory, a FIFO, a device or a socket (`what` says which).
    case inputNotAFile(path: String, what: String)
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
    /// The background image a script names (at `file:line:column`) cannot be read.
    case backgroundInScript(PNGError, file: String, line: Int, column: Int)
    /// The output would replace `input`, a file the render reads (the input itself, through
    /// another name, a link, or the background image or a brush): refused, nothing written.
    case outputIsAnInput(output: String, input: String)
    /// The memory the render needs (``MemoryPlan``) cannot be had.
    case outOfMemory(MemoryPlan)

    public var description: String {
        switch self {
        case .inputNotFound(let path): return "\(path): no such input file"
        case .inputNotAFile(let path, let what): return "\(path): not a regular file (it is \(what)); an input must be a file"
        case .input(let e): return e.headline
        case .plugin(let e): return e.description
        case .brush(let e): return e.description
        case .brushInScript(let e, let file, let line, let column): return "\(file):\(line):\(column): \(e.description)"
        case .session(let e): return e.description
        case .png(let e, _): return e.description
        case .backgroundInScript(let e, let file, let line, let column):
            return "\(file):\(line):\(column): canvas.background: \(e.description)"
        case .outputIsAnInput(let output, let input):
            return "\(output): refusing to write the output over \(input == output ? "the input itself" : "\(input), which this render reads")"
        case .outOfMemory(let plan):
            return "not enough memory for a \(plan.width)x\(plan.height) canvas: rendering it needs about \(plan.breakdown), and this process cannot get that much"
        }
    }

    /// One sentence on what to do, when there is something useful to say.
    public var hint: String? {
        switch self {
        case .inputNotFound: return "check the path; relative paths start from the current directory"
        case .inputNotAFile: return "give the path of a file; save what a pipe or device produces to a file first"
        case .input(let e): return e.hint
        case .plugin(let e): return e.hint
        case .brush(let e), .brushInScript(let e, _, _, _): return e.hint
        case .session(.brushFailed(let e)): return e.hint
        case .session(.outOfMemory), .outOfMemory:
            return "render a smaller canvas (--size), or let the process use more memory (ulimit -v)"
        case .session: return nil
        case .png(_, let writing):
            return writing ? "check that the output folder exists and is writable" : nil
        case .backgroundInScript: return nil
        case .outputIsAnInput: return "choose another output file name"
        }
    }

    /// The process exit status for this error (sysexits.h).
    public var exitStatus: Int32 {
        switch self {
        case .inputNotFound, .inputNotAFile: return 66     // EX_NOINPUT
        case .input: return 65               // EX_DATAERR
        case .plugin(let e): return e.isNotFound ? 66 : 69 // EX_NOINPUT / EX_UNAVAILABLE
        case .brush(.unknownBrush), .brushInScript(.unknownBrush, _, _, _): return 66
        case .brushInScript(let e, _, _, _): return RenderError.brush(e).exitStatus == 64 ? 65 : RenderError.brush(e).exitStatus
        case .brush(.unknownParameter), .brush(.badParameterValue), .brush(.ambiguousLibrary): return 64
        case .brush: return 69
        case .session(.badCanvasSize), .session(.badScale): return 64 // EX_USAGE
        case .session(.outOfMemory), .outOfMemory: return 71 // EX_OSERR
        case .session(.brushFailed): return 69
        case .session: return 70
        case .png(let e, let writing):
            if writing { return e.kind == .cannotCreate ? 73 : 74 } // EX_CANTCREAT / EX_IOERR
            return Self.readStatus(e)
        case .backgroundInScript(let e, _, _, _): return Self.readStatus(e)
        case .outputIsAnInput: return 73                   // EX_CANTCREAT
        }
    }

    /// The status for an image that cannot be read: 66 when there is no file to read, 74 when
    /// reading failed, 65 when its content is bad.
    private static func readStatus(_ e: PNGError) -> Int32 {
        switch e.kind {
        case .notFound, .notRegularFile: return 66
        case .io: return 74
        default: return 65
        }
    }
}
