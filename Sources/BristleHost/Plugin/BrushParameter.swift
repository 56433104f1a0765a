import CBristle

/// A parameter a brush declares through the `bristle.params/1` extension.
public struct BrushParameter: Equatable, Sendable {
    /// The parameter's type.
    public enum Kind: Equatable, Sendable {
        case float, int, bool
        /// An index in `min...max`; `names[i - min]` names it.
        case enumeration(names: [String])
        case color
    }

    public var id: String
    public var name: String
    public var summary: String
    public var unit: String
    public var kind: Kind
    public var minimum: Double
    public var maximum: Double
    public var defaultValue: Double
    /// The default of a ``Kind/color`` parameter.
    public var defaultColor: RGBAColor

    /// The type as `bristle inspect` prints it.
    public var kindName: String {
        switch kind {
        case .float: return "float"
        case .int: return "int"
        case .bool: return "bool"
        case .enumeration: return "enum"
        case .color: return "color"
        }
    }

    /// A numeric value shown the way a person writes it (an enum by name, a bool as
    /// true/false, whole numbers without a decimal point). Never traps, whatever the value.
    public func format(_ value: Double) -> String {
        switch kind {
        case .bool:
            return value != 0 ? "true" : "false"
        case .enumeration(let names):
            if let i = Int(exactly: value - minimum), names.indices.contains(i) { return names[i] }
            return Self.plain(value)
        case .int, .float, .color:
            return Self.plain(value)
        }
    }

    /// `3` for 3.0, `0.25` for 0.25, `1e+300` for 1e300.
    public static func plain(_ value: Double) -> String {
        if let whole = Int64(exactly: value), abs(value) < 1e15 { return String(whole) }
        return String(value)
    }

    /// The largest magnitude of an INT, BOOL or ENUM bound: every whole number up to it is
    /// exactly representable as a double.
    static let largestWholeNumber = 9_007_199_254_740_992.0  // 2^53

    /// Parses a value written by a person (CLI `--param`, script `params`) for this parameter:
    /// numbers for float/int, true/false/yes/no/on/off/1/0 for bool, a name or index for enum.
    /// Returns nil when the text does not fit; colours are parsed by the caller.
    public func parse(_ text: String) -> Double? {
        switch kind {
        case .float:
            guard let v = Double(text), v.isFinite else { return nil }
            return v
        case .int:
            guard let v = Double(text), v.isFinite, v == v.rounded() else { return nil }
            return v
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return 1
            case "false", "no", "off", "0": return 0
            default: return nil
            }
        case .enumeration(let names):
            if let i = names.firstIndex(of: text) { return minimum + Double(i) }
            guard let v = Double(text), v == v.rounded(), v >= minimum, v <= maximum else { return nil }
            return v
        case .color:
            return nil
        }
    }

    /// What ``parse(_:)`` accepts, for error messages.
    public var expectation: String {
        switch kind {
        case .float: return "a number in [\(format(minimum)), \(format(maximum))]"
        case .int: return "a whole number in [\(format(minimum)), \(format(maximum))]"
        case .bool: return "true or false"
        case .enumeration(let names): return "one of " + names.joined(separator: ", ")
        case .color: return "a colour (#rrggbb, #rrggbbaa or a CSS name)"
        }
    }

    /// Validates a plugin's `bristle_param_info_t` and copies it; returns the reason when bad.
    static func validate(_ info: UnsafePointer<bristle_param_info_t>) -> Result<BrushParameter, InvalidParameterInfo> {
        let p = info.pointee
        if let problem = ABILayout.paramInfo.tooSmall(p.struct_size) {
            return .failure(InvalidParameterInfo(problem))
        }
        func text(_ field: String, _ pointer: UnsafePointer<CChar>?) -> Result<String, InvalidParameterInfo> {
            switch CString.read(pointer, limit: 1024) {
            case .success(let s): return .success(s)
            case .failure(let problem):
                return .failure(InvalidParameterInfo("\(field) is \(problem == .null ? "NULL" : "not a valid string")"))
            }
        }
        do {
            let id = try text("id", p.id).get()
            guard !id.isEmpty, id.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d }) else {
                return .failure(InvalidParameterInfo("id '\(id)' must be lower-case ASCII letters, digits and '-'"))
            }
            let name = try text("name", p.name).get()
            let summary = try text("description", p.description).get()
            let unit = try text("unit", p.unit).get()
            let kind: Kind
            switch p.type {
            case BRISTLE_PARAM_FLOAT: kind = .float
            case BRISTLE_PARAM_INT: kind = .int
            case BRISTLE_PARAM_BOOL: kind = .bool
            case BRISTLE_PARAM_COLOR: kind = .color
            case BRISTLE_PARAM_ENUM:
                var names: [String] = []
                guard let list = p.enum_names else { return .failure(InvalidParameterInfo("'\(id)': enum_names is NULL")) }
                while names.count < 256, let n = list[names.count] {
                    names.append(try text("enum_names[\(names.count)]", n).get())
                }
                kind = .enumeration(names: names)
            default:
                return .failure(InvalidParameterInfo("'\(id)': unknown type \(p.type)"))
            }
            if kind != .color {
                guard p.min_value.isFinite, p.max_value.isFinite, p.default_value.isFinite else {
                    return .failure(InvalidParameterInfo("'\(id)': min, max and default must be finite"))
                }
                guard p.min_value <= p.default_value, p.default_value <= p.max_value else {
                    return .failure(InvalidParameterInfo("'\(id)': default \(p.default_value) is outside [\(p.min_value), \(p.max_value)]"))
                }
                if kind != .float {
                    let bounds = [p.min_value, p.max_value, p.default_value]
                    guard bounds.allSatisfy({ $0 == $0.rounded() && abs($0) <= Self.largestWholeNumber }) else {
                        return .failure(InvalidParameterInfo("'\(id)': min, max and default of a \(p.type == BRISTLE_PARAM_BOOL ? "bool" : p.type == BRISTLE_PARAM_INT ? "int" : "enum") must be whole numbers within ±2^53"))
                    }
                }
                if kind == .bool, p.min_value != 0 || p.max_value != 1 {
                    return .failure(InvalidParameterInfo("'\(id)': a bool has min 0 and max 1"))
                }
                if case .enumeration(let names) = kind, Double(names.count) != p.max_value - p.min_value + 1 {
                    return .failure(InvalidParameterInfo("'\(id)': \(names.count) enum names for the range [\(p.min_value), \(p.max_value)]"))
                }
            }
            let c = p.default_color
            return .success(BrushParameter(
                id: id, name: name, summary: summary, unit: unit, kind: kind, minimum: p.min_value,
                maximum: p.max_value, defaultValue: p.default_value,
                defaultColor: RGBAColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)))
        } catch {
            return .failure(error)
        }
    }
}
