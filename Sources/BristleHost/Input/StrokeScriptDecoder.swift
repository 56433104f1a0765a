/// Turns a parsed JSON document into a ``StrokeScript``, checking every field and reporting
/// the first problem in file order, located at the offending key or value and naming its
/// JSON path.
struct StrokeScriptDecoder {
    let file: String
    /// Absolute folder that relative paths resolve against.
    let baseDirectory: String
    /// Events decoded while the document was parsed, if it was parsed that way.
    var streamedEvents: StreamedEvents?

    init(file: String, baseDirectory: String) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    static let maxCanvasSide = 65_536
    static let maxCanvasPixels = 1 << 28
    /// Upper limit for `undo`, `redo` and `ticks` counts.
    static let maxCount = 1_000_000
    static let maxButtons = Int(Int32.max)

    static let pointerTypes = ["mouse", "pen", "touch", "eraser"]
    static let topLevelKeys = ["$schema", "canvas", "actions"]
    static let canvasKeys = ["width", "height", "scale", "background"]
    static let backgroundKeys = ["color", "image"]
    static let actionKeys = ["brush", "stroke", "undo", "redo", "clear", "ticks"]
    static let brushKeys = ["id", "path", "color", "width", "params"]
    static let strokeKeys = ["pointerType", "cancelled", "events"]
    static let sampleKeys = ["x", "y", "pressure", "tiltX", "tiltY", "twist", "altitudeAngle",
                             "azimuthAngle", "tangentialPressure", "width", "height", "pointerType",
                             "timeStamp", "buttons", "force", "maxForce"]
    static let eventKeys = sampleKeys + ["coalesced", "predicted"]

    // MARK: - Document

    func script(_ root: JSONValue) throws(InputError) -> StrokeScript {
        guard let members = root.objectValue else {
            throw error(root.location, "",
                        "expected an object like {\"actions\": [...]} at the top level, found \(root.briefDescription)",
                        hint: root.arrayValue != nil ? "wrap the list of actions: {\"actions\": [...]}" : nil)
        }
        var canvas = CanvasSpec()
        var actions: [ScriptAction]? = nil
        for m in members {
            let path = Self.join("", m.key)
            switch m.key {
            case "$schema": _ = try string(m.value, path)
            case "canvas": canvas = try canvasSpec(m.value, path)
            case "actions": actions = try actionList(m.value, path)
            default: throw unknownKey(m, "", allowed: Self.topLevelKeys, in: "the top-level object")
            }
        }
        guard let actions else {
            throw error(root.location, "", "expected the key \"actions\" in the top-level object, found none",
                        hint: "a script is {\"canvas\": {...}, \"actions\": [...]}; the actions may be an empty list")
        }
        return StrokeScript(canvas: canvas, actions: actions, sourcePath: file)
    }

    // MARK: - Canvas

    func canvasSpec(_ value: JSONValue, _ path: String) throws(InputError) -> CanvasSpec {
        let members = try object(value, path, "an object (the canvas)")
        var spec = CanvasSpec()
        for m in members {
            let p = Self.join(path, m.key)
            switch m.key {
            case "width":
                spec.width = try integer(m.value, p, 1, Self.maxCanvasSide, unit: "pixels")
            case "height":
                spec.height = try integer(m.value, p, 1, Self.maxCanvasSide, unit: "pixels")
            case "scale":
                spec.scale = try number(m.value, p, .scale)
            case "background":
                spec.background = try background(m.value, p)
            default:
                throw unknownKey(m, path, allowed: Self.canvasKeys, in: "the canvas")
            }
            spec.fieldLocations[m.key] = m.value.location
        }
        if (spec.width == nil) != (spec.height == nil) {
            let (given, missing) = spec.width != nil ? ("width", "height") : ("height", "width")
            throw error(spec.fieldLocations[given]!, Self.join(path, given),
                        "expected \"\(missing)\" with \"\(given)\", found only \"\(given)\"",
                        hint: "give both, or neither to take the size from the background image or the host")
        }
        if let w = spec.width, let h = spec.height, w * h > Self.maxCanvasPixels,
           let wl = spec.fieldLocations["width"], let hl = spec.fieldLocations["height"] {
            let later = (wl.line, wl.column) > (hl.line, hl.column) ? wl : hl
            throw error(later, path,
                        "expected at most \(Self.maxCanvasPixels) pixels (2^28) in the canvas, found \(w) x \(h) = \(w * h)",
                        hint: "make the canvas smaller; 16384 x 16384 is the largest square canvas")
        }
        return spec
    }

