import Glibc

/// Renders a ``StrokeScript`` through brushes into a ``DrawingSession``, then to PNG.
///
/// The script's actions run in order: `brush` creates a fresh brush instance (id or path,
/// colour, width, parameters), `stroke` plays input events through the drawing loop,
/// `ticks` advances a brush that wants them, `clear` empties the canvas, `undo`/`redo` walk
/// the session's tile history (docs/stroke-format.md, "Undo, redo and clear"), a run of them
/// folded into one net move (``HistoryTravel``). An undo or redo
/// asking for more steps than the history holds does what it can and adds a located warning
/// to ``stats``, as does the first drop of history for the budget. ``RenderOptions`` override
/// the script.
public final class ScriptRenderer {
    public let options: RenderOptions
    public private(set) var stats = RenderStats()
    /// Every hook and service call of the last session made, with ``RenderOptions/recordHooks``.
    public private(set) var timeline: HookTimeline?
    private var catalog: PluginCatalog?
    private var brushChosen = false
    private var warnedOfDroppedHistory = false

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// Reads an input file of any supported format, chosen by content (see ``InkImporter``):
    /// native JSON as written, recordings fitted into `fitInto` (or the importer's default
    /// size). Tells a missing file or one that is not a regular file (a directory, a FIFO, a
    /// device: refused without opening it; exit 66) from a malformed one (65). `drawing`
    /// chooses one drawing of a Quick, Draw! file (from 0).
    public static func loadInput(path: String, fitInto size: (width: Int, height: Int)? = nil, drawing: Int = 0)
        throws(RenderError) -> (script: StrokeScript, format: InkImporter.Format)
    {
        let kind = FileKind(path: path)
        if kind == .missing { throw .inputNotFound(path: path) }
        if let what = kind.notRegularDescription { throw .inputNotAFile(path: path, what: what) }
        do {
            return try InkImporter.read(contentsOf: path, fitInto: size ?? InkImporter.defaultCanvasSize, drawing: drawing)
        } catch {
            throw .input(error)
        }
    }

    /// Reads an input file (see ``loadInput(path:fitInto:)``) and returns its script.
    public static func loadScript(path: String) throws(RenderError) -> StrokeScript {
        try loadInput(path: path).script
    }

    /// Runs the script and returns the session holding the result.
    public func render(_ script: StrokeScript) throws(RenderError) -> DrawingSession {
        let session = try makeSession(script)
        stats.warnings += script.warnings
        if let warning = StrokeTiming.warning(for: script) { stats.warnings.append(warning) }
        brushChosen = false
        warnedOfDroppedHistory = false
        // A run of undo and redo actions is one move through the history, applied before the
        // next other action (``HistoryTravel``); each action still counts and warns as itself.
        var travel = HistoryTravel()
        for action in script.actions {
            switch action.kind {
            case .undo(let n):
                count(travel.undo(n, in: session.history), "undo", session, script.sourcePath, action.location)
            case .redo(let n):
                count(travel.redo(n, in: session.history), "redo", session, script.sourcePath, action.location)
            default:
                try sessionCall { () throws(SessionError) in try travel.apply(to: session) }
                _ = try perform(action, in: session, file: script.sourcePath)
            }
        }
        try sessionCall { () throws(SessionError) in try travel.apply(to: session) }
        stats.droppedHistorySteps = session.history.droppedSteps
        stats.historyBytes = session.history.bytes
        return session
    }

    /// Runs one action of a script read from `file` on a session made by
    /// ``makeSession(_:)``, as ``render(_:)`` does for each action in turn (a live view runs
    /// its actions one by one). Returns the undo or redo's change, nil for other actions.
    @discardableResult
    public func perform(_ action: ScriptAction, in session: DrawingSession,
                        file: String) throws(RenderError) -> HistoryChange? {
        var change: HistoryChange?
        switch action.kind {
        case .brush(let spec):
            try choose(spec, in: session, file: file, at: action.location)
            brushChosen = true
        case .stroke(let stroke):
            if !brushChosen {
                try choose(BrushSpec(id: nil, path: nil, color: nil, width: nil, params: []), in: session,
                           file: file, at: action.location)
                brushChosen = true
            }
            try play(stroke, in: session)
        case .ticks(let n):
            if try sessionCall({ () throws(SessionError) -> Bool in try session.tick(frames: n) }) { stats.ticks += n } else { stats.ignoredTicks += n }
        case .clear:
            _ = try sessionCall { () throws(SessionError) in try session.clear() }
        case .undo(let n):
            change = try sessionCall { () throws(SessionError) in try session.undo(n) }
            count(change!, "undo", session, file, action.location)
        case .redo(let n):
            change = try sessionCall { () throws(SessionError) in try session.redo(n) }
            count(change!, "redo", session, file, action.location)
        }
        for notice in session.takeHistoryNotices() where !warnedOfDroppedHistory {
            // The first drop is worth a warning; later ones are counted (--verbose).
            let at = action.location
            stats.warnings.append("\(file):\(at.line):\(at.column): warning: \(notice.description); later drops are counted by --verbose")
            warnedOfDroppedHistory = true
        }
        return change
    }

