import Foundation

/// Reads the raw sensor CSV that Wacom's Universal Ink Library exports:
/// `idx,SPLINE_X,SPLINE_Y,SENSOR_TIMESTAMP,SENSOR_PRESSURE,SENSOR_ALTITUDE,SENSOR_AZIMUTH`.
///
/// Columns are found by name in the header (any order; letter case ignored); only
/// `SPLINE_X` and `SPLINE_Y` are required, and other columns are ignored. Consecutive rows
/// with the same `idx` form one stroke. `SENSOR_TIMESTAMP` is epoch milliseconds, made
/// relative to the first row; pressure is clamped into [0, 1]; altitude (radians) is clamped
/// into [0, π/2] and azimuth (radians) folded into [0, 2π). Every sample is pen contact.
enum WacomCSVReader {
    private enum Column: String, CaseIterable {
        case idx = "IDX", x = "SPLINE_X", y = "SPLINE_Y", time = "SENSOR_TIMESTAMP"
        case pressure = "SENSOR_PRESSURE", altitude = "SENSOR_ALTITUDE", azimuth = "SENSOR_AZIMUTH"
    }

    /// A field of a row: its text (unquoted) and its 1-based column in the line.
    struct Field {
        var text: String
        var column: Int
    }

    static func read(_ bytes: [UInt8], file: String) throws(InputError) -> InkRecording {
        let lines = splitLines(bytes)
        guard let header = lines.first else {
            throw InputError(file: file, location: SourceLocation(line: 1, column: 1),
                             message: "expected a CSV header with SPLINE_X and SPLINE_Y, found an empty file")
        }
        let names = try fields(of: header.text, line: 1, file: file)
        var index: [Column: Int] = [:]
        for (i, f) in names.enumerated() {
            let name = f.text.trimmingCharacters(in: .whitespaces).uppercased()
            guard let column = Column(rawValue: name) else { continue }
            if index[column] != nil {
                throw InputError(file: file, location: SourceLocation(line: 1, column: f.column),
                                 message: "expected each column once in the header, found \(column.rawValue) twice")
            }
            index[column] = i
        }
        for required in [Column.x, .y] where index[required] == nil {
            throw InputError(file: file, location: SourceLocation(line: 1, column: 1),
                             message: "expected a \(required.rawValue) column in the CSV header, found \(names.map(\.text).joined(separator: ","))",
                             hint: "the Wacom sensor CSV header is idx,SPLINE_X,SPLINE_Y,SENSOR_TIMESTAMP,SENSOR_PRESSURE,SENSOR_ALTITUDE,SENSOR_AZIMUTH")
        }

        var recording = InkRecording()
        var current: InkStroke? = nil
        var currentIdx: Double? = nil
        var firstTime: Double? = nil
        for line in lines.dropFirst() {
            if line.text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let row = try fields(of: line.text, line: line.number, file: file)
            guard row.count == names.count else {
                let column = row.count > names.count ? row[names.count].column : line.text.unicodeScalars.count + 1
                throw InputError(file: file, location: SourceLocation(line: line.number, column: column),
                                 message: "expected \(names.count) fields, like the header, found \(row.count)",
                                 hint: "every row has one field per header column, separated by commas")
            }
            func value(_ c: Column, required: Bool = false) throws(InputError) -> Double? {
                guard let i = index[c] else { return nil }
                let f = row[i]
                let text = f.text.trimmingCharacters(in: .whitespaces)
                if text.isEmpty && !required { return nil }
                guard let v = Double(text), v.isFinite, !text.lowercased().contains("x") else {
                    throw InputError(file: file, location: SourceLocation(line: line.number, column: f.column),
                                     message: "\(names[i].text) (field \(i + 1)): expected a number, found \(text.isEmpty ? "an empty field" : "\"\(text)\"")")
                }
                return v
            }
            let x = try value(.x, required: true)!
            let y = try value(.y, required: true)!
            var s = PointerSample(x: x, y: y, location: SourceLocation(line: line.number, column: 1))
            if let t = try value(.time) {
                if firstTime == nil { firstTime = t }
                s.timeStamp = t - firstTime!
            }
            s.pressure = try value(.pressure).map(InkUnits.unit)
            s.altitudeAngle = try value(.altitude).map { InkUnits.altitude(radians: $0) }
            s.azimuthAngle = try value(.azimuth).map { InkUnits.azimuth(radians: $0) }
            s.buttons = 1
            let idx = try value(.idx)
            recording.samplesRead += 1
            if current == nil || idx != currentIdx {
                if let stroke = current { recording.strokes.append(stroke) }
                current = InkStroke(pointerType: "pen", samples: [], location: s.location)
                currentIdx = idx
            }
            current!.samples.append(s)
        }
        if let stroke = current { recording.strokes.append(stroke) }
        return recording
    }

    /// The lines of `bytes` (LF, CR LF or CR), numbered from 1, without a UTF-8 byte-order mark.
    static func splitLines(_ bytes: [UInt8]) -> [(number: Int, text: String)] {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var lines: [(Int, String)] = []
        var number = 1
        var current = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pendingCR = false
        while let c = scalars.next() {
            if pendingCR {
                pendingCR = false
                if c == "\n" { continue }
            }
            if c == "\n" || c == "\r" {
                lines.append((number, current))
                number += 1
                current = ""
                pendingCR = c == "\r"
            } else {
                current.unicodeScalars.append(c)
            }
        }
        if !current.isEmpty { lines.append((number, current)) }
        return lines
    }

    /// The fields of one CSV line: comma-separated, optionally in double quotes (`""` is a
    /// quote inside quotes).
    static func fields(of line: String, line number: Int, file: String) throws(InputError) -> [Field] {
        let scalars = Array(line.unicodeScalars)
        var result: [Field] = []
        var i = 0
        while true {
            let start = i + 1
            var text = ""
            if i < scalars.count && scalars[i] == "\"" {
                i += 1
                var closed = false
                while i < scalars.count {
                    if scalars[i] == "\"" {
                        if i + 1 < scalars.count && scalars[i + 1] == "\"" {
                            text += "\""
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    text.unicodeScalars.append(scalars[i])
                    i += 1
                }
                guard closed else {
                    throw InputError(file: file, location: SourceLocation(line: number, column: start),
                                     message: "expected a closing '\"' for the quoted field, found the end of the line")
                }
                guard i >= scalars.count || scalars[i] == "," else {
                    throw InputError(file: file, location: SourceLocation(line: number, column: i + 1),
                                     message: "expected ',' after the quoted field, found '\(Character(scalars[i]))'")
                }
            } else {
                while i < scalars.count && scalars[i] != "," {
                    text.unicodeScalars.append(scalars[i])
                    i += 1
                }
            }
            result.append(Field(text: text, column: start))
            guard i < scalars.count else { break }
            i += 1 // the comma
        }
        return result
    }
}
