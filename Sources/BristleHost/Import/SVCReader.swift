/// Reads the plain-text tablet captures of handwriting data sets: BDALab's and SVC2004's
/// `.svc` files (and PaHaW, HandAQUS and similar ones recorded the same way).
///
/// The first line is the number of rows; each row is `x y timestamp [button [azimuth altitude
/// [pressure]]]`, white-space separated. `x` and `y` are device units (kept, then fitted like
/// every recording), the timestamp is milliseconds (made relative to the first row), the
/// button is 1 for pen on paper and 0 for pen up, azimuth and altitude are degrees, and the
/// pressure is device levels, normalised by the device's range: 1024 when no row exceeds it,
/// else 2048, else the largest pressure of the file. Rows with button 0 are hover: they end
/// the stroke before them and are never drawn. A file with fewer rows than its count says is
/// read as it is; more rows than the count is an error (the count is how the format is told).
enum SVCReader {
    /// Whether `bytes` look like an SVC capture: a first line holding one whole number, then a
    /// line of at least three numbers.
    static func looksLikeSVC(_ bytes: [UInt8]) -> Bool {
        let lines = WacomCSVReader.splitLines(Array(bytes.prefix(4096)))
            .filter { !$0.text.allSatisfy { $0 == " " || $0 == "\t" } }
        guard lines.count >= 2, let count = Int(lines[0].text.trimmingCharacters(in: .whitespaces)), count >= 0 else {
            return false
        }
        let fields = numbers(lines[1].text)
        return fields.count >= 3 && fields.allSatisfy { $0 != nil }
    }

    static func read(_ bytes: [UInt8], file: String) throws(InputError) -> InkRecording {
        let lines = WacomCSVReader.splitLines(bytes).filter { !$0.text.allSatisfy { $0 == " " || $0 == "\t" } }
        guard let first = lines.first, let declared = Int(first.text.trimmingCharacters(in: .whitespaces)), declared >= 0 else {
            throw InputError(file: file, location: SourceLocation(line: lines.first?.number ?? 1, column: 1),
                             message: "expected the number of rows on the first line of the SVC capture, found \"\(lines.first?.text ?? "")\"")
        }
        let rows = lines.dropFirst()
        if rows.count > declared {
            let extra = rows[rows.startIndex + declared]
            throw InputError(file: file, location: SourceLocation(line: extra.number, column: 1),
                             message: "expected \(declared) rows, as the first line says, found more",
                             hint: "the first line of an SVC file is its row count")
        }
        var recording = InkRecording()
        var current: InkStroke? = nil
        var firstTime: Double? = nil
        var pressures: [(stroke: Int, sample: Int, raw: Double)] = []
        for row in rows {
            let values = numbers(row.text)
            guard values.count >= 3 && values.count <= 7 else {
                throw InputError(file: file, location: SourceLocation(line: row.number, column: 1),
                                 message: "expected 3 to 7 numbers (x y timestamp button azimuth altitude pressure), found \(values.count)")
            }
            if let bad = values.firstIndex(where: { $0 == nil }) {
                throw InputError(file: file, location: SourceLocation(line: row.number, column: 1),
                                 message: "expected a number for field \(bad + 1) (\(fieldNames[bad])), found \"\(fieldTexts(row.text)[bad])\"")
            }
            let v = values.map { $0! }
            var s = PointerSample(x: v[0], y: v[1], location: SourceLocation(line: row.number, column: 1))
            if firstTime == nil { firstTime = v[2] }
            s.timeStamp = v[2] - firstTime!
            if v.count >= 6 {
                s.azimuthAngle = InkUnits.azimuth(radians: v[4] * .pi / 180)
                s.altitudeAngle = InkUnits.altitude(radians: v[5] * .pi / 180)
            }
            recording.samplesRead += 1
            let down = v.count < 4 || v[3] != 0
            guard down else {
                // Pen up: hover, which ends the stroke in progress.
                if let stroke = current { recording.strokes.append(stroke) }
                current = nil
                recording.hover.append(s)
                continue
            }
            s.buttons = 1
            if current == nil { current = InkStroke(pointerType: "pen", samples: [], location: s.location) }
            if v.count >= 7 { pressures.append((recording.strokes.count, current!.samples.count, max(v[6], 0))) }
            current!.samples.append(s)
        }
        if let stroke = current { recording.strokes.append(stroke) }
        let largest = pressures.reduce(0.0) { max($0, $1.raw) }
        let range = largest <= 1024 ? 1024 : largest <= 2048 ? 2048 : largest
        for p in pressures {
            recording.strokes[p.stroke].samples[p.sample].pressure = InkUnits.unit(p.raw / range)
        }
        return recording
    }

    private static let fieldNames = ["x", "y", "timestamp", "button", "azimuth", "altitude", "pressure"]

    private static func fieldTexts(_ line: String) -> [Substring] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == ";" })
    }

    /// The fields of a row as numbers (nil for one that is not a finite number).
    private static func numbers(_ line: String) -> [Double?] {
        fieldTexts(line).map { text in Double(text).flatMap { $0.isFinite ? $0 : nil } }
    }
}