    /// Counts the steps an undo or redo did, and adds a located warning when it found fewer
    /// steps than it asked for.
    private func count(_ change: HistoryChange, _ name: String, _ session: DrawingSession,
                       _ file: String, _ at: SourceLocation) {
        if name == "undo" { stats.undoneSteps += change.performed } else { stats.redoneSteps += change.performed }
        guard change.isShort else { return }
        let held = name == "undo" ? "held only \(change.performed) step(s) to undo"
                                  : "held only \(change.performed) undone step(s) to redo"
        let dropped = name == "undo" && session.history.droppedSteps > 0
            ? " (\(session.history.droppedSteps) older step(s) were dropped for the history budget; raise it with --history-budget)"
            : ""
        stats.warnings.append("\(file):\(at.line):\(at.column): warning: \(name) \(change.requested) did \(change.performed): the history \(held)\(dropped)")
    }


    /// Renders the script and writes the PNG atomically: a failure leaves no file behind and
    /// an existing `path` untouched. The path `-` means standard output. An output (or frame)
    /// that would replace a file the render reads (the input under any name, the background
    /// image, a brush plugin, ``RenderOptions/protectedPaths``) is refused before anything is
    /// rendered (``RenderError/outputIsAnInput(output:input:)``).
    public func render(_ script: StrokeScript, toPNG path: String) throws(RenderError) {
        let inputs = OutputGuard.inputs(of: script, options: options)
        if path != "-" { try OutputGuard.check(path, against: inputs) }
        let session = try render(script)
        try writeFrames(of: session, protecting: inputs)
        do {
            if path == "-" {
                try session.exportPNG(toFileDescriptor: 1, transparent: options.transparent)
            } else {
                try session.exportPNG(to: path, transparent: options.transparent)
            }
        } catch {
            throw .png(error, writing: true)
        }
    }

    /// Runs ``RenderOptions/frames`` ticks, writing `frame-0001.png`... after each one. A
    /// brush that does not want ticks yields identical frames (counted as ignored ticks).
    private func writeFrames(of session: DrawingSession, protecting inputs: [String]) throws(RenderError) {
        guard options.frames > 0, let directory = options.framesDirectory else { return }
        let digits = max(4, String(options.frames).count)
        for frame in 1...options.frames {
            if try sessionCall({ () throws(SessionError) -> Bool in try session.tick(frames: 1) }) {
                stats.ticks += 1
            } else {
                stats.ignoredTicks += 1
            }
            let number = String(frame)
            let name = "frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
            try OutputGuard.check(directory + "/" + name, against: inputs)
            do {
                try session.exportPNG(to: directory + "/" + name, transparent: options.transparent)
            } catch {
                throw .png(error, writing: true)
            }
            stats.framesWritten += 1
        }
    }

    // MARK: Canvas

