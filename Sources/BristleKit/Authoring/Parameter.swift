import CBristle

/// A brush parameter, declared as a value: `static let opacity = Parameter.float("opacity",
/// name: "Opacity", range: 0...1, default: 1)`. Hosts set it between strokes with
/// `--param ID=VALUE`; the brush reads it from ``Stroke/parameters``.
public struct Parameter: Sendable, Equatable {
    /// The kind of value and its limits.
    public enum Kind: Sendable, Equatable {
        /// Any finite number in the range.
        case float
        /// A whole number in the range.
        case integer
        /// 0 or 1.
        case boolean
        /// An index into `names`, from 0.
        case choice(names: [String])
        /// A colour.
        case color(default: Color)
    }

    /// Stable id: lower-case ASCII letters, digits and '-'.
    public var id: String
    /// Human-readable name.
    public var name: String
    /// One sentence, or "".
    public var description: String
    /// e.g. "px", "%", or "".
    public var unit: String
    /// What the value is.
    public var kind: Kind
    /// Limits and default (unused for colours).
    public var range: ClosedRange<Double>
    public var defaultValue: Double

    /// A number in `range`.
    public static func float(_ id: String, name: String, range: ClosedRange<Double>, default value: Double,
                             unit: String = "", description: String = "") -> Parameter {
        Parameter(id: id, name: name, description: description, unit: unit, kind: .float, range: range,
                  defaultValue: value)
    }

    /// A whole number in `range`.
    public static func integer(_ id: String, name: String, range: ClosedRange<Int>, default value: Int,
                               unit: String = "", description: String = "") -> Parameter {
        Parameter(id: id, name: name, description: description, unit: unit, kind: .integer,
                  range: Double(range.lowerBound)...Double(range.upperBound), defaultValue: Double(value))
    }

    /// On or off.
    public static func boolean(_ id: String, name: String, default value: Bool,
                               description: String = "") -> Parameter {
        Parameter(id: id, name: name, description: description, unit: "", kind: .boolean, range: 0...1,
                  defaultValue: value ? 1 : 0)
    }

    /// One of `names`; the value is the index.
    public static func choice(_ id: String, name: String, names: [String], default index: Int,
                              description: String = "") -> Parameter {
        Parameter(id: id, name: name, description: description, unit: "", kind: .choice(names: names),
                  range: 0...Double(max(names.count - 1, 0)), defaultValue: Double(index))
    }

    /// A colour.
    public static func color(_ id: String, name: String, default value: Color,
                             description: String = "") -> Parameter {
        Parameter(id: id, name: name, description: description, unit: "", kind: .color(default: value),
                  range: 0...0, defaultValue: 0)
    }

    /// The ABI's type code.
    var typeCode: UInt32 {
        switch kind {
        case .float: BRISTLE_PARAM_FLOAT
        case .integer: BRISTLE_PARAM_INT
        case .boolean: BRISTLE_PARAM_BOOL
        case .choice: BRISTLE_PARAM_ENUM
        case .color: BRISTLE_PARAM_COLOR
        }
    }

    /// True for colour parameters.
    var isColor: Bool {
        if case .color = kind { return true }
        return false
    }

    /// `value` clamped into the range and rounded for whole-number kinds; nil when not finite.
    func normalized(_ value: Double) -> Double? {
        guard value.isFinite else { return nil }
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        switch kind {
        case .float, .color: return clamped
        case .integer, .boolean, .choice: return clamped.rounded(.toNearestOrAwayFromZero)
        }
    }

    /// Problems that make the declaration unusable (empty when valid), per `bristle_param_info_t`.
    var problems: [String] {
        var found: [String] = []
        let bytes = Array(id.utf8)
        if bytes.isEmpty || !bytes.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d }) {
            found.append("parameter id \"\(id)\" must be lower-case ASCII letters, digits and '-'")
        }
        if name.isEmpty { found.append("parameter \(id) has an empty name") }
        if !isColor {
            if !range.lowerBound.isFinite || !range.upperBound.isFinite || !defaultValue.isFinite
                || !range.contains(defaultValue) {
                found.append("parameter \(id): the default \(defaultValue) is not a finite value in \(range)")
            }
            if normalized(defaultValue) != defaultValue {
                found.append("parameter \(id): the default \(defaultValue) is not a whole number")
            }
        }
        if case .choice(let names) = kind, names.isEmpty || names.contains(where: \.isEmpty) {
            found.append("parameter \(id): a choice needs at least one name, none empty")
        }
        for text in [id, name, description, unit] where text.utf8.contains(0) {
            found.append("parameter \(id): a string contains a NUL byte")
        }
        return found
    }
}
