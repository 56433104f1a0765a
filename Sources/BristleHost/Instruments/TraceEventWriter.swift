/// Writes a ``HookTimeline`` in the Trace Event Format that Chrome's `about:tracing` and
/// Perfetto (ui.perfetto.dev) open: a JSON object whose `traceEvents` are complete events
/// (`"ph": "X"`) with `ts` and `dur` in microseconds, on one track, so that a draw's service
/// calls nest under it (`cat` tells `hook` from `service`), each with its arguments in `args`:
/// samples, layer, parameter, status, the dirty rectangles a draw reported (or a service
/// returned) and their area, the pixels a draw changed.
public enum TraceEventWriter {
    /// The trace as JSON text, events in the order they started.
    public static func text(_ timeline: HookTimeline, brushLabel: String = "bristle") -> String {
        var out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n"
        out += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \(JSONValue.quoted(brushLabel))}},\n"
        out += "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"hooks and services\"}}"
        let ordered = timeline.calls.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        for (_, call) in ordered {
            out += ",\n" + event(call)
        }
        return out + "\n]}\n"
    }

    /// Writes ``text(_:brushLabel:)`` to `path` atomically (a failure leaves no file).
    public static func write(_ timeline: HookTimeline, brushLabel: String = "bristle",
                             to path: String) throws(AtomicFileWriter.Failure) {
        try AtomicFileWriter.write(Array(text(timeline, brushLabel: brushLabel).utf8), to: path)
    }

    private static func event(_ call: HookCall) -> String {
        var args: [String] = []
        if call.samples > 0 { args.append("\"samples\": \(call.samples)") }
        if let layer = call.layer { args.append("\"layer\": \(JSONValue.quoted(layer))") }
        if let parameter = call.parameter { args.append("\"parameter\": \(JSONValue.quoted(parameter))") }
        if let status = call.status { args.append("\"status\": \(status)") }
        if call.kind == .service || call.name == "draw" {
            let rects = call.reported.map { "[\($0.x), \($0.y), \($0.width), \($0.height)]" }
            args.append("\"dirty\": [\(rects.joined(separator: ", "))]")
            args.append("\"dirtyPixels\": \(call.reportedPixels)")
        }
        if let changed = call.changedPixels { args.append("\"changedPixels\": \(changed)") }
        return "{\"name\": \(JSONValue.quoted(call.name)), \"cat\": \"\(call.kind.rawValue)\", \"ph\": \"X\", "
            + "\"pid\": 1, \"tid\": 1, \"ts\": \(microseconds(call.start)), "
            + "\"dur\": \(microseconds(call.duration)), \"args\": {\(args.joined(separator: ", "))}}"
    }

    /// Nanoseconds as microseconds with three decimals (the format's unit, nanosecond detail).
    private static func microseconds(_ ns: UInt64) -> String {
        let fraction = ns % 1000
        let digits = String(fraction)
        return "\(ns / 1000)." + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
