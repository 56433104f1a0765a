import Glibc

/// The standard test sheet of `bristle sheet`: synthetic pen input, one row per behaviour a
/// brush author wants to see, written as a native stroke script (docs/stroke-format.md) so
/// that it replays anywhere (`bristle render`). Every number here is documented in
/// docs/guides/see-your-brush.md; changing one changes every sheet's golden image.
///
/// The canvas is ``canvasWidth`` x ``canvasHeight``, white, scale 1; each row is
/// ``rowHeight`` pixels tall and its strokes stay inside it. Samples are 8 ms apart unless a
/// row says otherwise.
public enum StandardSheet {
    public static let canvasWidth = 640
    public static let rowHeight = 56
    /// The rows, top to bottom: their labels.
    public static let rows = [
        "PRESSURE 0>1", "SPEED SLOW>FAST", "DIRECTION X16", "TILT ALTITUDE", "TILT AZIMUTH",
        "DWELL", "TINY + TAPS", "MOUSE", "FINGER", "COALESCED+PRED", "CANCELLED",
    ]
    public static var canvasHeight: Int { rows.count * rowHeight }
    /// The stroke width of the sheet's brush, in points, and its colour.
    public static let strokeWidth = 6.0
    public static let color = "#202020"

    /// The brush the sheet is drawn with: an id, or the path of a plugin `.so` (a path is
    /// written as given; `bristle sheet` makes it absolute).
    public struct BrushChoice: Sendable {
        public var idOrPath: String
        /// With a path: the brush's id, for a library holding several.
        public var id: String?
        /// `NAME=VALUE` pairs, written as strings the brush parses.
        public var parameters: [(name: String, value: String)]
        public init(idOrPath: String, id: String? = nil, parameters: [(name: String, value: String)] = []) {
            self.idOrPath = idOrPath
            self.id = id
            self.parameters = parameters
        }
    }

    /// The sheet's input through `brush`, as the text of a stroke script.
    public static func script(brush: BrushChoice) -> String {
        let key = Paths.namesAFile(brush.idOrPath) ? "path" : "id"
        let params = brush.parameters.map { "\(JSONValue.quoted($0.name)): \(JSONValue.quoted($0.value))" }
        let id = key == "path" ? brush.id.map { ", \"id\": " + JSONValue.quoted($0) } ?? "" : ""
        var actions = ["{\"brush\": {\(JSONValue.quoted(key)): \(JSONValue.quoted(brush.idOrPath))\(id), \"color\": \"\(color)\", "
                       + "\"width\": \(number(strokeWidth)), \"params\": {\(params.joined(separator: ", "))}}}"]
        actions += strokes().map { "{\"stroke\": \($0)}" }
        return "{\"canvas\": {\"width\": \(canvasWidth), \"height\": \(canvasHeight), \"scale\": 1, \"background\": \"#ffffff\"},\n"
            + "\"actions\": [\n" + actions.joined(separator: ",\n") + "\n]}\n"
    }

    /// One sample's members.
    private typealias Sample = [(String, Double)]

