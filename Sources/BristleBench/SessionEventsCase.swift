import BristleHost

/// The product mode: the workload stroke played through a real reference plugin in a
/// ``DrawingSession``, one sample per input event (`begin`, `move` for each inner sample,
/// `end`). With `org.bristle.pencil` the stroke mask is composited over the pre-stroke pixels;
/// the pencil is set so its width is the workload's `2 + 18 p` (width 20 points at scale 1,
/// min-width 0.1, pressure on; pressure travels as the ABI's `float`). With
/// `org.bristle.rectangle` (width 4) every event rubber-bands the rectangle from the first
/// sample to the current one in the preview, and `end` commits it.
///
/// With `perEvent` every event is timed on its own (draw + preview update + dirty rect, as
/// the session does them) and the line reports `p50_us` / `p99_us` over all measured events.
final class SessionEventsCase: BenchCase {
    let name: String
    var item: String { "event" }
    var items: Int { events.count + 2 }
    var extraFields: [(String, String)] {
        var fields: [(String, String)] = [("segments", String(events.count + 1)),
                                          ("canvas", "\"\(session.width)x\(session.height)\""),
                                          ("brush", "\"\(brushID)\"")]
        if perEvent {
            fields.append(("p50_us", BenchResult.fixed((BenchStatistics.quantile(0.5, of: eventMicroseconds) ?? 0), 3)))
            fields.append(("p99_us", BenchResult.fixed((BenchStatistics.quantile(0.99, of: eventMicroseconds) ?? 0), 3)))
            fields.append(("max_event_us", BenchResult.fixed(eventMicroseconds.max() ?? 0, 3)))
        }
        return fields
    }

    /// A reference brush as the session cases set it up.
    struct Setup: Sendable {
        var id: String
        /// The session's stroke width, in points at scale 1.
        var width: Double
        /// Parameters set after `opacity = 1`.
        var parameters: [(String, Double)]
    }

    /// The pencil as the product mode: width `2 + 18 p` (20 points, min-width 0.1, pressure on).
    static let pencil = Setup(id: "org.bristle.pencil", width: BenchWorkload.maximumWidth,
                              parameters: [("pressure-width", 1),
                                           ("min-width", BenchWorkload.minimumWidth / BenchWorkload.maximumWidth)])
    /// The rectangle tool, 4 points wide: a non-continuous shape brush.
    static let rectangle = Setup(id: "org.bristle.rectangle", width: 4, parameters: [])

    private let brushID: String

    private let session: DrawingSession
    private let perEvent: Bool
    private let first: bristle_sample_t
    private let last: bristle_sample_t
    /// The inner samples, one single-sample event each (built once: no allocation per event).
    private let events: [[bristle_sample_t]]
    private let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)
    private var eventMicroseconds: [Double] = []

    init(name: String, brush setup: Setup = SessionEventsCase.pencil, width: Int, height: Int, perEvent: Bool,
         options: BenchOptions) throws(BenchError) {
        self.name = name
        brushID = setup.id
        self.perEvent = perEvent
        let host = BrushHost()
        do {
            session = try DrawingSession(width: width, height: height, background: .color(.white), host: host)
        } catch {
            throw BenchError(error.description, exitStatus: 70)
        }
        let brush: Brush
        do {
            let library = try PluginCatalog().library(forBrush: brushID)
            brush = try Brush(id: brushID, library: library, host: host)
            try brush.setParameter("opacity", value: 1)
            for (parameter, value) in setup.parameters { try brush.setParameter(parameter, value: value) }
        } catch {
            throw BenchError(error.description,
                             hint: "the session cases need the reference plugins (libBristlePencil.so, libBristleShapes.so) beside bristle or on BRISTLE_PATH",
                             exitStatus: 69)
        }
        session.brush = brush
        session.color = BenchWorkload.strokeColor(alpha: BenchWorkload.opaqueAlpha)
        session.strokeWidth = setup.width
        let samples = (0...options.segments).map { i -> bristle_sample_t in
            let w = BenchWorkload.sample(i)
            var s = bristle_sample_t()
            s.struct_size = UInt32(MemoryLayout<bristle_sample_t>.size)
            s.flags = BRISTLE_SAMPLE_HAS_PRESSURE
            s.t = Double(i) / 240
            s.x = w.x
            s.y = w.y
            s.pressure = Float(w.pressure)
            s.altitude = .pi / 2
            s.pointer_type = BRISTLE_POINTER_PEN
            return s
        }
        first = samples[0]
        last = samples[samples.count - 1]
        events = samples.dropFirst().dropLast().map { [$0] }
        if perEvent { eventMicroseconds.reserveCapacity((events.count + 2) * options.reps) }
    }

    func reset() throws(BenchError) {
        do { try session.clear() } catch { throw BenchError(error.description, exitStatus: 70) }
    }

    func run(measured: Bool) throws(BenchError) {
        do {
            if perEvent && measured {
                try timed { () throws(SessionError) in try session.begin(first, device: device) }
                for e in events {
                    try timed { () throws(SessionError) in try session.move(e) }
                }
                try timed { () throws(SessionError) in try session.end(last) }
            } else {
                try session.begin(first, device: device)
                for e in events { try session.move(e) }
                try session.end(last)
            }
        } catch {
            throw BenchError(error.description, exitStatus: 70)
        }
    }

    /// Runs one event and records its wall time in microseconds.
    @inline(__always)
    private func timed(_ body: () throws(SessionError) -> Void) throws(SessionError) {
        let t0 = BenchClock.wallNanoseconds()
        try body()
        let t1 = BenchClock.wallNanoseconds()
        eventMicroseconds.append(Double(t1 &- t0) * 1e-3)
    }

    func writePNG(to path: String) throws(BenchError) {
        do { try session.exportPNG(to: path, transparent: false) } catch { throw BenchError.png(error) }
    }
}
