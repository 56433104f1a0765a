/// The session so far as a stroke script (docs/stroke-format.md): `GET /api/recording.json`,
/// and what a fresh worker renders to rebuild the session. Each action is kept as the very
/// JSON text the worker played, so `bristle render` reads the same values.
struct PlayRecording {
    private enum Entry {
        case text(String)
        case ticks(Int)
    }

    /// The `canvas` object.
    let canvas: String
    private var entries: [Entry] = []

    init(width: Int, height: Int, background: String) {
        canvas = JSONText.object([("width", JSONText.number(Double(width))), ("height", JSONText.number(Double(height))),
                                  ("background", JSONText.string(background))])
    }

    /// Appends one action (its JSON text).
    mutating func append(_ action: String) { entries.append(.text(action)) }

    /// Appends one tick, merged into the `ticks` action just before it.
    mutating func appendTick() {
        if case .ticks(let n) = entries.last {
            entries[entries.count - 1] = .ticks(n + 1)
        } else {
            entries.append(.ticks(1))
        }
    }

    /// A stroke action from its events' JSON texts.
    static func stroke(pointerType: String, events: [String], cancelled: Bool) -> String {
        "{\"stroke\": {\"pointerType\": \(JSONText.string(pointerType))"
            + (cancelled ? ", \"cancelled\": true" : "")
            + ", \"events\": [\n    " + events.joined(separator: ",\n    ") + "]}}"
    }

    /// The whole script.
    var text: String {
        let actions = entries.map { entry -> String in
            switch entry {
            case .text(let t): return t
            case .ticks(let n): return "{\"ticks\": \(n)}"
            }
        }
        return "{\n\"canvas\": \(canvas),\n\"actions\": [\n  " + actions.joined(separator: ",\n  ") + "\n]\n}\n"
    }
}
