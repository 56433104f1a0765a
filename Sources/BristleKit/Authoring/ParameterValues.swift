/// The current values of a brush's parameters, looked up by their declarations:
/// `stroke.parameters[Self.opacity]`. Values are always normalised (in range, whole numbers
/// rounded), so a brush can use them without checking.
public struct ParameterValues: Sendable {
    private var numbers: [String: Double]
    private var colors: [String: Color]

    /// Every parameter at its default.
    init(defaults parameters: [Parameter]) {
        numbers = [:]
        colors = [:]
        for p in parameters {
            if case .color(let value) = p.kind { colors[p.id] = value } else { numbers[p.id] = p.defaultValue }
        }
    }

    /// The value of a numeric parameter (its default if the brush did not declare it).
    public subscript(_ parameter: Parameter) -> Double {
        numbers[parameter.id] ?? parameter.defaultValue
    }

    /// The value of a boolean parameter.
    public func isOn(_ parameter: Parameter) -> Bool { self[parameter] >= 0.5 }

    /// The value of a colour parameter (its default if the brush did not declare it).
    public func color(_ parameter: Parameter) -> Color {
        if let value = colors[parameter.id] { return value }
        if case .color(let value) = parameter.kind { return value }
        return Color(red: 0, green: 0, blue: 0, alpha: 0)
    }

    /// The numeric value with this id, if there is one.
    func number(id: String) -> Double? { numbers[id] }

    /// The colour with this id, if there is one.
    func color(id: String) -> Color? { colors[id] }

    /// Sets an already normalised number.
    mutating func set(id: String, number: Double) { numbers[id] = number }

    /// Sets an already clamped colour.
    mutating func set(id: String, color: Color) { colors[id] = color }
}
