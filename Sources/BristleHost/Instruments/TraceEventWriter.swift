/// Writes a ``HookTimeline`` in the Trace Event Format that Chrome's `about:tracing` and
/// Perfetto (ui.perfetto.dev) open: a JSON object whose `traceEvents` are complete events
/// (`"ph": "X"`) with `ts` and `dur` in microseconds, on one track, so that a draw's service
/// calls nest under it (`cat` tells `hook` from `service`), each with its arguments in `args`:
/// samples, layer, parameter, status, the dirty rectangles a draw reported (or a service
/// returned) and their area, the pixels a draw changed.
public enum TraceEventWriter {
    /// Bytes ``writeChunks(_:brushLabel:_:)`` gathers in its buffer before handing them on.
    static let chunkSize = 1 << 16

    /// The trace as UTF-8 JSON, events in the order they started (``writeChunks(_:brushLabel:_:)``
    /// gathered into one array).
    public static func bytes(_ timeline: HookTimeline, brushLabel: String = "bristle") -> [UInt8] {
        var bytes: [UInt8] = []
        writeChunks(timeline, brushLabel: brushLabel) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes the trace to `path` atomically, chunk by chunk (a failure leaves no file).
    public static func write(_ timeline: HookTimeline, brushLabel: String = "bristle",
                             to path: String) throws(AtomicFileWriter.Failure) {
        try AtomicFileWriter.write(to: path) { (fd: Int32) throws(AtomicFileWriter.Failure) in
            var failure: AtomicFileWriter.Failure?
            writeChunks(timeline, brushLabel: brushLabel) { chunk in
                guard failure == nil else { return }
                do throws(AtomicFileWriter.Failure) {
                    try AtomicFileWriter.writeAll(UnsafeRawBufferPointer(chunk), to: fd, path: path)
                } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    /// Hands the trace's UTF-8 JSON to `body` in consecutive chunks of about ``chunkSize``
    /// bytes, events in the order they started. The events are written from the timeline's
    /// records straight into one reused buffer (no per-event allocation, and the memory a
    /// long trace touches stays one chunk's).
    public static func writeChunks(_ timeline: HookTimeline, brushLabel: String = "bristle",
                                   _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        // Calls are recorded as they return: a draw after its services. In order of start (ties
        // in recording order) a draw comes before the calls it made; the records are nearly in
        // that order already, so an insertion sort does it in about one pass.
        var order: [(start: UInt64, index: Int)] = []
        order.reserveCapacity(timeline.count)
        var largest = 256 + 6 * brushLabel.utf8.count
        for i in 0..<timeline.count {
            let record = timeline.record(at: i)
            var j = order.count
            order.append((record.start, i))
            while j > 0, order[j - 1].start > record.start {
                order.swapAt(j, j - 1)
                j -= 1
            }
            largest = Swift.max(largest, eventBound(record, timeline))
        }
        let scale = timeline.clock.scale()
        // Each event's text up to its start time, per name: one copy per event.
        let heads: [[UInt8]] = HookTimeline.Name.allCases.map { name in
            Array("{\"name\": \"\(name.text)\", \"cat\": \"\(name.isService ? "service" : "hook")\", \"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"ts\": ".utf8)
        }
        // Room for a chunk and, after it, the largest piece written before the next check.
        let capacity = chunkSize + largest
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var out = Output(buffer)
        func flush() {
            body(UnsafeBufferPointer(start: buffer, count: out.end - buffer))
            out = Output(buffer)
        }
        out.put("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n")
        out.put("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": ")
        out.put(bytes: JSONValue.quoted(brushLabel).utf8)
        out.put("}},\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"hooks and services\"}}")
        for (_, i) in order {
            if out.end - buffer >= chunkSize { flush() }
            out.put(",\n")
            let record = timeline.record(at: i)
            heads[Int(record.name.rawValue)].withUnsafeBufferPointer { out.put(bytes: $0) }
            event(record, timeline, scale, into: &out)
            precondition(out.end - buffer <= capacity, "trace text beyond its bound")
        }
        if out.end - buffer >= chunkSize { flush() }
        out.put("\n]}\n")
        flush()
    }

    /// The most bytes ``event(_:_:_:into:)`` writes for `record`: its fixed text with every
    /// number at its widest, 56 per rectangle, the parameter escaped at worst.
    private static func eventBound(_ record: HookTimeline.Record, _ timeline: HookTimeline) -> Int {
        400 + 56 * Int(record.reportedCount) + (timeline.parameter(of: record).map { 6 * $0.utf8.count + 2 } ?? 0)
    }

    /// The rest of `record`'s event, after its head (name, category, ids) written by the caller.
    private static func event(_ record: HookTimeline.Record, _ timeline: HookTimeline, _ scale: HookClock.Scale,
                              into out: inout Output) {
        let service = record.name.isService
        let start = scale.nanoseconds(record.start), end = scale.nanoseconds(record.end)
        out.microseconds(start)
        out.put(", \"dur\": ")
        out.microseconds(end > start ? end - start : 0)
        out.put(", \"args\": {")
        var first = true
        func key(_ name: StaticString) {
            out.put(first ? "\"" : ", \"")
            out.put(name)
            out.put("\": ")
            first = false
        }
        if record.samples > 0 { key("samples"); out.integer(Int(record.samples)) }
        switch record.layer {
        case .none: break
        case .committed: key("layer"); out.put("\"committed\"")
        case .preview: key("layer"); out.put("\"preview\"")
        }
        if let parameter = timeline.parameter(of: record) { key("parameter"); out.put(bytes: JSONValue.quoted(parameter).utf8) }
        if record.hasStatus { key("status"); out.integer(Int(record.status)) }
        if service || record.name == .draw {
            key("dirty")
            out.put("[")
            var pixels = 0
            func rect(_ r: PixelRect, first: Bool) {
                out.put(first ? "[" : ", [")
                out.integer(Int(r.x)); out.put(", ")
                out.integer(Int(r.y)); out.put(", ")
                out.integer(Int(r.width)); out.put(", ")
                out.integer(Int(r.height))
                out.put("]")
            }
            if service {
                if !record.serviceRect.isEmpty { rect(record.serviceRect, first: true) }
                pixels = Int(record.serviceRect.width) * Int(record.serviceRect.height)
            } else {
                for (n, r) in timeline.reported(of: record).enumerated() {
                    rect(r, first: n == 0)
                    pixels += Int(r.width) * Int(r.height)
                }
            }
            out.put("]")
            key("dirtyPixels"); out.integer(pixels)
        }
        if record.changedPixels >= 0 { key("changedPixels"); out.integer(record.changedPixels) }
        out.put("}}")
    }

    /// Writes the trace's bytes through a pointer without checks, into an array allocated at
    /// the size the caller bounded.
    private struct Output {
        /// Where the next byte goes.
        private(set) var end: UnsafeMutablePointer<UInt8>

        init(_ start: UnsafeMutablePointer<UInt8>) { end = start }

        /// Appends a literal's bytes (one copy, no per-character walk).
        @inline(__always)
        mutating func put(_ text: StaticString) {
            UnsafeMutableRawPointer(end).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
            end += text.utf8CodeUnitCount
        }

        @inline(__always)
        mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
            UnsafeMutableRawPointer(end).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            end += bytes.count
        }

        mutating func put(bytes: String.UTF8View) {
            for b in bytes { end.pointee = b; end += 1 }
        }

        /// "00" to "99", two bytes each: the digits of `n` < 100 at `2 * n`.
        private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

        /// Appends `value` in decimal, two digits a step (from ``digitPairs``).
        mutating func integer(_ value: Int) {
            if value < 0 { end.pointee = UInt8(ascii: "-"); end += 1 }
            var v = value.magnitude
            var digits = 1
            var limit: UInt = 10
            while v >= limit, digits < 19 { digits += 1; limit &*= 10 }
            if v >= limit { digits += 1 }
            var p = end + digits
            end = p
            let pairs = Self.digitPairs.utf8Start
            while v >= 100 {
                let r = Int(v % 100)
                v /= 100
                p -= 2
                p[0] = pairs[2 * r]
                p[1] = pairs[2 * r + 1]
            }
            if v >= 10 {
                p -= 2
                p[0] = pairs[2 * Int(v)]
                p[1] = pairs[2 * Int(v) + 1]
            } else {
                p -= 1
                p[0] = UInt8(ascii: "0") &+ UInt8(v)
            }
        }

        /// Nanoseconds as microseconds with three decimals (the format's unit, nanosecond detail).
        mutating func microseconds(_ ns: UInt64) {
            integer(Int(ns / 1000))
            let fraction = Int(ns % 1000)
            end[0] = UInt8(ascii: ".")
            end[1] = UInt8(ascii: "0") &+ UInt8(fraction / 100)
            end[2] = UInt8(ascii: "0") &+ UInt8(fraction / 10 % 10)
            end[3] = UInt8(ascii: "0") &+ UInt8(fraction % 10)
            end += 4
        }
    }
}
