import BristleHost
import Glibc

/// The stroke scripts of the script cases (``ScriptCase``), generated as JSON text: the
/// hostile workloads of issue 15 (strokes covering the canvas undone and redone, clears, a
/// dense zig-zag, strokes at the maximum width, a stroke of a million samples). Every script
/// is deterministic; `fraction` (``BenchOptions/segments`` over the workload's 9,999) shrinks
/// the counts for quick checks, and the canvas of the covering strokes.
enum BenchScripts {
    /// A generated script: its text, and how many items the case counts.
    struct Script {
        var json: String
        var items: Int
    }

    /// `{"x": X, "y": Y, "pressure": 0.5, "timeStamp": T}` for each point, comma-separated,
    /// appended to one string (a million events are not held as a million strings).
    private static func events(_ points: [(Double, Double)]) -> String {
        var text = ""
        text.reserveCapacity(points.count * 64)
        for (i, p) in points.enumerated() {
            if i > 0 { text += "," }
            text += "{\"x\":\(p.0),\"y\":\(p.1),\"pressure\":0.5,\"timeStamp\":\(i)}"
        }
        return text
    }

    private static func stroke(_ points: [(Double, Double)], pointerType: String = "pen") -> String {
        "{\"stroke\":{\"pointerType\":\"\(pointerType)\",\"events\":[\(events(points))]}}"
    }

    private static func document(_ width: Int, _ height: Int, _ actions: [String]) -> String {
        "{\"canvas\":{\"width\":\(width),\"height\":\(height)},\"actions\":[\(actions.joined(separator: ","))]}"
    }

    private static func count(_ full: Int, _ fraction: Double) -> Int { max(1, Int((Double(full) * fraction).rounded())) }

    /// Four half-transparent pencil strokes 800 points wide, zig-zagging over a 4096x3072
    /// canvas (each covers it), then `pairs` of `undo 1`, `redo 1`. Quick checks (`scale` < 1)
    /// shrink the canvas and the strokes by `scale`.
    static func coveringStrokes(undoRedoPairs pairs: Int, scale: Double = 1) -> Script {
        let w = Double(max(64, Int(4096 * scale))), h = Double(max(48, Int(3072 * scale))), step = h / 5
        var zigzag: [(Double, Double)] = []
        for row in 0...6 {
            let y = Double(row) * step
            zigzag += row % 2 == 0 ? [(0, y), (w, y)] : [(w, y), (0, y)]
        }
        let actions = ["{\"brush\":{\"id\":\"org.bristle.pencil\",\"width\":\(800 * w / 4096),\"params\":{\"opacity\":0.5}}}"]
            + Array(repeating: stroke(zigzag, pointerType: "mouse"), count: 4)
            + Array(repeating: "{\"undo\":1},{\"redo\":1}", count: pairs)
        return Script(json: document(Int(w), Int(h), actions), items: pairs == 0 ? 4 : 2 * pairs)
    }

    /// One stroke on a 4096x3072 canvas, then `clears` clears.
    static func clears(_ clears: Int) -> Script {
        let actions = [stroke([(10, 10), (3000, 2000)])] + Array(repeating: "{\"clear\":true}", count: clears)
        return Script(json: document(4096, 3072, actions), items: clears)
    }

    /// `samples` samples zig-zagging 20 px left and right while moving down a quarter pixel
    /// each (a dense scribble), one per event, through `brush` 60 points wide, on 2048x2048.
    static func zigzag(_ brush: String, samples: Int) -> Script {
        let points = (0..<samples).map { i -> (Double, Double) in
            let x: Double = 200 + Double(i % 2) * 20
            return (x, 200 + Double(i) * 0.25)
        }
        let actions = ["{\"brush\":{\"id\":\"\(brush)\",\"width\":60}}", stroke(points)]
        return Script(json: document(2048, 2048, actions), items: samples)
    }

    /// A pencil stroke across a 1024x768 canvas, then `events` events of `brush` at the
    /// largest width (10,000 points) circling over it.
    static func maximumWidth(_ brush: String, events: Int) -> Script {
        let points = (0..<events).map { i -> (Double, Double) in
            let x: Double = 512 + 300 * cos(Double(i) / 10)
            let y: Double = 384 + 200 * sin(Double(i) / 7)
            return (x, y)
        }
        let actions = ["{\"brush\":{\"id\":\"org.bristle.pencil\",\"width\":50}}", stroke([(10, 10), (1000, 700)]),
                       "{\"brush\":{\"id\":\"\(brush)\",\"width\":10000}}", stroke(points, pointerType: "mouse")]
        return Script(json: document(1024, 768, actions), items: events)
    }

