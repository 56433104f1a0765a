/// The product mode: the workload stroke played through the real pencil plugin
/// (`org.bristle.pencil`) in a ``DrawingSession``, one sample per input event (`begin`,
/// `move` for each inner sample, `end`), with the pencil's stroke mask composited over the
/// pre-stroke pixels. The pencil is set so its width is the workload's `2 + 18 p` (width 20
/// points at scale 1, min-width 0.1, pressure on); pressure travels as the ABI's `float`.
///
/// With `perEvent` every event is timed on its own (draw + preview update + dirty rect, as
/// the session does them) and the line reports `p50_us` / `p99_us` over all measured events.
final class PencilSessionCase: BenchCase {
    let name: String
    var item: String { "event" }
    var items: Int { events.count + 2 }
    var extraFields: [(String, String)] {
        var fields: [(String, String)] = [("segments", String(events.count + 1)),
                                          ("canvas", "\"\(session.width)x\(session.height)\""),
                                          ("brush", "\"\(Self.brushID)\"")]
        if perEvent {
            fields.append(("p50_us", BenchResult.fixed((BenchStatistics.quantile(0.5, of: eventMicroseconds) ?? 0), 3)))
            fields.append(("p99_us", BenchResult.fixed((BenchStatistics.quantile(0.99, of: eventMicroseconds) ?? 0), 3)))
            fields.append(("max_event_us", BenchResult.fixed(eventMicroseconds.max() ?? 0, 3)))
        }
        return fields
    }

    static let brushID = "org.bristle.pencil"

    private let session: DrawingSession
    private let perEvent: Bool
    private let first: bristle_sample_t
    private let last: bristle_sample_t
    /// The inner samples, one single-sample event each (built once: no allocation per event).
    private let events: [[bristle_sample_t]]
    private let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)
    private var eventMicroseconds: [Double] = []

    init(name: String, width: Int, height: Int, perEvent: Bool, options: BenchOptions) throws(BenchError) {
        self.name = name
        self.perEvent = perEvent
        let host = BrushHost()
        do {
            session = try DrawingSession(width: width, height: height, background: .color(.white), host: host)
        } catch {
            throw BenchError(error.description, exitStatus: 70)
        }
        let brush: Brush
        do {
            let library = try PluginCatalog().library(forBrush: Self.brushID)
            brush = try Brush(id: Self.brushID, library: library, host: host)
            try brush.setParameter("opacity", value: 1)
            try brush.setParameter("pressure-width", value: 1)
            try brush.setParameter("min-width", value: BenchWorkload.minimumWidth / BenchWorkload.maximumWidth)
        } catch {
            throw BenchError(error.description,
                             hint: "the product cases need the pencil plugin (libBristlePencil.so) beside bristle or on BRISTLE_PATH",
                             exitStatus: 69)
        }
        session.brush = brush
        session.color = BenchWorkload.strokeColor(alpha: BenchWorkload.opaqueAlpha)
        session.strokeWidth = BenchWorkload.maximumWidth
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