    func background(_ value: JSONValue, _ path: String) throws(InputError) -> BackgroundSpec {
        switch value.kind {
        case .string(let text):
            let colorError: ColorParseError
            do throws(ColorParseError) {
                return .color(try RGBAColor(parsing: text))
            } catch {
                colorError = error
            }
            if text.lowercased().hasSuffix(".png") {
                return .image(path: StrokeScriptPaths.resolve(text, against: baseDirectory))
            }
            let hint = colorError.suggestion.map { "did you mean \"\($0)\"?" }
                ?? "as a colour: \(colorError.reason); accepted colours: \(ColorParseError.acceptedForms); an image path must end in .png"
            throw error(value.location, path,
                        "expected a colour or the path of a .png file, found \(value.briefDescription)", hint: hint)
        case .object(let members):
            guard let first = members.first else {
                throw error(value.location, path,
                            "expected {\"color\": ...} or {\"image\": ...}, found an empty object")
            }
            guard Self.backgroundKeys.contains(first.key) else {
                throw unknownKey(first, path, allowed: Self.backgroundKeys, in: "the background")
            }
            if members.count > 1 {
                throw error(members[1].keyLocation, path,
                            "expected one key (\"color\" or \"image\") in the background, found a second key \(JSONValue.quoted(members[1].key, limit: 40))")
            }
            let p = Self.join(path, first.key)
            if first.key == "color" { return .color(try color(first.value, p)) }
            let file = try nonEmptyString(first.value, p, "a path to an image file")
            return .image(path: StrokeScriptPaths.resolve(file, against: baseDirectory))
        default:
            throw typeError(value, path,
                            expected: "a colour, a .png path, {\"color\": ...} or {\"image\": ...}")
        }
    }

    // MARK: - Actions

