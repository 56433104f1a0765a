import Glibc

/// The record of every call between the host and brushes during a render: each hook the host
/// calls (begin, moved, predicted, ended, cancelled, tick, draw, parameter calls) and each
/// drawing service a brush calls, with its duration, arguments in summary and the dirty area
/// a draw reported. `bristle render --trace` writes it as a Chrome trace
/// (``TraceEventWriter``), `--stats` summarises it per hook (``HookStatistics``).
///
/// Attach one timeline to a ``DrawingSession`` (``DrawingSession/timeline``), to every
/// ``Brush`` it draws with (``Brush/timeline``) and to their hosts
/// (``BrushHost/timeline``, which interposes the timed services table). When none is
/// attached, each hook call pays one check of a stored flag and nothing else.
///
/// Not thread-safe: one timeline per session, used on the session's thread.
public final class HookTimeline {
    /// The calls so far, in the order they returned (a draw's service calls before the draw).
    public private(set) var calls: [HookCall] = []
    /// Whether the session counts the pixels each draw actually changed (a shadow copy of each
    /// layer compared inside what the draw reported and what its services drew: memory for
    /// two more layers and a comparison per draw).
    public let countsChangedPixels: Bool
    private let origin: UInt64

    public init(countsChangedPixels: Bool = false) {
        self.countsChangedPixels = countsChangedPixels
        origin = Self.clock()
    }

    /// The monotonic clock, in nanoseconds.
    @inline(__always)
    static func clock() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Nanoseconds since this timeline was made.
    @inline(__always)
    func now() -> UInt64 { Self.clock() &- origin }

    /// Runs `call`, recording it as `name` of `kind`; `describe` fills in the arguments and
    /// may read the result.
    @inline(__always)
    func measure<T>(_ kind: HookCall.Kind, _ name: String, _ call: () -> T,
                    describe: (inout HookCall, T) -> Void) -> T {
        let start = now()
        let result = call()
        var record = HookCall(kind: kind, name: name, start: start, duration: now() &- start)
        describe(&record, result)
        calls.append(record)
        return result
    }

    /// Adds what the session learnt after the last draw returned: the dirty rectangles it
    /// reported, clipped, and the pixels it changed (nil when not counted).
    func noteDraw(reported: [PixelRect], changedPixels: Int?) {
        guard let i = calls.lastIndex(where: { $0.kind == .hook && $0.name == "draw" }) else { return }
        calls[i].reported = reported
        calls[i].changedPixels = changedPixels
    }

    /// The rectangles that services called since call index `from` returned for targets of
    /// `layer` (mask services draw into the brush's own memory, not a layer).
    func serviceRects(since from: Int, layer: String) -> [PixelRect] {
        calls[from...].filter { $0.kind == .service && $0.layer == layer }.flatMap(\.reported)
    }
}
