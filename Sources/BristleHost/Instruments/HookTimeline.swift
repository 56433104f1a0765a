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
        calls.reserveCapacity(4096)
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

    /// Appends a call that started at `start` (``now()``) and ends now.
    @inline(__always)
    func record(_ kind: HookCall.Kind, _ name: String, since start: UInt64, samples: Int = 0, layer: String? = nil,
                parameter: String? = nil, status: Int32? = nil, serviceRect: PixelRect = .empty) {
        let end = now()
        calls.append(HookCall(kind: kind, name: name, start: start, duration: end &- start, samples: samples,
                              layer: layer, parameter: parameter, status: status, serviceRect: serviceRect))
    }

    /// Adds what the session learnt after the last draw returned: the dirty rectangles it
    /// reported, clipped, and the pixels it changed (nil when not counted).
    /// The draw is the last call recorded: its services returned before it did.
    func noteDraw(reported: [PixelRect], changedPixels: Int?) {
        let i = calls.count - 1
        guard i >= 0, calls[i].kind == .hook, calls[i].name == "draw" else { return }
        calls[i].reported = reported
        calls[i].changedPixels = changedPixels
    }

    /// The rectangles that services called since call index `from` returned for targets of
    /// `layer` (mask services draw into the brush's own memory, not a layer).
    func serviceRects(since from: Int, layer: String) -> [PixelRect] {
        calls[from...].filter { $0.kind == .service && $0.layer == layer && !$0.serviceRect.isEmpty }.map(\.serviceRect)
    }
}
