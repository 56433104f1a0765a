/// Why a brush could not be found, created, configured or driven. ``description`` says what
/// failed; ``hint`` what to do.
public enum BrushError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No plugin on the search path (or in the named file) provides this id; `nearest` are the
    /// known ids closest to it (``NearestNames``), suggested in the hint.
    case unknownBrush(id: String, searched: [String], nearest: [String] = [])
    /// A plugin file holds several brushes; the caller must say which.
    case ambiguousLibrary(path: String, ids: [String])
    /// The factory returned NULL for an id its descriptors list.
    case createFailed(id: String, path: String)
    /// The instance the factory returned breaks the ABI contract.
    case malformedInstance(id: String, path: String, field: String, reason: String)
    /// A parameter name the brush does not have.
    case unknownParameter(brush: String, name: String, known: [String])
    /// A parameter value that does not fit the parameter's type.
    case badParameterValue(brush: String, name: String, value: String, expected: String)
    /// A hook returned a failure status.
    case hookFailed(brush: String, hook: String, status: Int32)

    public var description: String {
        switch self {
        case .unknownBrush(let id, let searched, _):
            let places = searched.isEmpty ? "(no directories)" : searched.joined(separator: ", ")
            return "no brush with id '\(id)' on the plugin search path: \(places)"
        case .ambiguousLibrary(let path, let ids):
            return "\(path) holds \(ids.count) brushes (\(ids.joined(separator: ", "))); say which one"
        case .createFailed(let id, let path):
            return "\(path): the factory could not create '\(id)' (create returned NULL)"
        case .malformedInstance(let id, let path, let field, let reason):
            return "\(path): brush '\(id)' returned a malformed instance: \(field) \(reason)"
        case .unknownParameter(let brush, let name, let known):
            let list = known.isEmpty ? "it has no parameters" : "it has: " + known.joined(separator: ", ")
            return "brush '\(brush)' has no parameter '\(name)'; \(list)"
        case .badParameterValue(let brush, let name, let value, let expected):
            return "brush '\(brush)', parameter '\(name)': '\(value)' is not \(expected)"
        case .hookFailed(let brush, let hook, let status):
            return "brush '\(brush)': \(hook) failed with status \(status) (\(BrushError.statusName(status)))"
        }
    }

    /// What to do about it, one sentence.
    public var hint: String {
        switch self {
        case .unknownBrush(_, _, let nearest) where !nearest.isEmpty:
            return "did you mean \(nearest.joined(separator: " or "))? (`bristle list` shows every brush found)"
        case .unknownBrush:
            return "run `bristle list` to see the brushes found, or add the plugin's folder to BRISTLE_PATH"
        case .ambiguousLibrary(let path, _):
            return "add the folder to BRISTLE_PATH and pass the brush id, e.g. BRISTLE_PATH=\(path.split(separator: "/").dropLast().joined(separator: "/").isEmpty ? "." : "/" + path.split(separator: "/").dropLast().joined(separator: "/")) bristle render --brush ID ..."
        case .createFailed, .malformedInstance, .hookFailed:
            return "check the brush against the hook contracts in include/bristle/bristle.h"
        case .unknownParameter(let brush, _, _):
            return "run `bristle inspect` on the plugin of '\(brush)' to list its parameters"
        case .badParameterValue:
            return "run `bristle inspect` to see each parameter's type and range"
        }
    }

    /// The C name of a status code.
    public static func statusName(_ status: Int32) -> String {
        switch status {
        case 0: return "BRISTLE_OK"
        case 1: return "BRISTLE_FAILED"
        case 2: return "BRISTLE_UNSUPPORTED"
        case 3: return "BRISTLE_BAD_ARG"
        case 4: return "BRISTLE_BAD_STATE"
        default: return "unknown status"
        }
    }
}