    /// The session a script draws on: its canvas (size, scale, background) with the options'
    /// overrides, seed and width.
    public func makeSession(_ script: StrokeScript) throws(RenderError) -> DrawingSession {
        let backgroundSpec = options.background ?? script.canvas.background ?? .color(.white)
        var image: PNGImage?
        if case .image(let path) = backgroundSpec {
            do {
                image = try PNGCodec.read(path: path)
            } catch {
                // A script's background is located at its field; --background is not.
                guard options.background == nil, let at = script.canvas.fieldLocations["background"] else {
                    throw .png(error, writing: false)
                }
                throw .backgroundInScript(error, file: script.sourcePath, line: at.line, column: at.column)
            }
        }
        let size = options.canvasSize
            ?? script.canvas.width.flatMap { w in script.canvas.height.map { (w, $0) } }
            ?? image.map { ($0.width, $0.height) }
            ?? RenderOptions.defaultCanvasSize
        guard size.0 > 0, size.1 > 0, size.0 <= Layer.maximumSide, size.1 <= Layer.maximumSide,
              size.0 * size.1 <= Layer.maximumArea else {
            throw .session(.badCanvasSize(width: size.0, height: size.1))
        }
        let plan = MemoryPlan(width: size.0, height: size.1)
        guard plan.fits else { throw .outOfMemory(plan) }
        var background = Background.color(.white)
        switch backgroundSpec {
        case .color(let color):
            background = .color(color)
        case .image:
            // Premultiplied in place and kept as it is: export tiles it row by row.
            var img = image!
            image = nil
            PixelConversion.premultiply(&img.pixels, width: img.width, height: img.height)
            background = Background.tiled(premultiplied: img.pixels, imageWidth: img.width,
                                          imageHeight: img.height) ?? background
        }
        let session: DrawingSession
        do {
            session = try DrawingSession(width: size.0, height: size.1,
                                         scale: Float(script.canvas.scale ?? 1), background: background,
                                         historyBudgetBytes: options.historyBudgetBytes ?? TileHistory.defaultBudgetBytes)
        } catch {
            throw .session(error)
        }
        session.seed = options.seed ?? 0
        session.strokeWidth = options.width ?? RenderOptions.defaultWidth
        if options.recordHooks {
            timeline = HookTimeline(countsChangedPixels: options.countChangedPixels)
            session.timeline = timeline
        }
        return session
    }

    // MARK: Brushes

    /// Creates the brush a `brush` action (at `location` in `file`) asks for and makes it the
    /// session's. Errors the script caused are located there; errors of the options are not.
    private func choose(_ spec: BrushSpec, in session: DrawingSession, file: String,
                        at location: SourceLocation) throws(RenderError) {
        func located(_ error: BrushError, _ field: String) -> RenderError {
            let at = spec.fieldLocations[field] ?? location
            return .brushInScript(error, file: file, line: at.line, column: at.column)
        }
        let brush: Brush
        do {
            brush = try makeBrush(override: options.brush, id: spec.id, path: spec.path)
        } catch .brush(let error) where options.brush == nil {
            throw located(error, spec.path != nil ? "path" : "id")
        }
        for (name, value) in spec.params {
            // Parameters written for the script's brush do not bind a brush chosen by
            // --brush: those it does not have are skipped (and counted).
            if options.brush != nil, !brush.parameters.contains(where: { $0.id == name }) {
                stats.skippedParameters.append(name)
                continue
            }
            do {
                switch value {
                case .number(let v):
                    try brush.setParameter(name, value: v)
                    if let note = Self.clampNote(brush, name, v) {
                        let at = spec.fieldLocations["params.\(name)"] ?? location
                        stats.warnings.append("\(file):\(at.line):\(at.column): warning: params.\(name) \(BrushParameter.plain(v)) \(note)")
                    }
                case .bool(let b): try brush.setParameter(name, value: b ? 1 : 0)
                case .string(let s): try brush.setParameter(name, text: s)
                }
            } catch {
                throw located(error, "params.\(name)")
            }
        }
        for (name, value) in options.parameters {
            do { try brush.setParameter(name, text: value) } catch { throw .brush(error) }
            if let requested = brush.parameters.first(where: { $0.id == name })?.parse(value),
               let note = Self.clampNote(brush, name, requested) {
                // Once per render, however many brush actions the flag applies to.
                let warning = "warning: --param \(name)=\(value) \(note)"
                if !stats.warnings.contains(warning) { stats.warnings.append(warning) }
            }
        }
        session.brush = brush
        session.color = options.color ?? spec.color ?? .black
        session.strokeWidth = options.width ?? spec.width ?? RenderOptions.defaultWidth
        if !stats.brushes.contains(brush.descriptor.id) { stats.brushes.append(brush.descriptor.id) }
    }

