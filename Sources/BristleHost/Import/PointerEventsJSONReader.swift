/// Reads browser Pointer Events captures written as JSON, in two shapes:
///
/// - **Parallel arrays** (``readParallelArrays(_:file:)``): one object whose keys are Pointer
///   Events fields and whose values are arrays with one element per event, like
///   `{"x": [...], "y": [...], "time": [...], "pressure": [...], "buttons": [...]}`.
/// - **Points** (``readPoints(_:file:)``): `[[x, y, pressure, t], ...]` for one stroke, or an
///   array of such arrays for several strokes (perfect-freehand and similar tools).
enum PointerEventsJSONReader {
    // MARK: Parallel arrays

    /// The keys that hold the event time, in milliseconds. A file uses one of them.
    static let timeKeys = ["timeStamp", "time", "timestamp", "t"]

    /// The numeric keys read, besides `x`, `y` and time, with their ranges.
    private enum Field: String, CaseIterable {
        case pressure, tangentialPressure, tiltX, tiltY, twist, altitudeAngle, azimuthAngle, width, height, buttons
    }

    private struct Column {
        var key: String
        var values: [JSONValue]
    }

    static func readParallelArrays(_ root: JSONValue, file: String) throws(InputError) -> InkRecording {
        guard root.objectValue != nil else {
            throw InputError(file: file, location: root.location,
                             message: "expected an object of parallel arrays, found \(root.briefDescription)")
        }
        func column(_ key: String) throws(InputError) -> Column? {
            guard let m = root.member(key) else { return nil }
            guard let values = m.value.arrayValue else {
                throw InputError(file: file, location: m.value.location,
                                 message: "\(key): expected an array with one value per event, found \(m.value.briefDescription)")
            }
            return Column(key: key, values: values)
        }
        guard let xs = try column("x") else {
            throw InputError(file: file, location: root.location,
                             message: "expected the key \"x\" (an array of x positions, one per event), found none",
                             hint: "a Pointer Events capture is {\"x\": [...], \"y\": [...], \"time\": [...], ...}")
        }
        guard let ys = try column("y") else {
            throw InputError(file: file, location: root.location,
                             message: "expected the key \"y\" (an array as long as \"x\"), found none")
        }
        let count = xs.values.count
        func checkLength(_ c: Column) throws(InputError) {
            guard c.values.count == count else {
                let location = root.member(c.key)?.value.location ?? root.location
                throw InputError(file: file, location: location,
                                 message: "\(c.key): expected an array of \(count) value\(count == 1 ? "" : "s"), as long as \"x\", found \(c.values.count)",
                                 hint: "every array of a capture holds one value per event, in the same order")
            }
        }
        try checkLength(ys)

        var time: Column? = nil
        for member in root.objectValue ?? [] where timeKeys.contains(member.key) {
            let key = member.key
            guard let c = try column(key) else { continue }
            if let first = time {
                throw InputError(file: file, location: member.keyLocation,
                                 message: "expected one array of times, found both \"\(first.key)\" and \"\(key)\"",
                                 hint: "remove one of them")
            }
            try checkLength(c)
            time = c
        }
        var fields: [Field: Column] = [:]
        for field in Field.allCases {
            guard let c = try column(field.rawValue) else { continue }
            try checkLength(c)
            fields[field] = c
        }
        // pointerType: one string for every event, or an array of strings.
        var pointerTypes: [String?]? = nil
        var pointerTypeGiven = false
        if let m = root.member("pointerType") {
            pointerTypeGiven = true
            if let s = m.value.stringValue {
                pointerTypes = Array(repeating: try pointerType(s, at: m.value.location, path: "pointerType", file: file), count: count)
            } else if let c = try column("pointerType") {
                try checkLength(c)
                var types: [String?] = []
                for (i, v) in c.values.enumerated() {
                    if case .null = v.kind { types.append(nil); continue }
                    guard let s = v.stringValue else {
                        throw InputError(file: file, location: v.location,
                                         message: "pointerType[\(i)]: expected \"mouse\", \"pen\", \"touch\" or \"eraser\", found \(v.briefDescription)")
                    }
                    types.append(try pointerType(s, at: v.location, path: "pointerType[\(i)]", file: file))
                }
                pointerTypes = types
            }
        }

        var recording = InkRecording()
        recording.samplesRead = count
        var current: InkStroke? = nil
        for i in 0..<count {
            let x = try number(xs.values[i], "x[\(i)]", file: file)
            let y = try number(ys.values[i], "y[\(i)]", file: file)
            var s = PointerSample(x: x, y: y, location: xs.values[i].location)
            if let time {
                s.timeStamp = try optionalNumber(time.values[i], "\(time.key)[\(i)]", file: file)
            }
            for field in Field.allCases {
                guard let c = fields[field] else { continue }
                let path = "\(field.rawValue)[\(i)]"
                let v = c.values[i]
                switch field {
                case .pressure:
                    s.pressure = try ranged(v, path, 0, 1, file: file, hint: "pressure is normalised: 0 is none, 1 is the most the device reports")
                case .tangentialPressure:
                    s.tangentialPressure = try ranged(v, path, -1, 1, file: file)
                case .tiltX:
                    s.tiltX = try ranged(v, path, -90, 90, file: file, hint: "tilt is in degrees")
                case .tiltY:
                    s.tiltY = try ranged(v, path, -90, 90, file: file, hint: "tilt is in degrees")
                case .twist:
                    s.twist = try ranged(v, path, 0, 360, file: file, hint: "twist is in degrees").map { InkUnits.twist(degrees: $0) }
                case .altitudeAngle:
                    s.altitudeAngle = try ranged(v, path, 0, Double.pi / 2, file: file, hint: "altitudeAngle is in radians")
                case .azimuthAngle:
                    s.azimuthAngle = try ranged(v, path, 0, 2 * Double.pi, file: file, hint: "azimuthAngle is in radians")
                        .map { InkUnits.azimuth(radians: $0) }
                case .width:
                    s.width = try ranged(v, path, 0, .greatestFiniteMagnitude, file: file)
                case .height:
                    s.height = try ranged(v, path, 0, .greatestFiniteMagnitude, file: file)
                case .buttons:
                    let b = try number(v, path, file: file)
                    guard b >= 0, b <= 2147483647, b.rounded() == b else {
                        throw InputError(file: file, location: v.location,
                                         message: "\(path): expected an integer bit mask in [0, 2147483647], found \(literal(v))")
                    }
                    s.buttons = Int(b)
                }
            }
            s.pointerType = pointerTypes?[i]

            // Contact: buttons when the capture has them, else pressure > 0, else every event.
            let contact: Bool
            if let b = s.buttons {
                contact = b != 0
            } else if fields[.pressure] != nil {
                contact = (s.pressure ?? 1) > 0
                s.buttons = contact ? 1 : 0
            } else {
                contact = true
                s.buttons = 1
            }
            if contact {
                if current == nil {
                    current = InkStroke(pointerType: s.pointerType, samples: [], location: s.location)
                }
                current!.samples.append(s)
            } else {
                recording.hover.append(s)
                if let stroke = current { recording.strokes.append(stroke) }
                current = nil
            }
        }
        if let stroke = current { recording.strokes.append(stroke) }
        if !pointerTypeGiven { applyMouseRule(&recording) }
        return recording
    }

