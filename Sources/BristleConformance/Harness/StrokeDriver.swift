import BristleHost
import Glibc

/// Drives one brush instance through strokes exactly as ``DrawingSession`` does (bristle.h,
/// "THE DRAWING LOOP": committed draws after every event for continuous brushes and after
/// `ended` for all, preview draws for shapes and predicted samples, preview restored from
/// committed inside what the previous preview draw reported (its dirty list or its one
/// rectangle), cancel restoring committed from base, ticks followed by committed draws), but
/// on three ``GuardedCanvas`` layers, and verifies the
/// brush's side of the pixel contract after every call (see ``DriverChecks``).
///
/// Every plugin call is recorded in the ``HookRecorder`` first, with its arguments, the
/// stroke number and the stroke's seed. A hook that returns anything but `BRISTLE_OK` on the
/// valid input the harness sends, or a broken rule, throws ``CheckFailure``.
public final class StrokeDriver {
    public let brush: Brush
    public let committed: GuardedCanvas
    public let preview: GuardedCanvas
    public let base: GuardedCanvas
    public var checks: DriverChecks
    /// The session seed; stroke `n` gets `DrawingSession.strokeSeed(seed, n)`, as in the host.
    public let seed: UInt64
    /// The colour and width (points) of the next stroke.
    public var color = bristle_color_t(r: 0.1, g: 0.2, b: 0.6, a: 1)
    public var strokeWidth: Float = 6
    /// Number of strokes begun so far.
    public private(set) var strokeCount: UInt64 = 0

    private let host: BrushHost
    private let recorder: HookRecorder
    /// Lays out the samples of each hook call: at the brush's ``Brush/sampleSize`` as the host
    /// does, or at the `sampleStructSize` given to `init`, the bytes past the host's own
    /// sample filled with 0xA5.
    private let samples: SamplePacker
    private var samplesPassed: [UInt8] = []
    private let context: UnsafeMutablePointer<bristle_stroke_context_t>
    private var contextCopy = bristle_stroke_context_t()
    private var inStroke = false
    private var hadStroke = false
    private var framesSinceLift = 0
    private var committedDirty = PixelRect.empty
    /// What the last preview draw changed, restored from committed before the next event.
    private var previewDirty = DirtyRegion()
    /// The dirty list every target carries, as in the host.
    private let dirtyList = DirtyList()
    private var beforeDraw: [UInt8] = []
    private var baseSnapshot: [UInt8] = []
    private var committedAtBegin: [UInt8] = []
    private var eventIndex = 0

    /// A driver for `brush` over fresh guarded canvases of the given size, all transparent.
    public init(brush: Brush, host: BrushHost, width: Int, height: Int, seed: UInt64,
                recorder: HookRecorder, placement: GuardedCanvas.Placement = .endAligned,
                checks: DriverChecks = .all, sampleStructSize: Int? = nil) throws(CheckFailure) {
        guard let c = GuardedCanvas(width: width, height: height, placement: placement),
              let p = GuardedCanvas(width: width, height: height, placement: placement),
              let b = GuardedCanvas(width: width, height: height, placement: placement) else {
            throw CheckFailure("the harness could not map a \(width)x\(height) guarded canvas")
        }
        self.brush = brush
        self.host = host
        self.recorder = recorder
        self.seed = seed
        self.checks = checks
        samples = SamplePacker(structSize: sampleStructSize ?? brush.sampleSize, filler: 0xA5)
        committed = c
        preview = p
        base = b
        context = .allocate(capacity: 1)
        context.initialize(to: bristle_stroke_context_t())
    }

    deinit { context.deallocate() }

    private var id: String { brush.descriptor.id }
    private var capabilities: BrushDescriptor.Capabilities { brush.descriptor.capabilities }

    /// Fills all three layers with one premultiplied colour (between strokes only).
    public func fill(_ rgba: (UInt8, UInt8, UInt8, UInt8)) {
        for layer in [committed, preview, base] { layer.fill(rgba) }
    }

    /// Draws a whole stroke: begin, every event (with its predicted samples), then ended or,
    /// with `cancelAtEnd`, cancelled.
    public func draw(_ stroke: TestStroke) throws(CheckFailure) {
        try begin(stroke.first)
        for (i, event) in stroke.events.enumerated() {
            try move(event, predicted: i < stroke.predicted.count ? stroke.predicted[i] : [])
        }
        if stroke.cancelAtEnd { cancel() } else { try end(stroke.last) }
    }

