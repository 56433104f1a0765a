/// Plays one stroke's input events through a ``DrawingSession`` the way `bristle render` does:
/// the first event begins the stroke on its first sample (the rest of its coalesced samples
/// follow as one move), each later event is one move with its coalesced and predicted samples,
/// and the stroke ends on the last sample played or is cancelled.
///
/// A script hands over a whole stroke at once (``ScriptRenderer``); a live view (`bristle
/// play`) hands over events as they arrive. Both go through ``build(_:)`` and ``play(_:device:in:each:)``,
/// so a recording of live input renders to the same pixels.
public struct StrokePlayer {
    /// One event's samples, ready for the session.
    public struct Event {
        public var samples: [bristle_sample_t]
        public var predicted: [bristle_sample_t]
    }

    private var builder: SampleBuilder
    private var last: bristle_sample_t?
    /// Samples dropped by ``build(_:)`` for a non-finite or absurd coordinate.
    public private(set) var droppedSamples = 0

    /// A player for a stroke whose samples default to `pointerType`.
    public init(pointerType: String?, pressureCurve: PressureCurve = .identity) {
        builder = SampleBuilder(strokePointerType: pointerType, pressureCurve: pressureCurve)
    }

    /// True once the stroke has begun.
    public var hasBegun: Bool { last != nil }

    /// The event's samples as `bristle_sample_t` (its coalesced samples when it has any, else
    /// its own), and its predicted samples. Samples with a coordinate beyond
    /// ``RenderOptions/absurdCoordinate`` are dropped and counted; nil when none is left.
    public mutating func build(_ event: InputEventSpec) -> Event? {
        func usable(_ p: PointerSample) -> Bool {
            let ok = abs(p.x) <= RenderOptions.absurdCoordinate && abs(p.y) <= RenderOptions.absurdCoordinate
            if !ok { droppedSamples += 1 }
            return ok
        }
        let samples = event.coalesced.isEmpty
            ? [event.sample].filter(usable).map { builder.make($0) }
            : event.coalesced.filter(usable).map { builder.make($0, extraFlags: BRISTLE_SAMPLE_COALESCED) }
        let predicted = event.predicted.filter(usable).map { builder.make($0, extraFlags: BRISTLE_SAMPLE_PREDICTED) }
        return samples.isEmpty ? nil : Event(samples: samples, predicted: predicted)
    }

    /// The input device of a stroke made of `samples`: the union of their `HAS_*` flags, the
    /// stroke's pointer type and the largest `max_force`.
    public static func device(of samples: [bristle_sample_t], pointerType: String?) -> DrawingSession.Device {
        DrawingSession.Device(flags: samples.reduce(0) { $0 | ($1.flags & hasMask) },
                              pointerType: SampleBuilder.pointerType(pointerType ?? "pen"),
                              maxForce: samples.map(\.max_force).max() ?? 0)
    }

    /// The input device of a whole stroke, as ``device(of:pointerType:)`` of all its built
    /// samples, found in a pass that keeps none of them: a stroke of a million samples is
    /// then played event by event, never held as samples.
    public static func device(of stroke: StrokeSpec, pressureCurve: PressureCurve = .identity) -> DrawingSession.Device {
        var probe = StrokePlayer(pointerType: stroke.pointerType, pressureCurve: pressureCurve)
        var flags: UInt32 = 0, maxForce: Float = 0
        for spec in stroke.events {
            guard let event = probe.build(spec) else { continue }
            for sample in event.samples {
                flags |= sample.flags & hasMask
                maxForce = max(maxForce, sample.max_force)
            }
        }
        return DrawingSession.Device(flags: flags, pointerType: SampleBuilder.pointerType(stroke.pointerType ?? "pen"),
                                     maxForce: maxForce)
    }

    /// The sample flags that say what a device measures.
    private static let hasMask = BRISTLE_SAMPLE_HAS_PRESSURE | BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_TILT
        | BRISTLE_SAMPLE_HAS_TWIST | BRISTLE_SAMPLE_HAS_TANGENTIAL | BRISTLE_SAMPLE_HAS_CONTACT

    /// Plays one built event: the first begins the stroke on `device`. `each` runs every
    /// session call (a renderer times them); pass `{ try $0() }` to just run them.
    public mutating func play(_ event: Event, device: DrawingSession.Device, in session: DrawingSession,
                              each: (() throws(SessionError) -> Void) throws(SessionError) -> Void) throws(SessionError) {
        if last == nil {
            let first = event.samples[0]
            try each { () throws(SessionError) in
                try session.begin(first, device: device, predicted: event.samples.count > 1 ? [] : event.predicted)
            }
            last = first
            if event.samples.count > 1 {
                try each { () throws(SessionError) in
                    try session.move(Array(event.samples.dropFirst()), predicted: event.predicted)
                }
            }
        } else {
            try each { () throws(SessionError) in try session.move(event.samples, predicted: event.predicted) }
        }
        last = event.samples[event.samples.count - 1]
    }

    /// Ends the begun stroke on the last sample played.
    public func end(in session: DrawingSession) throws(SessionError) {
        guard let last else { return }
        try session.end(last)
    }
}