    /// When `requested` lies outside the range of the numeric parameter `name`, which the brush
    /// then clamps: says so, with the range and the value the brush uses.
    private static func clampNote(_ brush: Brush, _ name: String, _ requested: Double) -> String? {
        guard let p = brush.parameters.first(where: { $0.id == name }), p.kind == .float || p.kind == .int,
              requested < p.minimum || requested > p.maximum else { return nil }
        let used = brush.value(of: name) ?? min(max(requested, p.minimum), p.maximum)
        return "is outside its range \(BrushParameter.plain(p.minimum))...\(BrushParameter.plain(p.maximum)); "
            + "\(brush.descriptor.id) uses \(BrushParameter.plain(used))"
    }

    /// Creates the brush named by the override, the script's path or id, or the default.
    /// The brush and its host record on ``timeline`` when there is one.
    private func makeBrush(override: String?, id: String?, path: String?) throws(RenderError) -> Brush {
        let host = BrushHost()
        host.timeline = timeline
        let made: Brush
        if let override {
            switch BrushReference(override) {
            case .file(let file, let chosen): made = try brush(inFile: file, id: chosen, host: host)
            case .id(let chosen): made = try brush(id: chosen, host: host)
            }
        } else if let path {
            made = try brush(inFile: path, id: id, host: host)
        } else {
            made = try brush(id: id ?? RenderOptions.defaultBrush, host: host)
        }
        made.timeline = timeline
        return made
    }

    private func brush(inFile path: String, id: String?, host: BrushHost) throws(RenderError) -> Brush {
        let library: PluginLibrary
        do { library = try PluginLoader.load(path: path) } catch { throw .plugin(error) }
        let chosen: String
        if let id {
            chosen = id
        } else if library.descriptors.count == 1 {
            chosen = library.descriptors[0].id
        } else {
            throw .brush(.ambiguousLibrary(path: library.path, ids: library.descriptors.map(\.id)))
        }
        do { return try Brush(id: chosen, library: library, host: host) } catch { throw .brush(error) }
    }

    private func brush(id: String, host: BrushHost) throws(RenderError) -> Brush {
        if catalog == nil {
            catalog = PluginCatalog(directories: options.searchDirectories ?? PluginSearchPath.directories())
        }
        if let warning = catalog!.clashWarning(id: id).map({ "warning: " + $0 }), !stats.warnings.contains(warning) {
            stats.warnings.append(warning)
        }
        do {
            let library = try catalog!.library(forBrush: id)
            return try Brush(id: id, library: library, host: host)
        } catch {
            throw .brush(error)
        }
    }

    // MARK: Strokes

    /// Plays a stroke. Samples are built event by event as they are sent, so a stroke of a
    /// million samples holds one event's samples at a time; a first pass over the stroke, which
    /// keeps nothing, finds the device capabilities the stroke context announces (the union of
    /// the real samples' flags, and their largest `max_force`).
    private func play(_ stroke: StrokeSpec, in session: DrawingSession) throws(RenderError) {
        let device = StrokePlayer.device(of: stroke, pressureCurve: options.pressureCurve)
        var player = StrokePlayer(pointerType: stroke.pointerType, pressureCurve: options.pressureCurve)
        do {
            // Samples with a non-finite or absurd coordinate are dropped and counted; an event
            // left with no sample is skipped.
            for spec in stroke.events {
                guard let event = player.build(spec) else { continue }
                try player.play(event, device: device, in: session) { (call) throws(SessionError) in try timed(call) }
            }
            stats.droppedSamples += player.droppedSamples
            guard player.hasBegun else { return }
            if stroke.cancelled {
                session.cancel()
                stats.cancelledStrokes += 1
            } else {
                try timed { () throws(SessionError) in try player.end(in: session) }
                stats.strokes += 1
            }
        } catch {
            throw .session(error)
        }
    }

    /// Runs one event, recording its duration when asked to.
    private func timed(_ body: () throws(SessionError) -> Void) throws(SessionError) {
        stats.events += 1
        guard options.measureEvents else { return try body() }
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let ns = (Int64(end.tv_sec) - Int64(start.tv_sec)) * 1_000_000_000 + Int64(end.tv_nsec) - Int64(start.tv_nsec)
        stats.eventNanoseconds.append(UInt64(max(ns, 0)))
    }
}

/// Runs a session call, re-throwing its error as a render error.
private func sessionCall<T>(_ body: () throws(SessionError) -> T) throws(RenderError) -> T {
    do { return try body() } catch { throw .session(error) }
}
