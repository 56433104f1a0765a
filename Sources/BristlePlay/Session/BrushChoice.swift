import BristleHost

/// The brush the page chose for the next strokes: its id, the stroke colour and width, and
/// values for some of its declared parameters, as sent (see ``ClientMessage``).
struct BrushChoice: Equatable {
    var id: String
    var color: String
    var width: Double
    /// Parameter values by parameter id, in the order sent.
    var params: [Param]

    struct Param: Equatable {
        var id: String
        var value: JSONValue
    }

    static func parse(_ root: JSONValue) -> Result<BrushChoice, MessageError> {
        guard let id = root["id"]?.stringValue, !id.isEmpty else { return .failure(MessageError("brush without an \"id\"")) }
        guard let color = root["color"]?.stringValue else { return .failure(MessageError("brush without a \"color\"")) }
        guard let width = root["width"]?.doubleValue else { return .failure(MessageError("brush without a \"width\"")) }
        var params: [Param] = []
        if let value = root["params"] {
            guard let members = value.objectValue else { return .failure(MessageError("brush \"params\" is not an object")) }
            params = members.map { Param(id: $0.key, value: $0.value) }
        }
        return .success(BrushChoice(id: id, color: color, width: width, params: params))
    }

    /// The `brush` action of the stroke format that selects this choice from `brush`'s library
    /// (always by path, so a recording names the exact library), with every value checked
    /// against what the brush declares. Parameters come in the brush's order.
    func action(for brush: CatalogBrush) -> Result<String, MessageError> {
        guard (try? RGBAColor(parsing: color)) != nil else {
            return .failure(MessageError("the colour \"\(color)\" is not a colour"))
        }
        guard width.isFinite, width > 0, width <= DrawingSession.maximumStrokeWidth else {
            return .failure(MessageError("the width \(width) is not in (0, \(Int(DrawingSession.maximumStrokeWidth))]"))
        }
        if let unknown = params.first(where: { p in !brush.params.contains { $0.id == p.id } }) {
            return .failure(MessageError("\(brush.id) has no parameter \"\(unknown.id)\""))
        }
        var members: [(String, String)] = []
        for declared in brush.params {
            guard let given = params.first(where: { $0.id == declared.id }) else { continue }
            switch Self.value(given.value, for: declared) {
            case .success(let text): members.append((declared.id, text))
            case .failure(let error): return .failure(error)
            }
        }
        let spec = JSONText.object([
            ("id", JSONText.string(brush.id)), ("path", JSONText.string(brush.library)),
            ("color", JSONText.string(color)), ("width", JSONText.number(width)),
            ("params", JSONText.object(members)),
        ])
        return .success(JSONText.object([("brush", spec)]))
    }

    /// A parameter value as JSON text, checked against its declaration.
    private static func value(_ value: JSONValue, for p: PluginReport.Parameter) -> Result<String, MessageError> {
        let bad = MessageError("\(p.id): expected \(p.type == "color" ? "a colour" : p.type == "enum" ? "one of \((p.choices ?? []).joined(separator: ", "))" : "a \(p.type) in [\(p.min ?? 0), \(p.max ?? 0)]")")
        switch p.type {
        case "float", "int":
            guard let v = value.doubleValue, let lo = p.min, let hi = p.max, v >= lo, v <= hi,
                  p.type == "float" || v == v.rounded() else { return .failure(bad) }
            return .success(JSONText.number(v))
        case "bool":
            guard let b = value.boolValue else { return .failure(bad) }
            return .success(b ? "true" : "false")
        case "enum":
            guard let name = value.stringValue, p.choices?.contains(name) == true else { return .failure(bad) }
            return .success(JSONText.string(name))
        case "color":
            guard let text = value.stringValue, (try? RGBAColor(parsing: text)) != nil else { return .failure(bad) }
            return .success(JSONText.string(text))
        default:
            return .failure(MessageError("\(p.id) has a type this page does not know: \(p.type)"))
        }
    }
}
