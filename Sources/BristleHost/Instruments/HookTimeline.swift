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
/// Recording is cheap by construction (docs/PERFORMANCE.md, "The instruments"): a call reads
/// ``HookClock`` twice and stores a fixed-size ``Record`` of integers (its name a
/// ``Name``, no string, no allocation) in a buffer that grows by doubling; names, times in
/// nanoseconds and ``HookCall`` values are made only when the timeline is read.
///
/// Not thread-safe: one timeline per session, used on the session's thread.
public final class HookTimeline {
    /// Whether the session counts the pixels each draw actually changed (``PixelAudit``:
    /// one more copy of the committed layer, and a comparison per draw).
    public let countsChangedPixels: Bool

    /// The calls so far, in the order they returned (a draw's service calls before the draw),
    /// times in nanoseconds since the timeline was made. Made on each read: the trace and the
    /// statistics read the records directly.
    public var calls: [HookCall] {
        var out: [HookCall] = []
        out.reserveCapacity(count)
        forEach { record, start, duration in
            var call = HookCall(kind: record.name.isService ? .service : .hook, name: record.name.text,
                                start: start, duration: duration, samples: Int(record.samples), layer: record.layer.text,
                                parameter: parameter(of: record),
                                status: record.hasStatus ? record.status : nil, serviceRect: record.serviceRect)
            call.reported = Array(reported(of: record))
            call.changedPixels = record.changedPixels < 0 ? nil : record.changedPixels
            out.append(call)
        }
        return out
    }

    /// How many calls are recorded.
    public var count: Int { storage.pointee.count }

    /// The records, their count and what they index, behind a constant pointer: the hot path
    /// reads and writes them without the dynamic exclusivity checks a class's stored
    /// variables get.
    private struct Storage {
        var records: UnsafeMutablePointer<Record>
        var count: Int
        var capacity: Int
        /// The rectangles draws reported, each draw's a run of them (``Record/reportedStart``).
        var reportedRects: [PixelRect]
        /// The parameters parameter calls named (``Record/parameter`` indexes them).
        var parameters: [String]
    }
    private let storage: UnsafeMutablePointer<Storage>
    let clock: HookClock

    /// A timeline reading the time-stamp counter where it is invariant, else the monotonic
    /// clock (``HookClock``).
    public convenience init(countsChangedPixels: Bool = false) {
        self.init(countsChangedPixels: countsChangedPixels, clock: HookClock())
    }