    // MARK: The loop

    /// Starts a stroke at `sample`, then draws.
    public func begin(_ sample: bristle_sample_t, predicted: [bristle_sample_t] = []) throws(CheckFailure) {
        strokeCount += 1
        eventIndex = 0
        context.pointee = bristle_stroke_context_t(
            struct_size: UInt32(MemoryLayout<bristle_stroke_context_t>.size),
            device_flags: BRISTLE_SAMPLE_HAS_PRESSURE | BRISTLE_SAMPLE_HAS_TILT, color: color,
            width: strokeWidth, scale: 1, seed: DrawingSession.strokeSeed(seed, strokeCount),
            pointer_type: BRISTLE_POINTER_PEN, max_force: 0,
            canvas_width: Int32(committed.width), canvas_height: Int32(committed.height))
        contextCopy = context.pointee
        committedDirty = .empty
        base.snapshot(into: &baseSnapshot)
        if checks.contains(.committedUntilEnded) && !capabilities.contains(.continuous) {
            committed.snapshot(into: &committedAtBegin)
        }
        let s = pack([sample])
        let status = recorder.record("begin(\(Self.describe(sample)))\(where_)") { brush.begin(context, s) }
        inStroke = true
        try checkInputs(count: 1, hook: "begin")
        try checkStatus(status, hook: "begin")
        try drawAfterEvent(ending: false, predicted: predicted)
    }

    /// Continues the stroke with one event's samples, then draws.
    public func move(_ samples: [bristle_sample_t], predicted: [bristle_sample_t] = []) throws(CheckFailure) {
        guard !samples.isEmpty else { return }
        eventIndex += 1
        let batch = pack(samples)
        let status = recorder.record("moved(count=\(samples.count), first={\(Self.describe(samples[0]))}, "
                                     + "last={\(Self.describe(samples[samples.count - 1]))})\(where_)") {
            brush.moved(batch, count: samples.count)
        }
        try checkInputs(count: samples.count, hook: "moved")
        try checkStatus(status, hook: "moved")
        try drawAfterEvent(ending: false, predicted: predicted)
    }

    /// Ends the stroke at `sample`, draws the final part, and makes it part of the drawing.
    public func end(_ sample: bristle_sample_t) throws(CheckFailure) {
        eventIndex += 1
        let s = pack([sample])
        let status = recorder.record("ended(\(Self.describe(sample)))\(where_)") { brush.ended(s) }
        inStroke = false
        try checkInputs(count: 1, hook: "ended")
        try checkStatus(status, hook: "ended")
        if checks.contains(.committedUntilEnded) && !capabilities.contains(.continuous),
           !committed.matches(committedAtBegin) {
            throw CheckFailure("brush '\(id)' is not CONTINUOUS, yet the committed layer changed "
                               + "before `ended` (stroke \(strokeCount)): a shape brush draws into "
                               + "committed only after `ended`")
        }
        try drawAfterEvent(ending: true, predicted: [])
        base.copy(from: committed, in: committedDirty)
        hadStroke = true
        framesSinceLift = 0
    }

    /// Abandons the stroke; the driver restores committed from base as the host does.
    public func cancel() {
        guard inStroke else { return }
        recorder.record("cancelled()\(where_)") { brush.cancelled() }
        inStroke = false
        committed.copy(from: base, in: committedDirty)
        preview.copy(from: committed, in: committedDirty)
        restorePreview()
    }

    /// Sends `frames` ticks of a 60 Hz clock, each followed by a committed draw; does nothing
    /// for brushes without WANTS_TICKS or before the first stroke ended. Returns whether it
    /// ticked.
    @discardableResult
    public func tick(frames: Int) throws(CheckFailure) -> Bool {
        guard capabilities.contains(.wantsTicks), hadStroke, !inStroke else { return false }
        let dt = 1.0 / 60
        for _ in 0..<frames {
            framesSinceLift += 1
            let t = Double(framesSinceLift) * dt
            let status = recorder.record("tick(t=\(t), dt=\(dt)) after stroke \(strokeCount), seed \(seed)") {
                brush.tick(t: t, dt: dt)
            }
            try checkStatus(status, hook: "tick")
            base.snapshot(into: &baseSnapshot)
            let dirty = try drawChecked(into: committed, layer: BRISTLE_LAYER_COMMITTED, withBase: false,
                                        after: "tick")
            for r in dirty.rects {
                preview.copy(from: committed, in: r)
                base.copy(from: committed, in: r)
            }
        }
        return true
    }

