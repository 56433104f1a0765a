/// Reads the plain-text tablet captures of handwriting data sets: BDALab's and SVC2004's
/// `.svc` files (and PaHaW, HandAQUS and similar ones recorded the same way).
///
/// The first line is the number of rows; each row is `x y timestamp [button [azimuth altitude
/// [pressure]]]`, white-space separated. `x` and `y` are device units, y growing upward as on
/// the tablet (flipped for the canvas, then fitted like every recording), the timestamp is milliseconds (made relative to the first row), the
/// button is 1 for pen on paper and 0 for pen up, azimuth and altitude are degrees (tenths
/// of a degree when any azimuth exceeds 360 or any altitude 90, as BDALab's captures write
/// them), and the pressure is device levels, normalised by the first of the device ranges
/// ``pressureRanges`` that holds the file's largest pressure, else by that largest. Rows with button 0 are hover: they end
/// the stroke before them and are never drawn. A file with fewer rows than its count says is
/// read as it is, and so is one with more (the count tells the format, nothing more).
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
        guard let first = lines.first, (Int(first.text.trimmingCharacters(in: .whitespaces)) ?? -1) >= 0 else {
            throw InputError(file: file, location: SourceLocation(line: lines.first?.number ?? 1, column: 1),
                             message: "expected the number of rows on the first line of the SVC capture, found \"\(lines.first?.text ?? "")\"")
        }
        // The count only tells the format: real captures disagree with it by a row or so
        // (BDALab's example says 606 and has 607), and every row is read.
        let rows = lines.dropFirst()
        var parsed: [(line: Int, values: [Double])] = []
        parsed.reserveCapacity(rows.count)
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
            parsed.append((row.number, values.map { $0! }))
        }
        // SVC2004 writes whole degrees (azimuth 0...359, altitude 0...90); BDALab's WinTab
        // captures write tenths (0...3600, 0...900).
        let angles = parsed.filter { $0.values.count >= 6 }
        let tenths = angles.contains { $0.values[4] > 360 || $0.values[5] > 90 }
        let degreesPerUnit = tenths ? 0.1 : 1
        let largest = parsed.reduce(0.0) { $1.values.count >= 7 ? max($0, $1.values[6]) : $0 }
        let range = Self.pressureRanges.first { largest <= $0 } ?? largest

        var recording = InkRecording()
        var current: InkStroke? = nil
        let firstTime = parsed.first?.values[2] ?? 0
        for (line, v) in parsed {
            // Tablet y grows upward (WinTab's origin is the bottom-left corner); the canvas's down.
            var s = PointerSample(x: v[0], y: -v[1], location: SourceLocation(line: line, column: 1))
            s.timeStamp = v[2] - firstTime
            if v.count >= 6 {
                s.azimuthAngle = InkUnits.azimuth(radians: v[4] * degreesPerUnit * .pi / 180)
                s.altitudeAngle = InkUnits.altitude(radians: v[5] * degreesPerUnit * .pi / 180)
            }
            if v.count >= 7 && range > 0 { s.pressure = InkUnits.unit(max(v[6], 0) / range) }
            recording.samplesRead += 1
            guard v.count < 4 || v[3] != 0 else {
                // Pen up: hover, which ends the stroke in progress.
                if let stroke = current { recording.strokes.append(stroke) }
                current = nil
                s.pressure = nil
                recording.hover.append(s)
                continue
            }
            s.buttons = 1
            if current == nil { current = InkStroke(pointerType: "pen", samples: [], location: s.location) }
            current!.samples.append(s)
        }
        if let stroke = current { recording.strokes.append(stroke) }
        return recording
    }

    /// The pressure ranges of the tablets these data sets were recorded with: 1024 levels
    /// (SVC2004), 2048, and WinTab's 0...32767 (BDALab's Wacom Cintiq).
    static let pressureRanges: [Double] = [1024, 2048, 32767]

    private static let fieldNames = ["x", "y", "timestamp", "button", "azimuth", "altitude", "pressure"]

    private static func fieldTexts(_ line: String) -> [Substring] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == ";" })
    }

    /// The fields of a row as numbers (nil for one that is not a finite number).
    private static func numbers(_ line: String) -> [Double?] {
        fieldTexts(line).map { text in Double(text).flatMap { $0.isFinite ? $0 : nil } }
    }
}