    /// The ellipse tool rubber-banding for `events` events on 1024x768: `around`, a circle of
    /// radius about `radius` centred on the canvas (which lies inside the ring when the radius
    /// exceeds 640); otherwise a circle of radius about `radius / 2` whose leftmost point stays
    /// at x = 100, so the outline crosses the canvas. Coordinates stay within the 1e7 bound.
    static func ellipse(radius: Double, around: Bool, events: Int) -> Script {
        let start: (Double, Double) = around ? (512 - radius, 384 - radius) : (100, 384 - radius / 2)
        let end: (Double, Double) = around ? (512 + radius, 384 + radius) : (100 + radius, 384 + radius / 2)
        var points = [start]
        for i in 0..<events {
            let shrink = Double(i) * 0.5
            points.append(around ? (end.0 - shrink, end.1) : (end.0, end.1 + shrink))
        }
        let actions = ["{\"brush\":{\"id\":\"org.bristle.ellipse\",\"width\":4}}", stroke(points, pointerType: "mouse")]
        return Script(json: document(1024, 768, actions), items: events)
    }

    /// One stroke of `samples` samples, one per event, sweeping a 2048x1536 canvas row by row.
    static func longStroke(samples: Int) -> Script {
        let points = (0..<samples).map { i -> (Double, Double) in
            let x: Double = 100 + Double(i % 2000) * 0.9
            return (x, 100 + Double(i / 2000) * 1.5)
        }
        return Script(json: document(2048, 1536, [stroke(points)]), items: samples)
    }

    /// The case table rows of the script cases.
    static let entries: [BenchRegistry.Entry] = [
        entry("script_covering_strokes_4096x3072",
              "4 pencil strokes each covering 4096x3072 (the baseline of the undo/redo case)") { f in
            coveringStrokes(undoRedoPairs: 0, scale: min(1, f * 10))
        },
        entry("script_undo_redo_500_pairs_4096x3072",
              "the same strokes, then 500 undo/redo pairs (minus the baseline: their cost)", item: "action") { f in
            coveringStrokes(undoRedoPairs: count(500, f), scale: min(1, f * 10))
        },
        entry("script_clear_2000_4096x3072", "one stroke, then 2,000 clears of a 4096x3072 canvas", item: "clear") { f in
            clears(count(2000, f))
        },
        entry("script_zigzag_marker_w60", "5,000-sample dense zig-zag, one sample per event, marker 60 points wide",
              item: "sample") { f in zigzag("org.bristle.marker", samples: count(5000, f) + 1) },
        entry("script_zigzag_pencil_w60", "the same zig-zag through the pencil", item: "sample") { f in
            zigzag("org.bristle.pencil", samples: count(5000, f) + 1)
        },
        entry("script_max_width_pencil", "200 events of the pencil at the largest width (10,000 points), 1024x768",
              item: "event") { f in maximumWidth("org.bristle.pencil", events: count(200, f) + 1) },
        entry("script_max_width_eraser", "the same with the eraser", item: "event") { f in
            maximumWidth("org.bristle.eraser", events: count(200, f) + 1)
        },
        entry("script_max_width_marker", "the same with the marker", item: "event") { f in
            maximumWidth("org.bristle.marker", events: count(200, f) + 1)
        },
        entry("script_ellipse_around_r1e3", "200 events of the ellipse tool, a circle of radius 1,000 around a 1024x768 canvas",
              item: "event") { f in ellipse(radius: 1e3, around: true, events: count(200, f)) },
        entry("script_ellipse_around_r1e7", "the same circle with radius 10,000,000 (clipped: costs what radius 1,000 does)",
              item: "event") { f in ellipse(radius: 1e7 - 512, around: true, events: count(200, f)) },
        entry("script_ellipse_across_r1e3", "200 events of the ellipse tool, a circle of radius 1,000 whose outline crosses the canvas",
              item: "event") { f in ellipse(radius: 2e3, around: false, events: count(200, f)) },
        entry("script_ellipse_across_r5e6", "the same circle with radius 5,000,000",
              item: "event") { f in ellipse(radius: 1e7 - 100, around: false, events: count(200, f)) },
        entry("script_long_stroke_250k", "one stroke of 250,000 samples: parse and render (linear time: compare ns per sample with 1m)",
              item: "sample") { f in longStroke(samples: count(250_000, f) + 1) },
        entry("script_long_stroke_1m", "one stroke of 1,000,000 samples: parse and render; adds the process's peak memory",
              item: "sample") { f in longStroke(samples: count(1_000_000, f) + 1) },
    ]

    private static func entry(_ name: String, _ summary: String, item: String = "stroke",
                              _ script: @escaping @Sendable (Double) -> Script) -> BenchRegistry.Entry {
        BenchRegistry.Entry(name: name, summary: summary, make: { o throws(BenchError) in
            ScriptCase(name: name, item: item,
                       script: script(Double(o.segments) / Double(BenchWorkload.sampleCount - 1)))
        })
    }
}