    private var where_: String { " [stroke \(strokeCount), event \(eventIndex), seed \(seed)]" }

    private func drawAfterEvent(ending: Bool, predicted: [bristle_sample_t]) throws(CheckFailure) {
        let continuous = capabilities.contains(.continuous)
        restorePreview()
        if continuous || ending {
            let changed = try drawChecked(into: committed, layer: BRISTLE_LAYER_COMMITTED, withBase: true,
                                          after: ending ? "ended" : "an event")
            committedDirty = committedDirty.union(changed.bounds)
            for r in changed.rects { preview.copy(from: committed, in: r) }
        }
        guard !ending else { return }
        var previewWanted = !continuous
        if capabilities.contains(.wantsPredicted), !predicted.isEmpty {
            let batch = pack(predicted)
            let status = recorder.record("predicted(count=\(predicted.count), first={\(Self.describe(predicted[0]))})\(where_)") {
                brush.predicted(batch, count: predicted.count)
            }
            try checkInputs(count: predicted.count, hook: "predicted")
            try checkStatus(status, hook: "predicted")
            previewWanted = true
        }
        if previewWanted {
            previewDirty = try drawChecked(into: preview, layer: BRISTLE_LAYER_PREVIEW, withBase: true,
                                           after: "an event")
        }
        if checks.contains(.committedUntilEnded) && !continuous, !committed.matches(committedAtBegin) {
            throw CheckFailure("brush '\(id)' is not CONTINUOUS, yet the committed layer changed during "
                               + "stroke \(strokeCount) before `ended`: a shape brush draws into committed "
                               + "only after `ended`")
        }
    }

    /// Copies committed over the preview inside what the last preview draw changed.
    private func restorePreview() {
        for r in previewDirty.rects { preview.copy(from: committed, in: r) }
        previewDirty.removeAll()
    }

