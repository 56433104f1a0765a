@_exported import CBristle

/// The drawing loop: the template method that drives a brush through strokes over three
/// layers (bristle.h, "THE DRAWING LOOP").
///
/// - ``committed`` is the drawing (transparent at start); ``preview`` is what is shown:
///   committed plus provisional pixels (a rubber-banding shape, predicted samples). The
///   preview is allocated when first needed (the first preview draw, or reading
///   ``preview``): a render whose brushes never draw a preview never pays for it.
/// - ``base`` holds committed as it was before the current stroke. Brushes read it through
///   `target->base` to recompose a translucent stroke exactly, and cancel restores from it.
///   Between strokes it equals committed; the host keeps it so by copying the stroke's dirty
///   rectangle when the stroke ends, never the whole canvas.
/// - The background (a colour or an image) is separate: brushes never see it, export puts it
///   under committed, so an eraser reveals it.
///
/// - ``history`` keeps undo and redo as changed 64x64 tiles: each completed stroke and each
///   clear is one step (see ``undo(_:)``, ``redo(_:)``, ``clear()``).
///
/// Per event the session does work proportional to the dirty rectangles only: no whole-layer
/// copies, clears or scans. Not thread-safe; use one session per thread.
public final class DrawingSession {
    public let width: Int
    public let height: Int
    /// Canvas pixels per point; brush widths in points are multiplied by it.
    public let scale: Float
    public let committed: Layer
    /// The preview layer, allocated (and brought up to date with committed) on first use.
    /// Traps when its memory cannot be had; ``preparePreview()`` reports that as an error.
    public var preview: Layer {
        do { return try preparePreview() } catch { preconditionFailure(error.description) }
    }
    /// True once the preview layer exists (see ``preview``).
    public var hasPreview: Bool { previewStorage != nil }
    public let base: Layer
    public let background: Background
    /// Undo and redo of the committed layer; set its ``TileHistory/budgetBytes`` to change the
    /// memory it may keep.
    public let history: TileHistory

    /// The brush for the next stroke. Change it between strokes only. A new brush starts its
    /// own tick clock: it gets ticks only after a stroke of its own has ended.
    public var brush: Brush? {
        willSet { precondition(stroke == nil, "the brush changes between strokes only") }
        didSet {
            hadStroke = false
            framesSinceLift = 0
        }
    }
    /// The user's colour for the next stroke.
    public var color: RGBAColor = .black
    /// The user's width for the next stroke, in points.
    public var strokeWidth: Double = 4
    /// The widest stroke the host accepts, in points. Wider is taken as a mistake (a brush
    /// would draw nothing sensible) and refused with an error rather than a blank image.
    public static let maximumStrokeWidth = 10_000.0
    /// The canvas scales the host accepts, in pixels per point.
    public static let scaleRange = 0.01...100.0
    /// The session seed; stroke `n` gets `Self.strokeSeed(seed, n)`.
    public var seed: UInt64 = 0
    /// The tick clock's rate in Hz.
    public var frameRate: Double = 60

    /// What the input device can report (`BRISTLE_SAMPLE_HAS_*`), for the stroke context.
    public struct Device: Sendable, Equatable {
        public var flags: UInt32
        public var pointerType: UInt32
        public var maxForce: Float
        public init(flags: UInt32, pointerType: UInt32, maxForce: Float = 0) {
            self.flags = flags
            self.pointerType = pointerType
            self.maxForce = maxForce
        }
    }

    /// Numbers about the session's work so far. `pixelsCopied` counts the pixels the host
    /// copied between layers (tests use it to prove per-event work follows dirty rectangles).
    @exclusivity(unchecked) public private(set) var pixelsCopied = 0
    public private(set) var strokesCompleted = 0
    public private(set) var strokesCancelled = 0

    /// Whether to collect ``damage`` (off by default: a renderer that exports at the end
    /// needs none).
    @exclusivity(unchecked) public var collectsDamage = false
    /// While ``collectsDamage`` is on: the rectangles of the preview layer (what an app shows:
    /// committed plus provisional pixels) whose pixels may have changed since the last
    /// ``takeDamage()``, in the order the changes happened; they may overlap. Every call that
    /// changes pixels adds to it: strokes, ticks, clear, undo and redo.
    @exclusivity(unchecked) public private(set) var damage: [PixelRect] = []