    func actionList(_ value: JSONValue, _ path: String) throws(InputError) -> [ScriptAction] {
        guard let elements = value.arrayValue else {
            throw typeError(value, path, expected: "an array of actions")
        }
        var actions: [ScriptAction] = []
        actions.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            actions.append(try action(element, Self.join(path, i)))
        }
        return actions
    }

    func action(_ value: JSONValue, _ path: String) throws(InputError) -> ScriptAction {
        let one = "brush, stroke, undo, redo, clear or ticks"
        guard let members = value.objectValue else {
            var hint: String? = nil
            if let s = value.stringValue, Self.actionKeys.contains(s) {
                hint = s == "clear" ? "write {\"clear\": true}" : "write {\"\(s)\": ...}"
            }
            throw typeError(value, path, expected: "an action: an object with one key (\(one))", hint: hint)
        }
        guard let first = members.first else {
            throw error(value.location, path, "expected an action with one key (\(one)), found an empty object")
        }
        guard Self.actionKeys.contains(first.key) else {
            throw unknownKey(first, path, allowed: Self.actionKeys, in: "an action")
        }
        if members.count > 1 {
            let second = members[1]
            var hint: String? = nil
            if Self.actionKeys.contains(second.key) {
                hint = "put each action in its own object: {\"\(first.key)\": ...}, {\"\(second.key)\": ...}"
            } else if (first.key == "brush" && Self.brushKeys.contains(second.key))
                        || (first.key == "stroke" && Self.strokeKeys.contains(second.key)) {
                hint = "\"\(second.key)\" belongs inside the \"\(first.key)\" object"
            }
            throw error(second.keyLocation, path,
                        "expected one key in an action, found a second key \(JSONValue.quoted(second.key, limit: 40))",
                        hint: hint)
        }
        let p = Self.join(path, first.key)
        let v = first.value
        let kind: ScriptAction.Kind
        switch first.key {
        case "brush": kind = .brush(try brush(v, p))
        case "stroke": kind = .stroke(try stroke(v, p))
        case "undo": kind = .undo(try integer(v, p, 1, Self.maxCount, unit: "steps"))
        case "redo": kind = .redo(try integer(v, p, 1, Self.maxCount, unit: "steps"))
        case "ticks": kind = .ticks(try integer(v, p, 0, Self.maxCount, unit: "ticks"))
        default:  // "clear"
            guard v.boolValue == true else {
                throw error(v.location, p, "expected true, found \(v.briefDescription)",
                            hint: "{\"clear\": true} clears the canvas; to not clear it, remove the action")
            }
            kind = .clear
        }
        return ScriptAction(kind: kind, location: value.location)
    }

    func brush(_ value: JSONValue, _ path: String) throws(InputError) -> BrushSpec {
        let members = try object(value, path, "an object (the brush settings)")
        var spec = BrushSpec(location: value.location)
        for m in members {
            let p = Self.join(path, m.key)
            switch m.key {
            case "id":
                spec.id = try nonEmptyString(m.value, p, "a brush id like \"org.bristle.pencil\"")
            case "path":
                let file = try nonEmptyString(m.value, p, "a path to a brush file")
                spec.path = StrokeScriptPaths.resolve(file, against: baseDirectory)
            case "color":
                spec.color = try color(m.value, p)
            case "width":
                spec.width = try number(m.value, p, .strokeWidth, hint: { _ in "the brush width is in points; the canvas scale turns points into pixels" })
            case "params":
                let params = try object(m.value, p, "an object of brush parameters, like {\"grain\": 0.5}")
                for param in params {
                    let pp = Self.join(p, param.key)
                    let v: ParamValue
                    switch param.value.kind {
                    case .number(let n): v = .number(n.value)
                    case .bool(let b): v = .bool(b)
                    case .string(let s): v = .string(s)
                    default:
                        throw typeError(param.value, pp, expected: "a number, true, false or a string")
                    }
                    spec.params.append((name: param.key, value: v))
                    spec.fieldLocations["params." + param.key] = param.value.location
                }
            default:
                throw unknownKey(m, path, allowed: Self.brushKeys, in: "a brush",
                                 extraHint: "brush-specific settings go in \"params\"")
            }
            spec.fieldLocations[m.key] = m.value.location
        }
        return spec
    }

    func stroke(_ value: JSONValue, _ path: String) throws(InputError) -> StrokeSpec {
        let members = try object(value, path, "an object (the stroke)")
        var pointerType: String? = nil
        var cancelled = false
        var events: [InputEventSpec]? = nil
        for m in members {
            let p = Self.join(path, m.key)
            switch m.key {
            case "pointerType":
                pointerType = try self.pointerType(m.value, p)
            case "cancelled":
                cancelled = try bool(m.value, p)
            case "events":
                if let streamed = streamedEvents?.take(at: m.value.location) {
                    events = try streamed.get()
                    continue
                }
                guard let elements = m.value.arrayValue else {
                    throw typeError(m.value, p, expected: "an array of events")
                }
                guard !elements.isEmpty else {
                    throw error(m.value.location, p, "expected at least one event, found an empty array",
                                hint: "the first event is the pointer-down; a stroke with no events cannot be drawn")
                }
                var list: [InputEventSpec] = []
                list.reserveCapacity(elements.count)
                for (i, element) in elements.enumerated() {
                    list.append(try event(element, Self.join(p, i)))
                }
                events = list
            default:
                throw unknownKey(m, path, allowed: Self.strokeKeys, in: "a stroke")
            }
        }
        guard let events else {
            throw error(value.location, path, "expected the key \"events\" in the stroke, found none",
                        hint: "a stroke needs at least one event, like \"events\": [{\"x\": 10, \"y\": 20}]")
        }
        return StrokeSpec(pointerType: pointerType, cancelled: cancelled, events: events, location: value.location)
    }

    // MARK: - Events and samples

    func event(_ value: JSONValue, _ path: String) throws(InputError) -> InputEventSpec {
        var coalesced: [PointerSample] = []
        var predicted: [PointerSample] = []
        let sample = try sample(value, path, coalesced: &coalesced, predicted: &predicted, list: nil)
        return InputEventSpec(sample: sample, coalesced: coalesced, predicted: predicted)
    }

    func sampleList(_ value: JSONValue, _ path: String, _ name: String) throws(InputError) -> [PointerSample] {
        guard let elements = value.arrayValue else {
            throw typeError(value, path, expected: "an array of samples")
        }
        var noCoalesced: [PointerSample] = [], noPredicted: [PointerSample] = []
        var samples: [PointerSample] = []
        samples.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            samples.append(try sample(element, Self.join(path, i), coalesced: &noCoalesced, predicted: &noPredicted, list: name))
        }
        return samples
    }

    /// A sample object. `list` is nil for an event (which may have `coalesced` and
    /// `predicted`), or the name of the list the sample is in.
    func sample(_ value: JSONValue, _ path: String, coalesced: inout [PointerSample],
                predicted: inout [PointerSample], list: String?) throws(InputError) -> PointerSample {
        let what = list == nil ? "an event" : "a \(list!) sample"
        let members = try object(value, path, "\(what == "an event" ? "an event" : "a sample"): an object like {\"x\": 10, \"y\": 20}")
        var x: Double? = nil, y: Double? = nil
        var s = PointerSample(x: 0, y: 0, location: value.location)
        for m in members {
            let p = Self.join(path, m.key)
            let v = m.value
            switch m.key {
            case "x": x = try number(v, p, .any, hint: nil)
            case "y": y = try number(v, p, .any, hint: nil)
            case "pressure":
                s.pressure = try number(v, p, .unit, hint: { _ in
                    "pressure is normalised: 0 is none, 1 is the most the device reports" })
            case "tiltX", "tiltY":
                let t = try number(v, p, .tilt, hint: { _ in
                    "tilt is the pen's angle from the normal in degrees, -90 to 90" })
                if m.key == "tiltX" { s.tiltX = t } else { s.tiltY = t }
            case "twist":
                s.twist = try number(v, p, .twist, hint: { _ in
                    "twist is the pen's clockwise rotation about its axis in degrees; 360 is written 0" })
            case "altitudeAngle":
                s.altitudeAngle = try number(v, p, .altitude, hint: { n in
                    n > 0 && n <= 90 ? "altitudeAngle is in radians, not degrees: π/2 is perpendicular to the surface"
                        : "altitudeAngle is in radians: 0 is parallel to the surface, π/2 perpendicular" })
            case "azimuthAngle":
                s.azimuthAngle = try number(v, p, .azimuth, hint: { n in
                    n > 0 && n < 360 ? "azimuthAngle is in radians, not degrees; 2π is written 0"
                        : "azimuthAngle is in radians, from 0 up to (not including) 2π" })
            case "tangentialPressure":
                s.tangentialPressure = try number(v, p, .signedUnit, hint: { _ in
                    "tangentialPressure (an airbrush barrel control) is normalised to [-1, 1]" })
            case "width", "height":
                let size = try number(v, p, .nonNegative, hint: { _ in "the contact size is in canvas pixels" })
                if m.key == "width" { s.width = size } else { s.height = size }
            case "pointerType":
                s.pointerType = try pointerType(v, p)
            case "timeStamp":
                s.timeStamp = try number(v, p, .any, hint: nil)
            case "buttons":
                s.buttons = try integer(v, p, 0, Self.maxButtons, unit: nil)
            case "force":
                s.force = try number(v, p, .nonNegative, hint: nil)
            case "maxForce":
                s.maxForce = try number(v, p, .positive, hint: nil)
            case "coalesced", "predicted":
                if let list {
                    throw error(m.keyLocation, path,
                                "expected a plain sample in the \(list) list, found a nested \"\(m.key)\" list",
                                hint: "only an event in \"events\" has coalesced and predicted samples")
                }
                if m.key == "coalesced" {
                    coalesced = try sampleList(v, p, "coalesced")
                } else {
                    predicted = try sampleList(v, p, "predicted")
                }
            default:
                throw unknownKey(m, path, allowed: list == nil ? Self.eventKeys : Self.sampleKeys, in: what)
            }
        }
        guard let x, let y else {
            throw error(value.location, path,
                        "expected the required key \"\(x == nil ? "x" : "y")\" in \(what), found none",
                        hint: "every event and sample needs x and y")
        }
        s.x = x
        s.y = y
        return s
    }

    func pointerType(_ value: JSONValue, _ path: String) throws(InputError) -> String {
        let expected = "one of \"mouse\", \"pen\", \"touch\" or \"eraser\""
        guard let text = value.stringValue else { throw typeError(value, path, expected: expected) }
        guard Self.pointerTypes.contains(text) else {
            throw error(value.location, path, "expected \(expected), found \(value.briefDescription)",
                        hint: InputSpelling.suggestion(for: text, among: Self.pointerTypes).map { "did you mean \"\($0)\"?" })
        }
        return text
    }

    // MARK: - Typed values

    /// A set of accepted numbers and how to say it.
    struct NumberRange: Sendable {
        var contains: @Sendable (Double) -> Bool
        var text: String

        static let any = NumberRange(contains: { _ in true }, text: "a number")
        static let unit = NumberRange(contains: { $0 >= 0 && $0 <= 1 }, text: "a number in [0, 1]")
        static let signedUnit = NumberRange(contains: { $0 >= -1 && $0 <= 1 }, text: "a number in [-1, 1]")
        static let tilt = NumberRange(contains: { $0 >= -90 && $0 <= 90 }, text: "a number of degrees in [-90, 90]")
        static let twist = NumberRange(contains: { $0 >= 0 && $0 < 360 }, text: "a number of degrees in [0, 360)")
        static let altitude = NumberRange(contains: { $0 >= 0 && $0 <= Double.pi / 2 },
                                          text: "a number of radians in [0, π/2] (π/2 ≈ 1.5708)")
        static let azimuth = NumberRange(contains: { $0 >= 0 && $0 < 2 * Double.pi },
                                         text: "a number of radians in [0, 2π) (2π ≈ 6.2832)")
        static let nonNegative = NumberRange(contains: { $0 >= 0 }, text: "a number >= 0")
        static let positive = NumberRange(contains: { $0 > 0 }, text: "a number > 0")
        static let scale = NumberRange(
            contains: { DrawingSession.scaleRange.contains($0) },
            text: "a number of pixels per point in [\(DrawingSession.scaleRange.lowerBound), \(Int(DrawingSession.scaleRange.upperBound))]")
        static let strokeWidth = NumberRange(
            contains: { $0 > 0 && $0 <= DrawingSession.maximumStrokeWidth },
            text: "a number of points in (0, \(Int(DrawingSession.maximumStrokeWidth))]")
    }

    func number(_ value: JSONValue, _ path: String, _ range: NumberRange,
                hint: ((Double) -> String?)? = nil) throws(InputError) -> Double {
        guard case .number(let n) = value.kind else {
            throw typeError(value, path, expected: range.text)
        }
        guard range.contains(n.value) else {
            throw error(value.location, path, "expected \(range.text), found \(n.literal)", hint: hint?(n.value))
        }
        return n.value
    }

    func integer(_ value: JSONValue, _ path: String, _ min: Int, _ max: Int,
                 unit: String?) throws(InputError) -> Int {
        let expected = "an integer in [\(min), \(max)]" + (unit.map { " (\($0))" } ?? "")
        guard case .number(let n) = value.kind else {
            throw typeError(value, path, expected: expected)
        }
        guard n.value.rounded() == n.value, n.value >= Double(min), n.value <= Double(max) else {
            throw error(value.location, path, "expected \(expected), found \(n.literal)")
        }
        return Int(n.value)
    }

    func string(_ value: JSONValue, _ path: String) throws(InputError) -> String {
        guard let text = value.stringValue else { throw typeError(value, path, expected: "a string") }
        return text
    }

    func nonEmptyString(_ value: JSONValue, _ path: String, _ expected: String) throws(InputError) -> String {
        guard let text = value.stringValue else { throw typeError(value, path, expected: expected) }
        guard !text.isEmpty else {
            throw error(value.location, path, "expected \(expected), found an empty string")
        }
        return text
    }

    func bool(_ value: JSONValue, _ path: String) throws(InputError) -> Bool {
        guard let b = value.boolValue else { throw typeError(value, path, expected: "true or false") }
        return b
    }

    func color(_ value: JSONValue, _ path: String) throws(InputError) -> RGBAColor {
        guard let text = value.stringValue else {
            throw typeError(value, path, expected: "a colour string like \"#1a4dcc\"")
        }
        do throws(ColorParseError) {
            return try RGBAColor(parsing: text)
        } catch {
            throw self.error(value.location, path,
                             "expected a colour, found \(value.briefDescription): \(error.reason)",
                             hint: error.suggestion.map { "did you mean \"\($0)\"?" }
                                ?? "accepted: \(ColorParseError.acceptedForms)")
        }
    }

    func object(_ value: JSONValue, _ path: String, _ expected: String) throws(InputError) -> [JSONValue.Member] {
        guard let members = value.objectValue else { throw typeError(value, path, expected: expected) }
        return members
    }

    // MARK: - Errors

    func error(_ location: SourceLocation, _ path: String, _ message: String, hint: String? = nil) -> InputError {
        InputError(file: file, location: location, message: path.isEmpty ? message : "\(path): \(message)", hint: hint)
    }

    /// `expected <expected>, found <what the value is>`, with a hint for the usual slips.
    func typeError(_ value: JSONValue, _ path: String, expected: String, hint: String? = nil) -> InputError {
        var hint = hint
        if hint == nil {
            switch value.kind {
            case .null:
                hint = "to leave a field unset, leave its key out"
            case .string(let s):
                if let first = s.unicodeScalars.first, first == "-" || ("0"..."9").contains(first),
                   let d = Double(s), d.isFinite, expected.contains("number") || expected.contains("integer") {
                    hint = "write numbers without quotes: \(s), not \"\(s)\""
                } else if s == "true" || s == "false", expected.contains("true") {
                    hint = "write \(s) without quotes"
                }
            default:
                break
            }
        }
        return error(value.location, path, "expected \(expected), found \(value.briefDescription)", hint: hint)
    }

    func unknownKey(_ member: JSONValue.Member, _ path: String, allowed: [String], in what: String,
                    extraHint: String? = nil) -> InputError {
        var hint: String
        if let suggestion = InputSpelling.suggestion(for: member.key, among: allowed) {
            hint = "did you mean \"\(suggestion)\"?"
        } else {
            hint = "the keys of \(what) are: " + allowed.joined(separator: ", ")
            if let extraHint { hint += "; " + extraHint }
        }
        return error(member.keyLocation, path,
                     "expected a key of \(what), found the unknown key \(JSONValue.quoted(member.key, limit: 40))",
                     hint: hint)
    }

    // MARK: - Paths

    /// `path.key`, or `path["key"]` when the key is not a plain identifier.
    static func join(_ path: String, _ key: String) -> String {
        var plain = !key.isEmpty
        for (i, s) in key.unicodeScalars.enumerated() {
            let letter = ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_" || s == "$"
            if !(letter || (i > 0 && ("0"..."9").contains(s))) { plain = false; break }
        }
        if !plain { return path + "[" + JSONValue.quoted(key, limit: 40) + "]" }
        return path.isEmpty ? key : path + "." + key
    }

    static func join(_ path: String, _ index: Int) -> String { path + "[\(index)]" }
}