    init(countsChangedPixels: Bool, clock: HookClock) {
        self.countsChangedPixels = countsChangedPixels
        self.clock = clock
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(records: .allocate(capacity: 4096), count: 0, capacity: 4096,
                                       reportedRects: [], parameters: []))
        storage.pointee.reportedRects.reserveCapacity(4096)
    }

    deinit {
        storage.pointee.records.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// A call's name: the hooks, then the services of `bristle_services_t`.
    enum Name: UInt8, CaseIterable {
        case begin, moved, predicted, ended, cancelled, tick, draw, setValue, setColor, destroy
        case fillSegment, fillDisc, maskSegment, maskDisc, clearMask, compositeMask, drawRect, drawEllipse
        case drawPolyline, drawDab, maskRect, maskEllipse, maskPolyline, maskDab, compositeMaskPattern

        /// Whether the host provides it (a service) rather than the brush (a hook).
        var isService: Bool { rawValue >= Name.fillSegment.rawValue }

        /// The hook's name (`params.set_value`...) or the service's (`fill_segment`...).
        var text: String {
            switch self {
            case .begin: "begin"
            case .moved: "moved"
            case .predicted: "predicted"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .tick: "tick"
            case .draw: "draw"
            case .setValue: "params.set_value"
            case .setColor: "params.set_color"
            case .destroy: "destroy"
            case .fillSegment: "fill_segment"
            case .fillDisc: "fill_disc"
            case .maskSegment: "mask_segment"
            case .maskDisc: "mask_disc"
            case .clearMask: "clear_mask"
            case .compositeMask: "composite_mask"
            case .drawRect: "draw_rect"
            case .drawEllipse: "draw_ellipse"
            case .drawPolyline: "draw_polyline"
            case .drawDab: "draw_dab"
            case .maskRect: "mask_rect"
            case .maskEllipse: "mask_ellipse"
            case .maskPolyline: "mask_polyline"
            case .maskDab: "mask_dab"
            case .compositeMaskPattern: "composite_mask_pattern"
            }
        }
    }

    /// The layer a draw or a service drew into; `none` for other hooks and mask services.
    enum LayerName: UInt8 {
        case none, committed, preview

        var text: String? {
            switch self {
            case .none: nil
            case .committed: "committed"
            case .preview: "preview"
            }
        }
    }

    /// One call as recorded: integers only.
    struct Record {
        /// Clock readings (``HookClock``) before and after the call.
        var start: UInt64
        var end: UInt64
        /// The rectangle a service returned (empty for others).
        var serviceRect: PixelRect
        /// Pixels a draw changed; -1 when not counted.
        var changedPixels = -1
        /// The run of ``HookTimeline/Storage/reportedRects`` a draw reported.
        var reportedStart: Int32 = 0
        var reportedCount: Int32 = 0
        var samples: Int32
        var status: Int32
        /// Index into ``HookTimeline/Storage/parameters``; -1 for none.
        var parameter: Int32
        var name: Name
        var layer: LayerName
        var hasStatus: Bool
    }

    /// A reading of the clock, to pass to ``record(_:since:samples:layer:parameter:status:serviceRect:)``.
    @inline(__always)
    func now() -> UInt64 { clock.ticks() }

    /// Appends a call that started at `start` (``now()``) and ends now.
    @inline(__always)
    func record(_ name: Name, since start: UInt64, samples: Int = 0, layer: LayerName = .none,
                parameter: String? = nil, status: Int32? = nil, serviceRect: PixelRect = .empty) {
        let end = clock.ticks()
        if storage.pointee.count == storage.pointee.capacity { grow() }
        var index: Int32 = -1
        if let parameter {
            index = Int32(storage.pointee.parameters.count)
            storage.pointee.parameters.append(parameter)
        }
        (storage.pointee.records + storage.pointee.count).initialize(
            to: Record(start: start, end: end, serviceRect: serviceRect, samples: Int32(truncatingIfNeeded: samples),
                       status: status ?? 0, parameter: index, name: name, layer: layer, hasStatus: status != nil))
        storage.pointee.count += 1
    }

    private func grow() {
        let s = storage.pointee
        let bigger = UnsafeMutablePointer<Record>.allocate(capacity: s.capacity * 2)
        bigger.moveInitialize(from: s.records, count: s.count)
        s.records.deallocate()
        storage.pointee.records = bigger
        storage.pointee.capacity = s.capacity * 2
    }

    /// Adds what the session learnt after the last draw returned: the dirty rectangles it
    /// reported, clipped, and the pixels it changed (nil when not counted).
    /// The draw is the last call recorded: its services returned before it did.
    func noteDraw(reported: [PixelRect], changedPixels: Int?) {
        let s = storage.pointee
        guard s.count > 0, s.records[s.count - 1].name == .draw else { return }
        let last = s.records + (s.count - 1)
        last.pointee.reportedStart = Int32(storage.pointee.reportedRects.count)
        last.pointee.reportedCount = Int32(reported.count)
        last.pointee.changedPixels = changedPixels ?? -1
        storage.pointee.reportedRects.append(contentsOf: reported)
    }

    /// Appends to `rects` the rectangle of each service called since call index `from` that
    /// returned one for a target of `layer` (mask services draw into the brush's own memory,
    /// not a layer).
    func appendServiceRects(since from: Int, layer: LayerName, to rects: inout [PixelRect]) {
        let s = storage.pointee
        for i in from..<s.count where s.records[i].layer == layer && s.records[i].name.isService && !s.records[i].serviceRect.isEmpty {
            rects.append(s.records[i].serviceRect)
        }
    }

    /// The record at `index` (below ``count``).
    func record(at index: Int) -> Record { storage.pointee.records[index] }

    /// The rectangles `record` reported (a draw's; empty for other calls).
    func reported(of record: Record) -> ArraySlice<PixelRect> {
        storage.pointee.reportedRects[Int(record.reportedStart)..<Int(record.reportedStart + record.reportedCount)]
    }

    /// The parameter `record` names.
    func parameter(of record: Record) -> String? {
        record.parameter < 0 ? nil : storage.pointee.parameters[Int(record.parameter)]
    }

    /// Calls `body` with each record in recording order, with its start in nanoseconds since
    /// the timeline was made and its duration, both on one ``HookClock/Scale`` taken now.
    @inline(__always)
    func forEach(_ body: (Record, _ start: UInt64, _ duration: UInt64) -> Void) {
        let scale = clock.scale(), s = storage.pointee
        for i in 0..<s.count {
            let start = scale.nanoseconds(s.records[i].start), end = scale.nanoseconds(s.records[i].end)
            body(s.records[i], start, end > start ? end - start : 0)
        }
    }
}