    /// Records the draws (their layer, what they reported dirty and, when the timeline counts
    /// them, the pixels they changed) and the services the session's targets carry
    /// (``HookTimeline``). Set it on the session's brushes too, for their other hooks. A
    /// timeline that counts changed pixels makes the session allocate ``preview`` now
    /// (``PixelAudit`` compares committed draws with it); without memory for it nothing is
    /// counted.
    @exclusivity(unchecked) public var timeline: HookTimeline? {
        didSet {
            host.timeline = timeline
            audit = timeline?.countsChangedPixels == true
                ? (try? preparePreview()).map { PixelAudit(committed: committed, preview: $0) } : nil
        }
    }
    /// What counts changed pixels, while the timeline asks for them.
    @exclusivity(unchecked) private var audit: PixelAudit?

    private let host: BrushHost
    // The state every event touches is `@exclusivity(unchecked)` (also ``collectsDamage``,
    // ``timeline`` and ``audit``, read per draw and per copy): a session is used from one
    // thread and nothing a hook calls re-enters it, so no two accesses can overlap, and the
    // runtime's access checks cost about a thousand instructions an event.
    /// The preview once allocated (see ``preview``).
    @exclusivity(unchecked) private var previewStorage: Layer?
    /// Before the preview exists: the tiles where committed changed, which it must copy when
    /// it is allocated (elsewhere both are transparent).
    @exclusivity(unchecked) private var previewBacklog: TileMarks
    private let context: UnsafeMutablePointer<bristle_stroke_context_t>
    @exclusivity(unchecked) private var stroke: StrokeState?
    private var strokeCount: UInt64 = 0
    private var framesSinceLift = 0
    private var hadStroke = false

    private struct StrokeState {
        var brush: Brush
        /// Union of committed changes during this stroke: what ends copy to base and cancel restores.
        var committedDirty = PixelRect.empty
    }
    /// Pixels of the preview that differ from committed during a stroke: what the last preview
    /// draw reported (its dirty list, merged, or its one rectangle). Kept outside
    /// ``StrokeState`` so that updating it never copies its storage.
    @exclusivity(unchecked) private var previewDirty = DirtyRegion()
    /// What the current draw changed, read back from ``dirtyList``.
    @exclusivity(unchecked) private var drawn = DirtyRegion()
    /// The dirty list every target carries (bristle.h, since 1.2).
    private let dirtyList = DirtyList()

