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
    /// The brush under test.
    public var brush: Brush { instance! }
    public private(set) var committed: GuardedCanvas
    public private(set) var preview: GuardedCanvas
    public private(set) var base: GuardedCanvas
    public var checks: DriverChecks
    /// The session seed; stroke `n` gets `DrawingSession.strokeSeed(seed, n)`, as in the host.
    public let seed: UInt64
    /// The colour and width (points) of the next stroke.
    public var color = bristle_color_t(r: 0.1, g: 0.2, b: 0.6, a: 1)
    public var strokeWidth: Float = 6
    /// Canvas pixels per point for the next stroke (the context's `scale`).
    public var scale: Float = 1
    /// What the input device of the next stroke can report, and its pointer type.
    public var deviceFlags = BRISTLE_SAMPLE_HAS_PRESSURE | BRISTLE_SAMPLE_HAS_TILT
    public var pointerType = BRISTLE_POINTER_PEN
    /// With a value, the dirty-rectangle check of each draw compares only the pixels within
    /// this many pixels (plus the stroke's width) of the samples the draw is about; the checks
    /// at the end of every stroke still compare the whole canvas. For canvases too large to
    /// snapshot at every draw.
    public var dirtyWindowMargin: Int?
    /// Runs after every plugin call the driver makes, with the call's description.
    public var afterEachCall: ((String) throws(CheckFailure) -> Void)?
    /// Number of strokes begun so far.
    public private(set) var strokeCount: UInt64 = 0

    private var instance: Brush?
    private let host: BrushHost
    private let services: CheckedServices
    private let recorder: HookRecorder
    private let memory: HandoffMemory?
    /// Lays out the samples of each hook call: at the brush's ``Brush/sampleSize`` as the host
    /// does, or at the `sampleStructSize` given to `init`, the bytes past the host's own
    /// sample filled with 0xA5.
    private let samples: SamplePacker
    private var context = bristle_stroke_context_t()
    /// Where the context lives for a whole stroke when memory is not handed out per call.
    private let contextStorage = UnsafeMutablePointer<bristle_stroke_context_t>.allocate(capacity: 1)
    private var inStroke = false
    private var hadStroke = false
    private var framesSinceLift = 0
    private var committedDirty = PixelRect.empty
    /// What the last preview draw changed, restored from committed before the next event.
    private var previewDirty = DirtyRegion()
    /// The dirty list every target carries, as in the host, and where its rectangles sit
    /// during a draw (flush against a guard page).
    private let dirtyList = DirtyList()
    private let listRects = HandoffArena(kind: "dirty list's rectangles", retiring: false)
    private var beforeDraw: [UInt8] = []
    private var baseSnapshot: [UInt8] = []
    private var committedAtBegin: [UInt8] = []
    private var eventIndex = 0
    /// Pixel boxes of the samples (for ``dirtyWindowMargin``): since the last committed draw,
    /// of the whole stroke, of the last event (with the sample before it), of the last
    /// predicted ones, and of the last sample.
    private var pendingBox = PixelRect.empty
    private var strokeBox = PixelRect.empty
    private var eventBox = PixelRect.empty
    private var predictedBox = PixelRect.empty
    private var lastBox = PixelRect.empty

    /// A driver for `brush` (created with `host`, whose services `services` interposes) over
    /// fresh guarded canvases of the given size, all transparent; samples laid out at
    /// `sampleStructSize` bytes when given.
    init(brush: Brush, host: BrushHost, services: CheckedServices, width: Int, height: Int, seed: UInt64,
         recorder: HookRecorder, placement: GuardedCanvas.Placement, padding: Int,
         checks: DriverChecks, sampleStructSize: Int?) throws(CheckFailure) {
        func canvas(_ name: String) -> GuardedCanvas? {
            GuardedCanvas(width: width, height: height, placement: placement, padding: padding, name: name)
        }
        guard let c = canvas("committed"), let p = canvas("preview"), let b = canvas("base") else {
            throw CheckFailure("the harness could not map a \(width)x\(height) guarded canvas")
        }
        if checks.contains(.lifetimes) {
            guard let m = HandoffMemory(like: [c, p, b]) else {
                throw CheckFailure("the harness could not map the spare buffers of a \(width)x\(height) canvas")
            }
            memory = m
        } else {
            memory = nil
        }
        instance = brush
        samples = SamplePacker(structSize: sampleStructSize ?? brush.sampleSize, filler: 0xA5)
        self.host = host
        self.services = services
        self.recorder = recorder
        self.seed = seed
        self.checks = checks
        committed = c
        preview = p
        base = b
    }

    /// The brush goes first: its `destroy` may still use the services table.
    deinit {
        instance = nil
        contextStorage.deallocate()
    }

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
        if stroke.cancelAtEnd { try cancel() } else { try end(stroke.last) }
    }

    // MARK: The loop

    /// Starts a stroke at `sample`, then draws.
    public func begin(_ sample: bristle_sample_t, predicted: [bristle_sample_t] = []) throws(CheckFailure) {
        strokeCount += 1
        eventIndex = 0
        context = bristle_stroke_context_t(
            struct_size: UInt32(MemoryLayout<bristle_stroke_context_t>.size),
            device_flags: deviceFlags, color: color,
            width: strokeWidth, scale: scale, seed: DrawingSession.strokeSeed(seed, strokeCount),
            pointer_type: pointerType, max_force: 0,
            canvas_width: Int32(committed.width), canvas_height: Int32(committed.height))
        committedDirty = .empty
        strokeBox = .empty
        pendingBox = .empty
        lastBox = .empty
        note([sample])
        if checks.contains(.inputs) { base.snapshot(into: &baseSnapshot) }
        if checks.contains(.committedUntilEnded) && !capabilities.contains(.continuous) {
            committed.snapshot(into: &committedAtBegin)
        }
        let call = "begin(\(Self.describe(sample)))\(where_)"
        let ((status, samplesIntact), contextAfter) = try invoke(call) {
            lendContext(to: call) { c in
                lendSamples([sample], to: call) { s in brush.begin(c, s) }
            }
        }
        inStroke = true
        try checkInputs(samplesIntact, contextAfter, hook: "begin")
        try checkStatus(status, hook: "begin")
        try drawAfterEvent(ending: false, predicted: predicted)
    }

    /// Continues the stroke with one event's samples, then draws.
    public func move(_ samples: [bristle_sample_t], predicted: [bristle_sample_t] = []) throws(CheckFailure) {
        guard !samples.isEmpty else { return }
        eventIndex += 1
        note(samples)
        let call = "moved(count=\(samples.count), first={\(Self.describe(samples[0]))}, "
            + "last={\(Self.describe(samples[samples.count - 1]))})\(where_)"
        let (status, samplesIntact) = try invoke(call) {
            lendSamples(samples, to: call) { brush.moved($0, count: samples.count) }
        }
        try checkInputs(samplesIntact, nil, hook: "moved")
        try checkStatus(status, hook: "moved")
        try drawAfterEvent(ending: false, predicted: predicted)
    }

    /// Ends the stroke at `sample`, draws the final part, and makes it part of the drawing.
    public func end(_ sample: bristle_sample_t) throws(CheckFailure) {
        eventIndex += 1
        note([sample])
        let call = "ended(\(Self.describe(sample)))\(where_)"
        let (status, samplesIntact) = try invoke(call) {
            lendSamples([sample], to: call) { brush.ended($0) }
        }
        inStroke = false
        try checkInputs(samplesIntact, nil, hook: "ended")
        try checkStatus(status, hook: "ended")
        if checks.contains(.committedUntilEnded) && !capabilities.contains(.continuous),
           !committed.matches(committedAtBegin) {
            throw CheckFailure("brush '\(id)' is not CONTINUOUS, yet the committed layer changed "
                               + "before `ended` (stroke \(strokeCount)): a shape brush draws into "
                               + "committed only after `ended`")
        }
        try drawAfterEvent(ending: true, predicted: [])
        try checkStrokeEnd(committedRects: committedDirty, what: "stroke \(strokeCount)")
        base.copy(from: committed, in: committedDirty)
        hadStroke = true
        framesSinceLift = 0
    }

    /// Abandons the stroke; the driver restores committed from base as the host does.
    public func cancel() throws(CheckFailure) {
        guard inStroke else { return }
        try invoke("cancelled()\(where_)") { brush.cancelled() }
        inStroke = false
        committed.copy(from: base, in: committedDirty)
        preview.copy(from: committed, in: committedDirty)
        restorePreview()
        try checkStrokeEnd(committedRects: .empty, what: "the cancelled stroke \(strokeCount)")
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
            let status = try invoke("tick(t=\(t), dt=\(dt)) after stroke \(strokeCount), seed \(seed)") {
                brush.tick(t: t, dt: dt)
            }
            try checkStatus(status, hook: "tick")
            if checks.contains(.inputs) { base.snapshot(into: &baseSnapshot) }
            let dirty = try drawChecked(layer: BRISTLE_LAYER_COMMITTED, withBase: false, window: committed.bounds,
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
            let window = continuous ? pendingBox : strokeBox
            let changed = try drawChecked(layer: BRISTLE_LAYER_COMMITTED, withBase: true, window: window,
                                          after: ending ? "ended" : "an event")
            committedDirty = committedDirty.union(changed.bounds)
            for r in changed.rects { preview.copy(from: committed, in: r) }
            pendingBox = .empty
        }
        guard !ending else { return }
        var previewWanted = !continuous
        predictedBox = .empty
        if capabilities.contains(.wantsPredicted), !predicted.isEmpty {
            predictedBox = Self.box(of: predicted)
            let call = "predicted(count=\(predicted.count), first={\(Self.describe(predicted[0]))})\(where_)"
            let (status, samplesIntact) = try invoke(call) {
                lendSamples(predicted, to: call) { brush.predicted($0, count: predicted.count) }
            }
            try checkInputs(samplesIntact, nil, hook: "predicted")
            try checkStatus(status, hook: "predicted")
            previewWanted = true
        }
        if previewWanted {
            // A shape's preview spans the whole stroke; around the latest samples is where a
            // draw changes pixels first. What it changes elsewhere and does not report stays
            // in the preview, which the end of the stroke compares with committed.
            let window = eventBox.union(predictedBox)
            previewDirty = try drawChecked(layer: BRISTLE_LAYER_PREVIEW, withBase: true, window: window,
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
    /// rectangles of its dirty list, or its `*dirty`, clipped to the canvas. `window` is the
    /// box of the samples the draw is about (see ``dirtyWindowMargin``).
    private func drawChecked(layer kind: UInt32, withBase: Bool, window samples: PixelRect,
                             after: String) throws(CheckFailure) -> DirtyRegion {
        let committedLayer = kind == BRISTLE_LAYER_COMMITTED
        let layer = committedLayer ? committed : preview
        let layerName = layer.name
        let window = dirtyWindowMargin.map { margin in
            let m = Int32(margin + Int((strokeWidth * max(scale, 1) * 2).rounded(.up)))
            return samples.isEmpty ? .empty : PixelRect(x: samples.x - m, y: samples.y - m,
                                                        width: samples.width + 2 * m, height: samples.height + 2 * m)
        } ?? layer.bounds
        if checks.contains(.dirtyRect) { layer.snapshot(into: &beforeDraw, window: window) }
        let call = "draw(layer=\(layerName), \(layer.width)x\(layer.height), stride=\(layer.strideBytes)) "
            + "after \(after)\(where_)"
        services.watched = checks.contains(.padding) ? (withBase ? [layer, base] : [layer]) : []
        services.call = call
        defer { services.watched = [] }
        let (((status, dirtyAfter), targetIntact), contextAfter) = try invoke(call) {
            lendContext(to: call) { c -> ((Int32, [bristle_rect_t]), Bool) in
                lendDirtyList(to: call) { list in
                    let target = bristle_target_t(
                        struct_size: UInt32(MemoryLayout<bristle_target_t>.size),
                        format: BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED, pixels: layer.pixels,
                        base: withBase ? UnsafePointer(base.pixels) : nil, width: Int32(layer.width),
                        height: Int32(layer.height), stride_bytes: Int32(layer.strideBytes), layer: kind,
                        stroke: UnsafePointer(c), services: services.table, dirty_list: list)
                    let (result, targetAfter) = lend([target], memory?.target, to: call) { t in
                        lend([bristle_rect_t(x: 0, y: 0, width: 0, height: 0)], memory?.dirty, to: call) { d in
                            brush.cInstance.pointee.draw!(brush.cInstance, t, d)
                        }
                    }
                    return (result, Self.sameBytes([target], targetAfter))
                }
            }
        }
        let dirty = dirtyAfter[0]
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
            if let found = services.takeFailure() {
                throw CheckFailure("\(found); it restored those bytes before returning, but the bytes between "
                                   + "width * 4 and stride_bytes belong to the host at all times")
            }
        }
        if checks.contains(.dirtyRect), let p = layer.firstDifference(from: beforeDraw, outsideAll: changed, window: window) {
            let listed = dirtyList.listed.map { Array($0) } ?? []
            throw CheckFailure("\(call) changed pixel (\(p.x), \(p.y)) of \(layerName) to "
                               + "\(layer.describePixel(x: p.x, y: p.y)) "
                               + (listed.isEmpty ? "outside its reported dirty rect \(reported): *dirty must cover every changed pixel"
                                  : "outside every rectangle it listed in target->dirty_list ("
                                    + listed.map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height).description }
                                        .joined(separator: ", ")
                                    + "): with a non-empty list, the listed rectangles must cover every changed pixel"))
        }
        if checks.contains(.premultiplied), let p = changed.rects.lazy.compactMap({ layer.firstUnpremultiplied(in: $0) }).first {
            throw CheckFailure("\(call) left pixel (\(p.x), \(p.y)) of \(layerName) at "
                               + "\(layer.describePixel(x: p.x, y: p.y)), a colour channel above alpha: pixels are "
                               + "premultiplied, so R, G, B <= A always (stroke colour \(Self.describe(color)))")
        }
        if checks.contains(.inputs) {
            if !targetIntact {
                throw CheckFailure("\(call) modified the target struct it was given (read-only input)")
            }
            if !Self.sameBytes(contextAfter, [context]) {
                throw CheckFailure("\(call) modified the stroke context (read-only input)")
            }
            if withBase, !base.matches(baseSnapshot) {
                throw CheckFailure("\(call) modified target->base, which is read-only")
            }
        }
        if let m = memory {
            committedLayer ? (committed = m.replace(committed, after: call)) : (preview = m.replace(preview, after: call))
            if withBase { base = m.replace(base, after: call) }
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

    // MARK: Calls and the memory they lend

    /// Records `call`, runs it, then runs ``afterEachCall``.
    private func invoke<R>(_ call: String, _ body: () -> R) throws(CheckFailure) -> R {
        let result = recorder.record(call, body)
        try afterEachCall?(call)
        return result
    }

    /// Passes `values` to `body` in memory the host owns for the call only: a Swift array, or
    /// with the lifetimes check a fresh guarded slot of `arena`, taken back afterwards. Returns
    /// what `body` returned and the values as the call left them.
    private func lend<T, R>(_ values: [T], _ arena: HandoffArena?, to call: String,
                            _ body: (UnsafeMutablePointer<T>) -> R) -> (R, [T]) {
        if let arena, let raw = values.withUnsafeBytes({ arena.lend($0, to: call) }) {
            let result = body(raw.bindMemory(to: T.self, capacity: values.count))
            let bytes = arena.takeBack(after: call)
            return (result, bytes.withUnsafeBytes { Array($0.bindMemory(to: T.self)) })
        }
        var copy = values
        let result = copy.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        return (result, copy)
    }

    /// Lays `batch` out as the host does (the stride rule, ``SamplePacker``) and passes it to
    /// `body`: in the packer's buffer, or with the lifetimes check in a fresh slot taken back
    /// afterwards. Returns what `body` returned and whether the samples are as they were.
    private func lendSamples<R>(_ batch: [bristle_sample_t], to call: String,
                                _ body: (UnsafePointer<bristle_sample_t>) -> R) -> (R, Bool) {
        let first = samples.pack(batch)
        let packed = samples.bytes(count: batch.count)
        if let arena = memory?.samples, let raw = arena.lend(packed, to: call) {
            let result = body(UnsafePointer(raw.bindMemory(to: bristle_sample_t.self, capacity: batch.count)))
            return (result, arena.takeBack(after: call).elementsEqual(packed))
        }
        let before = checks.contains(.inputs) ? Array(packed) : []
        let result = body(first)
        return (result, !checks.contains(.inputs) || samples.bytes(count: batch.count).elementsEqual(before))
    }

    /// Passes the target's dirty list to `body`, emptied for the draw, its rectangles flush
    /// against a guard page (an append past the capacity faults): the host's own list struct,
    /// or with the lifetimes check a fresh copy taken back afterwards. What the draw listed is
    /// copied into the host's list.
    private func lendDirtyList<R>(to call: String, _ body: (UnsafeMutablePointer<bristle_dirty_list_t>) -> R) -> R {
        dirtyList.reset()
        guard let storage = dirtyList.list.pointee.rects else { return body(dirtyList.list) }
        let empty = [bristle_rect_t](repeating: bristle_rect_t(), count: Int(dirtyList.list.pointee.capacity))
        let (result, rects) = lend(empty, memory?.dirtyRects ?? listRects, to: call) { rects in
            guard let m = memory else {
                dirtyList.list.pointee.rects = rects
                defer { dirtyList.list.pointee.rects = storage }
                return body(dirtyList.list)
            }
            var list = dirtyList.list.pointee
            list.rects = rects
            let (result, after) = lend([list], m.dirtyList, to: call, body)
            dirtyList.list.pointee.count = after[0].count
            return result
        }
        for (i, r) in rects.enumerated() { storage[i] = r }
        return result
    }

    /// Passes the stroke context to `body`: with the lifetimes check in a fresh slot taken back
    /// afterwards, otherwise in one place for the whole stroke (so that a brush keeping it
    /// fails the lifetimes test only, not every test with symptoms of reading freed memory).
    private func lendContext<R>(to call: String, _ body: (UnsafeMutablePointer<bristle_stroke_context_t>) -> R)
        -> (R, [bristle_stroke_context_t]) {
        if let arena = memory?.context { return lend([context], arena, to: call, body) }
        if memcmp(contextStorage, [context], MemoryLayout<bristle_stroke_context_t>.size) != 0 { contextStorage.pointee = context }
        let result = body(contextStorage)
        return (result, [contextStorage.pointee])
    }

    // MARK: Checks

    /// After a stroke ends or is cancelled and the host restored what it restores: committed
    /// differs from base (committed before the stroke) only inside `committedRects`, and the
    /// preview equals committed. A pixel changed outside every reported rectangle, by a draw or
    /// outside any draw, shows up here even when the per-draw check looked at a window only.
    private func checkStrokeEnd(committedRects: PixelRect, what: String) throws(CheckFailure) {
        guard checks.contains(.dirtyRect) else { return }
        if let p = committed.firstDifference(from: base, outside: committedRects) {
            throw CheckFailure("after \(what), committed pixel (\(p.x), \(p.y)) is \(committed.describePixel(x: p.x, y: p.y)) "
                               + "but was \(base.describePixel(x: p.x, y: p.y)) before the stroke, outside every "
                               + "rectangle the stroke's draws reported: *dirty must cover every changed pixel, and "
                               + "pixels change only during draw")
        }
        if let p = preview.firstDifference(from: committed, outside: .empty) {
            throw CheckFailure("after \(what) and the host's restore of every reported preview rectangle, preview pixel "
                               + "(\(p.x), \(p.y)) is \(preview.describePixel(x: p.x, y: p.y)) but committed holds "
                               + "\(committed.describePixel(x: p.x, y: p.y)): a preview draw changed a pixel it did not report")
        }
    }

    private func checkStatus(_ status: Int32, hook: String) throws(CheckFailure) {
        guard status != BRISTLE_OK else { return }
        throw CheckFailure("\(hook) returned \(StatusName.of(status)) for valid input\(where_); a brush "
                           + "clamps or skips what it cannot use and carries on")
    }

    private func checkInputs(_ samplesIntact: Bool, _ contextAfter: [bristle_stroke_context_t]?,
                             hook: String) throws(CheckFailure) {
        guard checks.contains(.inputs) else { return }
        if !samplesIntact { throw CheckFailure("\(hook) modified the samples it was given (read-only input)\(where_)") }
        if let contextAfter, !Self.sameBytes(contextAfter, [context]) {
            throw CheckFailure("\(hook) modified the stroke context (read-only input)\(where_)")
        }
    }

    private static func sameBytes<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.count == y.count && memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// Widens the sample boxes by the next event's `samples` (finite, not absurd positions
    /// only); a segment from the sample before them is part of what a draw paints.
    private func note(_ samples: [bristle_sample_t]) {
        let b = Self.box(of: samples)
        eventBox = b.union(lastBox)
        pendingBox = pendingBox.union(eventBox)
        strokeBox = strokeBox.union(b)
        let last = Self.box(of: [samples[samples.count - 1]])
        if !last.isEmpty { lastBox = last }
    }

    private static func box(of samples: [bristle_sample_t]) -> PixelRect {
        var r = PixelRect.empty
        for s in samples where s.x.isFinite && s.y.isFinite && abs(s.x) < 1e7 && abs(s.y) < 1e7 {
            r = r.union(PixelRect(x: Int32(s.x.rounded(.down)), y: Int32(s.y.rounded(.down)), width: 1, height: 1))
        }
        return r
    }

    /// A sample as `x=.. y=.. t=.. p=..` for hook records.
    static func describe(_ s: bristle_sample_t) -> String {
        "x=\(s.x), y=\(s.y), t=\(s.t), pressure=\(s.pressure), flags=0x\(String(s.flags, radix: 16))"
    }

    static func describe(_ c: bristle_color_t) -> String { "(\(c.r), \(c.g), \(c.b), \(c.a))" }
}