    /// One draw with every enabled check; returns what it changed as the host uses it: the
    /// rectangles of its dirty list, or its `*dirty`, clipped to the canvas.
    private func drawChecked(into layer: GuardedCanvas, layer kind: UInt32, withBase: Bool,
                             after: String) throws(CheckFailure) -> DirtyRegion {
        dirtyList.reset()
        let layerName = kind == BRISTLE_LAYER_COMMITTED ? "committed" : "preview"
        var target = bristle_target_t(
            struct_size: UInt32(MemoryLayout<bristle_target_t>.size),
            format: BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED, pixels: layer.pixels,
            base: withBase ? UnsafePointer(base.pixels) : nil, width: Int32(layer.width),
            height: Int32(layer.height), stride_bytes: Int32(layer.strideBytes), layer: kind,
            stroke: UnsafePointer(context), services: host.cServices, dirty_list: dirtyList.list)
        let targetCopy = target
        if checks.contains(.dirtyRect) { layer.snapshot(into: &beforeDraw) }
        var dirty = bristle_rect_t(x: 0, y: 0, width: 0, height: 0)
        let call = "draw(layer=\(layerName), \(layer.width)x\(layer.height), stride=\(layer.strideBytes)) "
            + "after \(after)\(where_)"
        let status = recorder.record(call) { brush.draw(&target, dirty: &dirty) }
        let reported = PixelRect(x: dirty.x, y: dirty.y, width: dirty.width, height: dirty.height)
        let clipped = reported.intersection(layer.bounds)
        var changed = DirtyRegion()
        dirtyList.region(dirty: dirty, clip: layer.bounds, into: &changed)
        if checks.contains(.dirtyList) { try checkDirtyList(call, canvas: layer.bounds, clippedDirty: clipped, reported: reported) }
        if checks.contains(.padding) {
            for (canvas, name) in [(layer, layerName), (base, "base")] {
                if let damage = canvas.damage() {
                    throw CheckFailure("\(call) wrote outside the pixels of the \(name) buffer: \(damage); "
                                       + "the bytes between width * 4 and stride_bytes belong to the host")
                }
            }
        }
        if checks.contains(.dirtyRect), let p = layer.firstDifference(from: beforeDraw, outsideAll: changed) {
            let listed = dirtyList.listed.map { Array($0) } ?? []
            throw CheckFailure("\(call) changed pixel (\(p.x), \(p.y)) of \(layerName) to "
                               + "\(layer.describePixel(x: p.x, y: p.y)) "
                               + (listed.isEmpty ? "outside its reported dirty rect \(reported): *dirty must cover every changed pixel"
                                  : "outside every rectangle it listed in target->dirty_list ("
                                    + listed.map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height).description }
                                        .joined(separator: ", ")
                                    + "): with a non-empty list, the listed rectangles must cover every changed pixel"))
        }
        if checks.contains(.inputs) {
            if memcmp(&target, [targetCopy], MemoryLayout<bristle_target_t>.size) != 0 {
                throw CheckFailure("\(call) modified the target struct it was given (read-only input)")
            }
            if memcmp(context, [contextCopy], MemoryLayout<bristle_stroke_context_t>.size) != 0 {
                throw CheckFailure("\(call) modified the stroke context (read-only input)")
            }
            if withBase, !base.matches(baseSnapshot) {
                throw CheckFailure("\(call) modified target->base, which is read-only")
            }
        }
        guard status == BRISTLE_OK else {
            throw CheckFailure("\(call) returned \(StatusName.of(status)) for valid input")
        }
        return changed
    }

    /// The dirty list's own rules: `count` within `capacity`, and `*dirty` containing every
    /// listed rectangle (within the canvas), so a host that reads only `*dirty` misses nothing.
    private func checkDirtyList(_ call: String, canvas: PixelRect, clippedDirty: PixelRect,
                                reported: PixelRect) throws(CheckFailure) {
        let l = dirtyList.list.pointee
        guard let listed = dirtyList.listed else {
            throw CheckFailure("\(call) set target->dirty_list->count to \(l.count), above its capacity \(l.capacity): "
                               + "append only while count < capacity (bristle_dirty_add merges when full)")
        }
        for r in listed {
            let rect = PixelRect(x: r.x, y: r.y, width: r.width, height: r.height)
            guard clippedDirty.contains(rect.intersection(canvas)) else {
                throw CheckFailure("\(call) listed \(rect) in target->dirty_list, but its *dirty \(reported) does not "
                                   + "contain it: *dirty must contain every listed rectangle (a 1.0 or 1.1 host reads "
                                   + "only *dirty); bristle_dirty_add keeps both")
            }
        }
    }

    private func checkStatus(_ status: Int32, hook: String) throws(CheckFailure) {
        guard status != BRISTLE_OK else { return }
        throw CheckFailure("\(hook) returned \(StatusName.of(status)) for valid input\(where_); a brush "
                           + "clamps or skips what it cannot use and carries on")
    }

    /// Lays out the samples of one hook call and remembers their bytes for ``checkInputs(count:hook:)``.
    private func pack(_ batch: [bristle_sample_t]) -> UnsafePointer<bristle_sample_t> {
        let first = samples.pack(batch)
        if checks.contains(.inputs) { samplesPassed = Array(samples.bytes(count: batch.count)) }
        return first
    }

    private func checkInputs(count: Int, hook: String) throws(CheckFailure) {
        guard checks.contains(.inputs) else { return }
        if !samples.bytes(count: count).elementsEqual(samplesPassed) { throw CheckFailure("\(hook) modified the samples it was given (read-only input)\(where_)") }
        if memcmp(context, [contextCopy], MemoryLayout<bristle_stroke_context_t>.size) != 0 {
            throw CheckFailure("\(hook) modified the stroke context (read-only input)\(where_)")
        }
    }

    /// A sample as `x=.. y=.. t=.. p=..` for hook records.
    static func describe(_ s: bristle_sample_t) -> String {
        "x=\(s.x), y=\(s.y), t=\(s.t), pressure=\(s.pressure), flags=0x\(String(s.flags, radix: 16))"
    }
}