    // MARK: Points

    static func readPoints(_ root: JSONValue, file: String) throws(InputError) -> InkRecording {
        guard let elements = root.arrayValue, !elements.isEmpty else {
            throw InputError(file: file, location: root.location,
                             message: "expected an array of [x, y, pressure, t] points, found \(root.briefDescription)")
        }
        // One stroke of points, or an array of strokes: decided by the first point found.
        let nested = elements.first { !($0.arrayValue?.isEmpty ?? false) }?.arrayValue?.first?.arrayValue != nil
        var recording = InkRecording()
        if nested {
            for (i, strokeValue) in elements.enumerated() {
                guard let points = strokeValue.arrayValue else {
                    throw InputError(file: file, location: strokeValue.location,
                                     message: "[\(i)]: expected a stroke (an array of [x, y, pressure, t] points) like the others, found \(strokeValue.briefDescription)")
                }
                var samples: [PointerSample] = []
                for (j, p) in points.enumerated() {
                    samples.append(try point(p, path: "[\(i)][\(j)]", file: file))
                }
                recording.samplesRead += samples.count
                // An empty stroke has nothing to draw.
                if !samples.isEmpty {
                    recording.strokes.append(InkStroke(pointerType: nil, samples: samples, location: strokeValue.location))
                }
            }
        } else {
            var samples: [PointerSample] = []
            for (j, p) in elements.enumerated() {
                samples.append(try point(p, path: "[\(j)]", file: file))
            }
            recording.samplesRead = samples.count
            recording.strokes = [InkStroke(pointerType: nil, samples: samples, location: root.location)]
        }
        applyMouseRule(&recording)
        return recording
    }