    /// The strokes of every row, as JSON objects.
    static func strokes() -> [String] {
        var out: [String] = []
        func y(_ row: Int) -> Double { Double(row * rowHeight + rowHeight / 2) }
        func stroke(_ events: [Sample], type: String = "pen", cancelled: Bool = false) {
            out.append("{\"pointerType\": \"\(type)\"" + (cancelled ? ", \"cancelled\": true" : "")
                       + ", \"events\": [" + events.map(object).joined(separator: ", ") + "]}")
        }
        func pen(_ x: Double, _ y: Double, _ pressure: Double, _ t: Double, _ more: Sample = []) -> Sample {
            [("x", x), ("y", y), ("pressure", pressure)] + more + [("timeStamp", t)]
        }
        func wave(_ row: Int, _ i: Int, _ n: Int) -> (Double, Double) {
            let f = Double(i) / Double(n - 1)
            return (20 + 600 * f, y(row) + 14 * sin(f * 4 * .pi))
        }
        // 0: pressure 0 -> 1 at constant speed (10 px per 8 ms).
        stroke((0...60).map { (i: Int) -> Sample in
            let f = Double(i)
            return pen(20 + 10 * f, y(0), f / 60, 8 * f)
        })
        // 1: speed slow -> fast at pressure 0.6: the step grows from 0.5 px to about 24 px per 8 ms.
        var speed: [Sample] = []
        var x = 20.0, step = 0.5, t = 0.0
        while x <= 620 {
            speed.append([("x", x), ("y", y(1)), ("pressure", 0.6), ("timeStamp", t)])
            x += step; step *= 1.1; t += 8
        }
        stroke(speed)
        // 2: 16 directions, each a 28 px stroke through the centre of a 40 px cell.
        for k in 0..<16 {
            let a = Double(k) / 16 * 2 * .pi, cx = 20 + 40 * Double(k), cy = y(2)
            stroke((0...7).map { i in
                let f = Double(i) / 7 * 28 - 14
                return [("x", cx + f * cos(a)), ("y", cy + f * sin(a)), ("pressure", 0.6), ("timeStamp", 8 * Double(i))]
            })
        }
        // 3: altitude from perpendicular (1.57 rad) down to 0.1 rad, azimuth 0 (pointing right).
        stroke((0...60).map { (i: Int) -> Sample in
            let f = Double(i)
            let altitude: Double = 1.57 - 1.47 * f / 60
            return pen(20 + 10 * f, y(3), 0.6, 8 * f, [("altitudeAngle", altitude), ("azimuthAngle", 0)])
        })
        // 4: azimuth once around (0 -> 6.2 rad) at altitude 0.5 rad.
        stroke((0...60).map { (i: Int) -> Sample in
            let f = Double(i)
            return pen(20 + 10 * f, y(4), 0.6, 8 * f, [("altitudeAngle", 0.5), ("azimuthAngle", 6.2 * f / 60)])
        })
        // 5: dwell: the pen rests 0, 100, 250, 500 and 1000 ms (a sample every 8 ms at the same
        // place), then moves 60 px right.
        for (k, rest) in [0.0, 100, 250, 500, 1000].enumerated() {
            let x0 = 30 + 120 * Double(k)
            var events: [Sample] = []
            var t = 0.0
            repeat {
                events.append([("x", x0), ("y", y(5)), ("pressure", 0.6), ("timeStamp", t)])
                t += 8
            } while t <= rest
            for i in 1...6 { events.append([("x", x0 + 10 * Double(i)), ("y", y(5)), ("pressure", 0.6), ("timeStamp", t + 8 * Double(i))]) }
            stroke(events)
        }
        // 6: tiny strokes 0.5, 1, 2, 4 and 8 px long, then single taps at pressure 0.2, 0.5, 1.
        for (k, length) in [0.5, 1, 2, 4, 8].enumerated() {
            let x0 = 40 + 60 * Double(k)
            stroke([[("x", x0), ("y", y(6)), ("pressure", 0.6), ("timeStamp", 0)],
                    [("x", x0 + length), ("y", y(6)), ("pressure", 0.6), ("timeStamp", 8)]])
        }
        for (k, pressure) in [0.2, 0.5, 1].enumerated() {
            stroke([[("x", 380 + 80 * Double(k)), ("y", y(6)), ("pressure", pressure), ("timeStamp", 0)]])
        }
        // 7: a mouse: a wave with no pressure, tilt or twist.
        stroke((0..<61).map { i in let p = wave(7, i, 61); return [("x", p.0), ("y", p.1), ("timeStamp", 8 * Double(i))] }, type: "mouse")
        // 8: a finger: the wave with pressure 0.5 and a 12 x 12 px contact.
        stroke((0..<61).map { i in
            let p = wave(8, i, 61)
            return [("x", p.0), ("y", p.1), ("pressure", 0.5), ("width", 12), ("height", 12), ("timeStamp", 8 * Double(i))]
        }, type: "touch")
        // 9: coalesced and predicted: 15 events of 4 coalesced samples each (2 ms apart) and 3
        // predicted samples 10 px apart ahead of the event along the wave's direction.
        let n = 61
        out.append("{\"pointerType\": \"pen\", \"events\": [" + stride(from: 0, to: n, by: 4).map { first -> String in
            let last = min(first + 3, n - 1)
            let samples = (first...last).map { i -> Sample in
                let p = wave(9, i, n)
                return [("x", p.0), ("y", p.1), ("pressure", 0.6), ("timeStamp", 2 * Double(i))]
            }
            let p = wave(9, last, n), q = wave(9, max(last - 1, 0), n)
            let d = hypot(p.0 - q.0, p.1 - q.1), ux = d > 0 ? (p.0 - q.0) / d : 1, uy = d > 0 ? (p.1 - q.1) / d : 0
            let predicted = (1...3).map { k -> Sample in
                [("x", p.0 + 10 * Double(k) * ux), ("y", p.1 + 10 * Double(k) * uy), ("pressure", 0.6), ("timeStamp", 2 * Double(last) + 4 * Double(k))]
            }
            let members = samples.last!.map { "\(JSONValue.quoted($0.0)): \(number($0.1))" }
                + ["\"coalesced\": [" + samples.map(object).joined(separator: ", ") + "]",
                   "\"predicted\": [" + predicted.map(object).joined(separator: ", ") + "]"]
            return "{" + members.joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "]}")
        // 10: a cancelled stroke: the wave, ended by pointercancel (the row stays blank).
        stroke((0..<61).map { i in let p = wave(10, i, 61); return [("x", p.0), ("y", p.1), ("pressure", 0.6), ("timeStamp", 8 * Double(i))] },
               cancelled: true)
        return out
    }

    private static func object(_ sample: Sample) -> String {
        "{" + sample.map { "\(JSONValue.quoted($0.0)): \(number($0.1))" }.joined(separator: ", ") + "}"
    }

    /// `v` rounded to 1/1000, without a needless fraction.
    static func number(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}
