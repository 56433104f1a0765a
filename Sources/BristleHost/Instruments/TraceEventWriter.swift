/// Writes a ``HookTimeline`` in the Trace Event Format that Chrome's `about:tracing` and
/// Perfetto (ui.perfetto.dev) open: a JSON object whose `traceEvents` are complete events
/// (`"ph": "X"`) with `ts` and `dur` in microseconds, on one track, so that a draw's service
/// calls nest under it (`cat` tells `hook` from `service`), each with its arguments in `args`:
/// samples, layer, parameter, status, the dirty rectangles a draw reported (or a service
/// returned) and their area, the pixels a draw changed.
public enum TraceEventWriter {
    /// The trace as UTF-8 JSON, events in the order they started.
    public static func bytes(_ timeline: HookTimeline, brushLabel: String = "bristle") -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 * (timeline.calls.count + 2))
        put("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", into: &out)
        put("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": ", into: &out)
        out += JSONValue.quoted(brushLabel).utf8
        put("}},\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"hooks and services\"}}", into: &out)
        // Calls are recorded as they return: a draw after its services. Sorted by start (ties
        // in recording order), a draw comes before the calls it made.
        let calls = timeline.calls
        let order = calls.indices.sorted { (calls[$0].start, $0) < (calls[$1].start, $1) }
        for i in order {
            put(",\n", into: &out)
            event(calls[i], into: &out)
        }
        put("\n]}\n", into: &out)
        return out
    }

    /// Writes ``bytes(_:brushLabel:)`` to `path` atomically (a failure leaves no file).
    public static func write(_ timeline: HookTimeline, brushLabel: String = "bristle",
                             to path: String) throws(AtomicFileWriter.Failure) {
        try AtomicFileWriter.write(bytes(timeline, brushLabel: brushLabel), to: path)
    }

    private static func event(_ call: HookCall, into out: inout [UInt8]) {
        put("{\"name\": \"", into: &out)
        out += call.name.utf8  // the ABI's names: nothing to escape
        put(call.kind == .hook ? "\", \"cat\": \"hook\"" : "\", \"cat\": \"service\"", into: &out)
        put(", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": ", into: &out)
        microseconds(call.start, into: &out)
        put(", \"dur\": ", into: &out)
        microseconds(call.duration, into: &out)
        put(", \"args\": {", into: &out)
        var first = true
        func key(_ name: StaticString) {
            put(first ? "\"" : ", \"", into: &out)
            put(name, into: &out)
            put("\": ", into: &out)
            first = false
        }
        if call.samples > 0 { key("samples"); integer(call.samples, into: &out) }
        if let layer = call.layer { key("layer"); out += "\"\(layer)\"".utf8 }
        if let parameter = call.parameter { key("parameter"); out += JSONValue.quoted(parameter).utf8 }
        if let status = call.status { key("status"); integer(Int(status), into: &out) }
        if call.kind == .service || call.name == "draw" {
            key("dirty")
            out.append(UInt8(ascii: "["))
            let rects = call.kind == .service ? (call.serviceRect.isEmpty ? [] : [call.serviceRect]) : call.reported
            for (n, r) in rects.enumerated() {
                put(n == 0 ? "[" : ", [", into: &out)
                integer(Int(r.x), into: &out); put(", ", into: &out)
                integer(Int(r.y), into: &out); put(", ", into: &out)
                integer(Int(r.width), into: &out); put(", ", into: &out)
                integer(Int(r.height), into: &out)
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
            key("dirtyPixels"); integer(call.reportedPixels, into: &out)
        }
        if let changed = call.changedPixels { key("changedPixels"); integer(changed, into: &out) }
        put("}}", into: &out)
    }

    /// Appends a literal's bytes (one copy, no per-character walk).
    @inline(__always)
    private static func put(_ text: StaticString, into out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    private static func integer(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var v = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[n] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }

    /// Nanoseconds as microseconds with three decimals (the format's unit, nanosecond detail).
    private static func microseconds(_ ns: UInt64, into out: inout [UInt8]) {
        integer(Int(ns / 1000), into: &out)
        let fraction = Int(ns % 1000)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