    /// Creates a session with a transparent committed layer and an empty history that keeps at
    /// most `historyBudgetBytes` (default ``TileHistory/defaultBudgetBytes``, 256 MiB).
    public init(width: Int, height: Int, scale: Float = 1, background: Background = .color(.white),
                host: BrushHost = BrushHost(),
                historyBudgetBytes: Int = TileHistory.defaultBudgetBytes) throws(SessionError) {
        guard width > 0, height > 0, width <= Layer.maximumSide, height <= Layer.maximumSide,
              width * height <= Layer.maximumArea else {
            throw .badCanvasSize(width: width, height: height)
        }
        // Compared as Float: the documented bound 0.01 is not exact in binary, and a Float
        // scale of 0.01 is slightly below the Double 0.01.
        guard scale >= Float(Self.scaleRange.lowerBound), scale <= Float(Self.scaleRange.upperBound) else {
            throw .badScale(Double(scale))
        }
        guard let committed = Layer(width: width, height: height),
              let base = Layer(width: width, height: height) else {
            throw .outOfMemory(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.scale = scale
        self.committed = committed
        self.base = base
        self.background = background
        history = TileHistory(width: width, height: height, budgetBytes: historyBudgetBytes)
        previewBacklog = TileMarks(count: history.grid.tileCount)
        self.host = host
        context = .allocate(capacity: 1)
        context.initialize(to: bristle_stroke_context_t())
        fillContext(device: Device(flags: 0, pointerType: BRISTLE_POINTER_UNKNOWN))
    }

    deinit { context.deallocate() }

    /// True between ``begin(_:device:predicted:)`` and ``end(_:)``/``cancel()``.
    public var isInStroke: Bool { stroke != nil }

    /// The seed of stroke number `index` (1-based) in a session seeded with `seed`
    /// (SplitMix64 of their combination, so neighbouring strokes get unrelated seeds).
    public static func strokeSeed(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var z = seed &+ index &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private func fillContext(device: Device) {
        context.pointee = bristle_stroke_context_t(
            struct_size: UInt32(MemoryLayout<bristle_stroke_context_t>.size),
            device_flags: device.flags,
            color: bristle_color_t(r: color.red, g: color.green, b: color.blue, a: color.alpha),
            width: Float(strokeWidth), scale: scale,
            seed: Self.strokeSeed(seed, strokeCount), pointer_type: device.pointerType,
            max_force: device.maxForce, canvas_width: Int32(width), canvas_height: Int32(height))
    }

    // MARK: The template method

    /// Starts a stroke at `sample`: calls `begin`, then draws; `predicted` samples go to the
    /// preview only (brushes with WANTS_PREDICTED).
    public func begin(_ sample: bristle_sample_t, device: Device,
                      predicted: [bristle_sample_t] = []) throws(SessionError) {
        guard stroke == nil else { throw .outOfOrder("begin during a stroke") }
        guard let brush else { throw .noBrush }
        guard strokeWidth.isFinite, strokeWidth > 0, strokeWidth <= Self.maximumStrokeWidth else {
            throw .brushFailed(.badParameterValue(
                brush: brush.descriptor.id, name: "width", value: String(strokeWidth),
                expected: "a number of points in (0, \(Int(Self.maximumStrokeWidth))]"))
        }
        strokeCount += 1
        fillContext(device: device)
        stroke = StrokeState(brush: brush)
        try check(brush.begin(context, sample), hook: "begin")
        try drawAfterEvent(ending: false, predicted: predicted)
    }

    /// Continues the stroke with one input event's samples (its coalesced samples, oldest
    /// first, ending with the event's own position).
    public func move(_ samples: [bristle_sample_t], predicted: [bristle_sample_t] = []) throws(SessionError) {
        guard let stroke else { throw .outOfOrder("moved outside a stroke") }
        guard !samples.isEmpty else { return }
        try check(stroke.brush.moved(samples), hook: "moved")
        try drawAfterEvent(ending: false, predicted: predicted)
    }

    /// Ends the stroke at `sample`: calls `ended`, draws the final part into committed and
    /// makes the stroke part of the drawing, as one step of ``history`` (the tiles whose bytes
    /// it changed). When that goes over the history budget, the oldest steps are dropped and
    /// ``takeHistoryNotices()`` says so.
    public func end(_ sample: bristle_sample_t) throws(SessionError) {
        guard let current = stroke else { throw .outOfOrder("ended outside a stroke") }
        try check(current.brush.ended(sample), hook: "ended", strokeEnded: true)
        try drawAfterEvent(ending: true, predicted: [])
        guard let finished = stroke else { return }
        // Base catches up where the stroke changed bytes only: a long thin stroke across a
        // huge canvas has a huge rectangle, but few changed tiles.
        for tile in history.record(before: base, after: committed, in: finished.committedDirty) {
            copy(into: base, from: committed, in: tile.intersection(finished.committedDirty))
        }
        stroke = nil
        strokesCompleted += 1
        framesSinceLift = 0
        hadStroke = true
    }

    /// Abandons the stroke: committed becomes byte-identical to what it was before `begin`.
    public func cancel() {
        guard let current = stroke else { return }
        current.brush.cancelled()
        rollBack()
    }

    private func rollBack(extra: PixelRect = .empty) {
        guard let current = stroke else { return }
        let touched = current.committedDirty.union(extra)
        copy(into: committed, from: base, in: touched)
        copyToPreview(touched)
        for r in previewDirty.rects { copyToPreview(r) }
        previewDirty.removeAll()
        stroke = nil
        strokesCancelled += 1
    }

    /// Advances a WANTS_TICKS brush by `frames` frames of the deterministic clock, each
    /// followed by a committed draw. Returns false (and does nothing) when there is no brush,
    /// the brush does not want ticks, or no stroke of this brush has ended since it was chosen
    /// or since the last undo, redo or clear.
    ///
    /// What ticks change is folded into the history step of the stroke that ended last, so
    /// undoing that stroke also takes back the ticks since (the canvas returns to what it was
    /// before the stroke) and redo brings back the stroke with them. Ticks are never steps of
    /// their own. When that stroke's step has been dropped for the budget, tick changes can
    /// no longer be undone.
    @discardableResult
    public func tick(frames: Int) throws(SessionError) -> Bool {
        guard stroke == nil else { throw .outOfOrder("ticks during a stroke") }
        guard let brush, brush.descriptor.capabilities.contains(.wantsTicks), hadStroke else { return false }
        let dt = 1 / frameRate
        for _ in 0..<max(frames, 0) {
            framesSinceLift += 1
            let status = brush.tick(t: Double(framesSinceLift) * dt, dt: dt)
            guard status == BRISTLE_OK else {
                throw .brushFailed(.hookFailed(brush: brush.descriptor.id, hook: "tick", status: status))
            }
            let drawStatus = draw(brush, into: committed, layer: BRISTLE_LAYER_COMMITTED, base: nil)
            // Between strokes base tracks committed, so a tick's change is copied to both;
            // until then base still holds the tiles as they were, which the history keeps.
            history.extendNewest(before: base, after: committed, in: drawn.bounds)
            for r in drawn.rects {
                copyToPreview(r)
                copy(into: base, from: committed, in: r)
            }
            guard drawStatus == BRISTLE_OK else {
                throw .brushFailed(.hookFailed(brush: brush.descriptor.id, hook: "draw after tick", status: drawStatus))
            }
        }
        return true
    }

    /// Makes the canvas transparent again (an explicit whole-canvas action, not per event),
    /// as one undoable step of ``history``: undo brings back every tile that held something.
    /// The background is not part of the canvas and stays. Ticks stop until the next stroke.
    ///
    /// Returns the change (1 step requested and performed) with the cleared tiles as `dirty`.
    /// Throws ``SessionError/outOfOrder(_:)`` during a stroke, changing nothing.
    @discardableResult
    public func clear() throws(SessionError) -> HistoryChange {
        guard stroke == nil else { throw .outOfOrder("clear during a stroke; end or cancel the stroke first") }
        var dirty = PixelRect.empty
        let layers = [committed] + mirrors
        for tile in history.recordClear(of: committed) {
            for layer in layers { layer.fill(.transparent, in: tile) }
            audit?.sync(committed, in: tile)
            dirty = dirty.union(tile)
        }
        addDamage(dirty)
        hadStroke = false
        framesSinceLift = 0
        return HistoryChange(requested: 1, performed: 1, dirty: dirty)
    }

    /// Returns ``damage`` and forgets it: an app repaints these rectangles of ``preview`` after
    /// each call (a live view sends them as patches).
    public func takeDamage() -> [PixelRect] {
        defer { damage.removeAll(keepingCapacity: true) }
        return damage
    }

    /// Takes back the last `steps` steps (completed strokes and clears, newest first), or as
    /// many as the history holds when it holds fewer: the committed layer (and the preview and
    /// base, which equal it between strokes) gets back the bytes it had before each step.
    /// Brushes are not told; ticks stop until the next stroke. The background is untouched.
    ///
    /// Returns how many steps were undone (check ``HistoryChange/isShort``) and the rectangle
    /// to repaint. Throws ``SessionError/outOfOrder(_:)`` during a stroke and
    /// ``SessionError/badHistorySteps(_:)`` when `steps` < 1, changing nothing.
    @discardableResult
    public func undo(_ steps: Int = 1) throws(SessionError) -> HistoryChange {
        try travel(steps, "undo") { history.undo(into: committed, mirroring: mirrors) }
    }

    /// Re-applies the last `steps` undone steps, oldest undone last first, or as many as there
    /// are: the committed layer gets back the bytes it had after each step. A completed stroke
    /// or a clear empties the redo side. Otherwise as ``undo(_:)``.
    @discardableResult
    public func redo(_ steps: Int = 1) throws(SessionError) -> HistoryChange {
        try travel(steps, "redo") { history.redo(into: committed, mirroring: mirrors) }
    }

    /// Moves through the history by `offset` steps in one call: ``undo(_:)`` of `-offset` steps
    /// when negative, ``redo(_:)`` of `offset` when positive. A script's run of undo and redo
    /// actions folds into one such move, so that undoing and redoing a step back and forth
    /// costs nothing until something draws. Like any undo or redo it stops ticks until the next
    /// stroke, even when `offset` is 0 (which changes no pixel).
    @discardableResult
    public func travel(by offset: Int) throws(SessionError) -> HistoryChange {
        if offset < 0 { return try undo(-offset) }
        if offset > 0 { return try redo(offset) }
        guard stroke == nil else { throw .outOfOrder("undo or redo during a stroke; end or cancel the stroke first") }
        hadStroke = false
        framesSinceLift = 0
        return HistoryChange(requested: 0, performed: 0, dirty: .empty)
    }

    /// Returns the history notices (steps dropped for the budget) since the last call, oldest
    /// first, and forgets them. Call it after strokes and ticks to warn the user.
    public func takeHistoryNotices() -> [HistoryNotice] { history.takeNotices() }

    /// The layers that follow committed tile by tile when the history swaps: base, and the
    /// preview once it exists (before that, ``travel(_:_:_:)`` notes the tiles for it).
    private var mirrors: [Layer] { [base] + (previewStorage.map { [$0] } ?? []) }

    /// Runs `step` up to `steps` times, while it has something to do.
    private func travel(_ steps: Int, _ name: String,
                        _ step: () -> PixelRect?) throws(SessionError) -> HistoryChange {
        guard stroke == nil else { throw .outOfOrder("\(name) during a stroke; end or cancel the stroke first") }
        guard steps >= 1 else { throw .badHistorySteps(steps) }
        var change = HistoryChange(requested: steps, performed: 0, dirty: .empty)
        while change.performed < steps, let dirty = step() {
            change.performed += 1
            change.dirty = change.dirty.union(dirty)
        }
        if previewStorage == nil { previewBacklog.insert(covering: change.dirty, of: history.grid) }
        audit?.sync(committed, in: change.dirty)
        addDamage(change.dirty)
        hadStroke = false
        framesSinceLift = 0
        return change
    }

    /// After a hook: restore the preview, draw committed and/or preview as the brush's kind
    /// requires, and copy committed changes to the preview — all inside dirty rectangles (each
    /// rectangle of a draw's dirty list; the stroke's committed extent is their bounds).
    private func drawAfterEvent(ending: Bool, predicted: [bristle_sample_t]) throws(SessionError) {
        // The stroke's state is read and updated in place (`stroke!`), never copied out and
        // back: a copy is a retain and release of the brush each, per event.
        guard let brush = stroke?.brush else { return }
        let caps = brush.descriptor.capabilities
        let continuous = caps.contains(.continuous)
        // By index, in place: a `for` loop over a region's array retains and releases its storage.
        var i = 0
        while i < previewDirty.rects.count { copyToPreview(previewDirty.rects[i]); i &+= 1 }
        previewDirty.removeAll()

        if continuous || ending {
            let status = draw(brush, into: committed, layer: BRISTLE_LAYER_COMMITTED, base: base)
            let changed = drawn.bounds
            guard status == BRISTLE_OK else {
                if !ending { brush.cancelled() }
                rollBack(extra: changed)
                throw .brushFailed(.hookFailed(brush: brush.descriptor.id, hook: "draw", status: status))
            }
            stroke!.committedDirty = stroke!.committedDirty.union(changed)
            i = 0
            while i < drawn.rects.count { copyToPreview(drawn.rects[i]); i &+= 1 }
        }
        guard !ending else { return }
        var previewWanted = !continuous
        if caps.contains(.wantsPredicted), !predicted.isEmpty {
            try check(brush.predicted(predicted), hook: "predicted")
            previewWanted = true
        }
        if previewWanted {
            let preview: Layer
            do {
                preview = try preparePreview()
            } catch {
                brush.cancelled()
                rollBack()
                throw error
            }
            let status = draw(brush, into: preview, layer: BRISTLE_LAYER_PREVIEW, base: base)
            swap(&previewDirty, &drawn)
            for r in previewDirty.rects { addDamage(r) }
            guard status == BRISTLE_OK else {
                brush.cancelled()
                rollBack()
                throw .brushFailed(.hookFailed(brush: brush.descriptor.id, hook: "draw (preview)", status: status))
            }
        }
    }

    /// One draw; what it changed, clipped to the layer, is left in ``drawn``.
    private func draw(_ brush: Brush, into layer: Layer, layer kind: UInt32, base: Layer?) -> Int32 {
        dirtyList.reset()
        let timeline = self.timeline, firstCall = timeline?.count ?? 0
        var target = bristle_target_t(
            struct_size: UInt32(MemoryLayout<bristle_target_t>.size),
            format: BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED, pixels: layer.pixels,
            base: base.map { UnsafePointer($0.pixels) }, width: Int32(width), height: Int32(height),
            stride_bytes: Int32(layer.strideBytes), layer: kind, stroke: UnsafePointer(context),
            services: host.cServices, dirty_list: dirtyList.list)
        var dirty = bristle_rect_t(x: 0, y: 0, width: 0, height: 0)
        let status = brush.draw(&target, dirty: &dirty)
        dirtyList.region(dirty: dirty, clip: layer.bounds, into: &drawn)
        if let timeline { note(timeline, drawInto: layer, since: firstCall) }
        return status
    }

    /// Gives the timeline what the draw just made reported, and what it changed where it
    /// reported or its services drew (when the timeline counts changed pixels).
    private func note(_ timeline: HookTimeline, drawInto layer: Layer, since firstCall: Int) {
        let reported = drawn.rects
        let changed = audit?.changedPixels(layer, reported: reported, timeline: timeline, since: firstCall)
        timeline.noteDraw(reported: reported, changedPixels: changed)
    }

    /// Allocates the preview if it does not exist yet, copying into it the tiles where committed
    /// has changed, and returns it. Throws ``SessionError/outOfMemory(width:height:)`` when the
    /// layer cannot be allocated.
    @discardableResult
    public func preparePreview() throws(SessionError) -> Layer {
        if let previewStorage { return previewStorage }
        guard let layer = Layer(width: width, height: height) else {
            throw .outOfMemory(width: width, height: height)
        }
        for tile in previewBacklog.tiles { copy(into: layer, from: committed, in: history.grid.rect(of: tile)) }
        previewBacklog.removeAll()
        previewStorage = layer
        return layer
    }

    /// Brings the preview up to date with committed inside `rect`, or, before the preview
    /// exists, notes the tiles it will have to copy.
    private func copyToPreview(_ rect: PixelRect) {
        if let previewStorage {
            copy(into: previewStorage, from: committed, in: rect)
        } else {
            let r = rect.intersection(committed.bounds)
            previewBacklog.insert(covering: r, of: history.grid)
            addDamage(r)
        }
    }

    /// Copies a rectangle between layers, counting the pixels.
    private func copy(into destination: Layer, from source: Layer, in rect: PixelRect) {
        let r = rect.intersection(destination.bounds)
        guard !r.isEmpty else { return }
        pixelsCopied += Int(r.width) * Int(r.height)
        destination.copy(from: source, in: r)
        audit?.sync(destination, in: r)
        if destination === previewStorage { addDamage(r) }
    }

    private func addDamage(_ rect: PixelRect) {
        if collectsDamage, !rect.isEmpty { damage.append(rect) }
    }

    /// Turns a failed hook into a cancelled stroke and an error.
    private func check(_ status: Int32, hook: String, strokeEnded: Bool = false) throws(SessionError) {
        guard status != BRISTLE_OK else { return }
        guard let current = stroke else { return }
        if !strokeEnded { current.brush.cancelled() }
        rollBack()
        throw .brushFailed(.hookFailed(brush: current.brush.descriptor.id, hook: hook, status: status))
    }
}