    /// `[x, y]`, `[x, y, pressure]` or `[x, y, pressure, t]`.
    private static func point(_ value: JSONValue, path: String, file: String) throws(InputError) -> PointerSample {
        guard let a = value.arrayValue else {
            throw InputError(file: file, location: value.location,
                             message: "\(path): expected a point [x, y, pressure, t], found \(value.briefDescription)",
                             hint: "every point of a stroke is an array of 2 to 4 numbers")
        }
        guard (2...4).contains(a.count) else {
            throw InputError(file: file, location: value.location,
                             message: "\(path): expected a point [x, y, pressure, t] of 2 to 4 numbers, found \(a.count) value\(a.count == 1 ? "" : "s")")
        }
        var s = PointerSample(x: try number(a[0], path + "[0]", file: file),
                              y: try number(a[1], path + "[1]", file: file), location: value.location)
        if a.count > 2 {
            s.pressure = try ranged(a[2], path + "[2]", 0, 1, file: file,
                                    hint: "the third value of a point is the pressure, normalised to [0, 1]")
        }
        if a.count > 3 {
            s.timeStamp = try optionalNumber(a[3], path + "[3]", file: file)
        }
        s.buttons = 1
        return s
    }

    /// The mouse rule: tools that record a mouse write the Pointer Events stand-in pressure,
    /// 0.5, for every point. When every ink sample has a pressure of exactly 0.5 the strokes
    /// are marked `mouse`, so the host does not take 0.5 for measured pressure.
    static func applyMouseRule(_ recording: inout InkRecording) {
        let samples = recording.strokes.flatMap(\.samples)
        guard !samples.isEmpty, samples.allSatisfy({ $0.pressure == 0.5 }) else { return }
        for i in recording.strokes.indices where recording.strokes[i].pointerType == nil {
            recording.strokes[i].pointerType = "mouse"
        }
    }

    // MARK: Values

    private static func literal(_ v: JSONValue) -> String {
        if case .number(let n) = v.kind { return n.literal }
        return v.briefDescription
    }

    private static func number(_ v: JSONValue, _ path: String, file: String) throws(InputError) -> Double {
        guard let d = v.doubleValue else {
            throw InputError(file: file, location: v.location, message: "\(path): expected a number, found \(v.briefDescription)")
        }
        return d
    }

    /// A number, or `nil` for JSON `null` (a field the browser did not report).
    private static func optionalNumber(_ v: JSONValue, _ path: String, file: String) throws(InputError) -> Double? {
        if case .null = v.kind { return nil }
        return try number(v, path, file: file)
    }

    private static func ranged(_ v: JSONValue, _ path: String, _ low: Double, _ high: Double, file: String,
                               hint: String? = nil) throws(InputError) -> Double? {
        guard let d = try optionalNumber(v, path, file: file) else { return nil }
        guard d >= low, d <= high else {
            let range = high == .greatestFiniteMagnitude ? "a number >= \(format(low))" : "a number in [\(format(low)), \(format(high))]"
            throw InputError(file: file, location: v.location, message: "\(path): expected \(range), found \(literal(v))", hint: hint)
        }
        return d
    }

    private static func format(_ d: Double) -> String {
        if d == Double.pi / 2 { return "π/2" }
        if d == 2 * Double.pi { return "2π" }
        return d.rounded() == d ? String(Int(d)) : String(d)
    }

    private static func pointerType(_ s: String, at location: SourceLocation, path: String, file: String) throws(InputError) -> String? {
        switch s {
        case "mouse", "pen", "touch", "eraser": return s
        case "": return nil
        default:
            throw InputError(file: file, location: location,
                             message: "\(path): expected \"mouse\", \"pen\", \"touch\" or \"eraser\", found \(JSONValue.quoted(s, limit: 40))")
        }
    }
}
