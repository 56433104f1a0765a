/// The value of a brush parameter in a script: `"params": {"grain": 0.4, "smooth": true}`.
public enum ParamValue: Equatable, Sendable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case string(String)

    public var description: String {
        switch self {
        case .number(let v): return String(v)
        case .bool(let b): return String(b)
        case .string(let s): return JSONValue.quoted(s)
        }
    }
}
