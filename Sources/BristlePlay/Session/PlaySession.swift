import BristleHost
import Dispatch
import Foundation
import Glibc
import Synchronization

/// The state of a `bristle play` server, owned by one thread (``SessionThread``): the brush
/// catalog, the brush worker, the committed canvas, the recording and the connected pages.
/// The thread takes the pages' messages, waits for the worker's replies and hands the patches
/// to the pages' WebSockets itself: an input message costs one wake-up of the session, not a
/// queue's hop.
///
/// - The **worker** (``BrushWorker``) runs the brushes on its own ``BristleHost/DrawingSession``;
///   this process never loads a brush. Every page message becomes one worker request, and
///   the worker's patches go to every page.
/// - The **committed canvas** here (a mirror of the worker's committed layer, updated when a
///   stroke ends and by undo, redo, clear and ticks) is what `canvas.png` exports and what a
///   page repaints from after a failure.
/// - The **recording** holds every action that took effect, as the worker played it. When a
///   brush crashes, hangs or fails, its stroke is recorded as cancelled with the events
///   before the failing one, the pages get the committed pixels back, and a fresh worker
///   renders the recording to rebuild the session (canvas, undo history, stroke seeds) exactly
///   as `bristle render` would.
public final class PlaySession: @unchecked Sendable {
    /// What goes to one page.
    public enum Outgoing: Sendable {
        case text(String)
        case binary([UInt8])
    }

    public typealias Outbox = @Sendable (Outgoing) -> Void

    let options: PlayOptions
    private let thread = SessionThread<Arrival>()
    private let mirror: DrawingSession
    private let background = RGBAColor.white
    private let watcher: LibraryWatcher?
    /// Where copies of watched libraries go (kept after the server ends).
    public let libraryDirectory: String
    private var recording: PlayRecording
    private var catalog = BrushCatalog()
    private var worker: BrushWorker?
    private var connections: [Int: Outbox] = [:]
    private let connectionCounter = Atomic<Int>(0)
    private var choice: BrushChoice?
    /// The last `brush` action recorded: the worker's current brush.
    private var activeBrush: String?
    private var activeBrushWantsTicks = false
    private var activeBrushID = ""
    private var stroke: LiveStroke?
    private var ticking = false
    private var stats = PlayStats()
    /// A page's message as it arrived: its text, the page's id and ``Clock/seconds()`` then.
    typealias Arrival = (text: String, id: Int, arrived: Double)

    /// The input messages a patch message answers (seq 0...0 answers none).
    typealias Seqs = ClosedRange<UInt32>

    /// Makes the session: probes the brushes (search path and `--brushes` folders) and
    /// starts the first worker. Throws a sentence when that is impossible.
    public init(options: PlayOptions) throws(PlayError) {
        self.options = options
        guard options.canvasWidth >= 1, options.canvasHeight >= 1,
              options.canvasWidth <= PlayOptions.maximumSide, options.canvasHeight <= PlayOptions.maximumSide else {
            throw .usage("the canvas must be from 1x1 to \(PlayOptions.maximumSide)x\(PlayOptions.maximumSide) pixels, not \(options.canvasWidth)x\(options.canvasHeight)")
        }
        do {
            mirror = try DrawingSession(width: options.canvasWidth, height: options.canvasHeight, background: .color(background))
        } catch {
            throw .system("cannot make the canvas: \(error)")
        }
        recording = PlayRecording(width: options.canvasWidth, height: options.canvasHeight, background: background.description)
        guard let directory = options.libraryDirectory ?? LibraryCopies.makeDirectory(in: UnlinkedFile.directory) else {
            throw .cannotCreate("cannot create a folder for library copies in \(UnlinkedFile.directory) (set TMPDIR)")
        }
        libraryDirectory = directory
        for folder in options.brushDirectories where !Paths.isDirectory(folder) {
            throw .notFound("--brushes \(folder) is not a folder")
        }
        watcher = options.brushDirectories.isEmpty ? nil : LibraryWatcher(
            directories: options.brushDirectories, copies: LibraryCopies(directory: directory),
            bristle: options.executable, interval: options.pollInterval)
        loadCatalog()
        if let brush = catalog.defaultBrush {
            choice = BrushChoice(id: brush.id, color: RGBAColor.black.description, width: RenderOptions.defaultWidth, params: [])
        }
        _ = ensureWorker()
        thread.start(name: "bristle-session") { [weak self] batch in self?.drain(batch) }
        watcher?.start { [weak self] change in
            guard let self else { return }
            self.thread.async { self.apply(change, atStartup: false) }
        }
    }

    deinit { thread.stop() }

    // MARK: Catalog

    private func loadCatalog() {
        let files = (options.searchDirectories ?? PluginSearchPath.directories()).flatMap(PluginSearchPath.pluginFiles(in:))
        let reports = Mutex([Result<PluginReport, ProbeFailure>?](repeating: nil, count: files.count))
        let bristle = options.executable
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let result = LibraryProbe.probe(files[i], bristle: bristle)
            reports.withLock { $0[i] = result }
        }
        for (file, report) in zip(files, reports.withLock { $0 }) {
            // Files on the search path that are no brush library are not the user's concern here
            // (`bristle list` shows them).
            if case .success(let r) = report { catalog.install(r, library: file, source: nil) }
        }
        for change in watcher?.scanNow() ?? [] { apply(change, atStartup: true) }
    }

    /// Takes a watched library's new version (or its failure) into the catalog.
    private func apply(_ change: LibraryWatcher.Change, atStartup: Bool) {
        switch change {
        case .loaded(let source, let library, let report):
            catalog.install(report, library: library, source: source)
            let ids = report.brushes.map(\.id).joined(separator: ", ")
            if !atStartup { announce("reloaded \(Self.name(source)) (\(ids)): the next stroke uses it", error: false) }
        case .failed(let source, let reason):
            let kept = catalog.brushes.contains { $0.source == source } ? "; the previous version stays in use" : ""
            announce("\(Self.name(source)) cannot be loaded: \(reason)\(kept)", error: true)
        case .removed(let source):
            catalog.remove(source: source)
            announce("\(Self.name(source)) was removed", error: false)
        }
        if !atStartup { broadcast(.text(brushesMessage(type: "brushes"))) }
    }

    private static func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    // MARK: Connections

    /// Registers a page; it gets the canvas, the brushes and the drawing so far. Returns its id.
    public func connect(_ outbox: @escaping Outbox) -> Int {
        let id = connectionCounter.add(1, ordering: .relaxed).newValue
        thread.async { [self] in
            connections[id] = outbox
            outbox(.text(brushesMessage(type: "hello")))
            outbox(.binary(PageMessage.patches([LayerPatch(kind: .committed, layer: mirror.committed, rect: mirror.committed.bounds)],
                                               seqs: 0...0, background: background)))
        }
        return id
    }

    /// Forgets a page; a stroke it was drawing is cancelled.
    public func disconnect(_ id: Int) {
        thread.async { [self] in
            connections[id] = nil
            if let stroke, stroke.connection == id { finish(0...0, cancelled: true) }
        }
    }

    /// Takes one text message of page `id`. Messages are handled in order; moves of a stroke
    /// that arrived while the session was busy are played as one event (see ``drain(_:)``).
    public func receive(_ text: String, from id: Int) {
        thread.send((text, id, Clock.seconds()))
    }

    /// Handles messages that waited together. Consecutive moves of one page become one event
    /// whose coalesced samples are all of theirs, in order (as a browser coalesces events when
    /// its page is busy): the worker, the recording and the patches then deal with one event
    /// instead of a backlog, and the patch message answers all their sequence numbers.
    private func drain(_ batch: [Arrival]) {
        var parsed: [(message: ClientMessage, id: Int, arrived: Double)] = []
        for (text, id, arrived) in batch {
            switch ClientMessage.parse(text) {
            case .failure(let error): send(id, status: "the page sent \(error)", error: true)
            case .success(let message): parsed.append((message, id, arrived))
            }
        }
        var i = 0
        while i < parsed.count {
            var j = i + 1
            if case .move = parsed[i].message {
                while j < parsed.count, parsed[j].id == parsed[i].id, case .move = parsed[j].message { j += 1 }
                move(parsed[i..<j].compactMap { if case .move(let seq, let event) = $0.message { return (seq, event) } else { return nil } },
                     from: parsed[i].id)
            } else {
                handle(parsed[i].message, from: parsed[i].id)
            }
            let done = Clock.seconds()
            for message in parsed[i..<j] where message.message.isInput { stats.record(seconds: done - message.arrived) }
            i = j
        }
    }

    /// Tells page `id` that binary messages are not expected.
    public func refuseBinary(from id: Int) {
        thread.async { [self] in send(id, status: "the page sent a binary message; input is JSON text", error: true) }
    }

    private func handle(_ message: ClientMessage, from id: Int) {
        switch message {
        case .brush(let choice):
            guard let brush = catalog.brush(id: choice.id) else { return send(id, status: "no brush \(choice.id)", error: true) }
            if case .failure(let error) = choice.action(for: brush) { return send(id, status: error.description, error: true) }
            self.choice = choice
        case .down(let seq, let pointerType, let event):
            begin(seq: seq, pointerType: pointerType, event: event, from: id)
        case .move(let seq, let event):
            move([(seq, event)], from: id)
        case .up(let seq), .cancel(let seq):
            guard let current = stroke, current.connection == id else { return reply(id, seq...seq) }
            if current.failed {
                stroke = nil
                return reply(id, seq...seq)
            }
            if case .cancel = message { finish(seq...seq, cancelled: true) } else { finish(seq...seq, cancelled: false) }
        case .undo, .redo, .clear:
            guard stroke == nil else { return send(id, status: "finish the stroke first", error: true) }
            ticking = false
            let action = message.isUndo ? "{\"undo\": 1}" : message.isRedo ? "{\"redo\": 1}" : "{\"clear\": true}"
            guard let answer = request(.action, action) else { return }
            if answer.value > 0 { recording.append(action) }
            applyCommitted(answer)
        }
    }

    // MARK: Strokes

    private func begin(seq: UInt32, pointerType: String, event: JSONValue, from id: Int) {
        let seqs = seq...seq
        guard stroke == nil else {
            reply(id, seqs)
            return send(id, status: "another page is drawing a stroke", error: true)
        }
        ticking = false
        var live = LiveStroke(connection: id, pointerType: pointerType)
        live.failed = true  // until the worker took its first event
        stroke = live
        guard let choice, let brush = catalog.brush(id: choice.id) else {
            reply(id, seqs)
            return send(id, status: "choose a brush first", error: true)
        }
        let action: String
        switch choice.action(for: brush) {
        case .failure(let error):
            reply(id, seqs)
            return send(id, status: error.description, error: true)
        case .success(let a): action = a
        }
        let text: String
        switch EventText.make(event, pointerType: pointerType) {
        case .failure(let error):
            reply(id, seqs)
            return send(id, status: "the page sent \(error)", error: true)
        case .success(nil):
            // Nothing usable to begin with: the stroke is ignored, as `bristle render` would.
            return reply(id, seqs)
        case .success(let event?): text = event.text
        }
        if action != activeBrush {
            guard let answer = request(.action, action, keepOnRefusal: true) else {
                reply(id, seqs)
                return
            }
            recording.append(action)
            activeBrush = action
            activeBrushID = brush.id
            activeBrushWantsTicks = brush.wantsTicks
            forward(answer, 0...0, from: id)
        }
        let begin = JSONText.object([("pointerType", JSONText.string(pointerType)), ("events", "[" + text + "]")])
        live.failed = false
        stroke = live
        guard let answer = request(.begin, begin) else { return strokeFailed(seqs, ending: false) }
        live.events = [text]
        stroke = live
        forward(answer, seqs, from: id)
    }

    /// Continues the stroke of page `id` with one or more move messages, played as one event.
    private func move(_ moves: [(seq: UInt32, event: JSONValue)], from id: Int) {
        let seqs = moves[0].seq...moves[moves.count - 1].seq
        // Only the pointer type is read here: a copy of the stroke kept while its events grow
        // below would make every append copy the whole list (a cost growing with the stroke).
        guard let pointerType = stroke.flatMap({ $0.connection == id && !$0.failed ? $0.pointerType : nil }) else {
            return reply(id, seqs)
        }
        var events: [EventText.Event] = []
        for (_, event) in moves {
            switch EventText.make(event, pointerType: pointerType) {
            case .failure(let error): send(id, status: "the page sent \(error)", error: true)
            case .success(nil): break
            case .success(let e?): events.append(e)
            }
        }
        guard !events.isEmpty else { return reply(id, seqs) }
        let text = EventText.Event.merged(events).text
        guard let answer = request(.move, text) else { return strokeFailed(seqs, ending: false) }
        stroke?.events.append(text)  // in place
        forward(answer, seqs, from: id)
    }

    /// Ends or cancels the stroke in progress.
    private func finish(_ seqs: Seqs, cancelled: Bool) {
        guard let current = stroke else { return }
        guard let answer = request(cancelled ? .cancel : .end, "") else { return strokeFailed(seqs, ending: true) }
        stroke = nil
        recording.append(PlayRecording.stroke(pointerType: current.pointerType, events: current.events, cancelled: cancelled))
        var shown = answer
        shown.patches.removeAll { $0.kind == .committed }
        forward(shown, seqs, from: current.connection)
        for patch in answer.patches where patch.kind == .committed { patch.apply(to: mirror.committed) }
        if !cancelled && activeBrushWantsTicks {
            ticking = true
            scheduleTick()
        }
    }

    /// A stroke's request failed (the worker said why, or it is gone): the stroke is recorded
    /// as cancelled with the events played before, the pages get the committed pixels back,
    /// and a fresh worker rebuilds the session from the recording.
    private func strokeFailed(_ seqs: Seqs, ending: Bool) {
        guard var current = stroke else { return }
        if !current.events.isEmpty {
            recording.append(PlayRecording.stroke(pointerType: current.pointerType, events: current.events, cancelled: true))
        }
        current.failed = true
        stroke = ending ? nil : current
        let restore = current.touched.intersection(mirror.committed.bounds)
        let patches = restore.isEmpty ? [] : [LayerPatch(kind: .committed, layer: mirror.committed, rect: restore)]
        for (id, outbox) in connections {
            outbox(.binary(PageMessage.patches(patches, seqs: id == current.connection ? seqs : 0...0, background: background)))
        }
        worker = nil
        _ = ensureWorker()
    }

    // MARK: Ticks

    private func scheduleTick() {
        thread.after(1 / 60) { [weak self] in self?.tick() }
    }

    /// One frame of the tick clock for a brush that wants ticks, while it changes something.
    private func tick() {
        guard ticking, stroke == nil else { return }
        guard let answer = request(.action, "{\"ticks\": 1}"), answer.value == 1 else {
            ticking = false
            return
        }
        recording.appendTick()
        applyCommitted(answer)
        if answer.patches.isEmpty { ticking = false } else { scheduleTick() }
    }

    // MARK: Worker

    /// Starts a worker when there is none, rebuilding the session from the recording; false
    /// (and a status) when that fails.
    private func ensureWorker() -> Bool {
        if worker != nil { return true }
        let started: BrushWorker
        do {
            started = try BrushWorker(command: [options.executable, "play-worker"], canvas: mirror.committed.bounds)
        } catch {
            announce("\(error)", error: true)
            return false
        }
        switch started.send(.start, payload: Array(recording.text.utf8), timeout: options.rebuildTimeout) {
        case .failure(let failure):
            announce("cannot rebuild the session in a fresh worker: \(failure)", error: true)
            return false
        case .success(let reply) where reply.status == .failed:
            announce("cannot rebuild the session in a fresh worker: \(reply.message)", error: true)
            return false
        case .success(let reply):
            worker = started
            if let canvas = reply.patches.first, canvas.pixels != LayerPatch(kind: .committed, layer: mirror.committed, rect: canvas.rect).pixels {
                canvas.apply(to: mirror.committed)
                broadcast(.binary(PageMessage.patches([canvas], seqs: 0...0, background: background)))
                announce("rebuilding the session gave other pixels than were shown: a brush is not deterministic; the canvas now shows what recording.json renders to", error: true)
            }
            return true
        }
    }

    /// Sends a request to the worker; nil when it failed, with a status saying why. A worker
    /// that failed is replaced (its session may no longer be the recording's), except after a
    /// refusal when `keepOnRefusal` (a `brush` action changes nothing when it fails). During a
    /// live stroke the replacement waits for ``strokeFailed(seq:ending:)`` to record the stroke.
    private func request(_ request: WorkerRequest, _ payload: String, keepOnRefusal: Bool = false) -> WorkerReply? {
        guard ensureWorker(), let worker else { return nil }
        let brushName = activeBrushID.isEmpty ? choice?.id ?? "the brush" : activeBrushID
        switch worker.send(request, payload: Array(payload.utf8), timeout: options.hookTimeout) {
        case .success(let reply) where reply.status == .ok:
            return reply
        case .success(let reply):
            announce("\(brushName): \(reply.message)", error: true)
            if keepOnRefusal { return nil }
        case .failure(let failure):
            announce("\(brushName): \(failure). The drawing is safe; a fresh worker takes the next stroke.", error: true)
        }
        self.worker = nil
        if stroke?.failed ?? true { _ = ensureWorker() }
        return nil
    }

    // MARK: Output

    /// Applies committed patches to the mirror and sends them to every page.
    private func applyCommitted(_ answer: WorkerReply) {
        for patch in answer.patches { patch.apply(to: mirror.committed) }
        broadcast(.binary(PageMessage.patches(answer.patches, seqs: 0...0, background: background)))
    }

    /// Sends a stroke's patches to every page (with the sequence numbers they answer for the
    /// page that drew), and remembers where they went.
    private func forward(_ answer: WorkerReply, _ seqs: Seqs, from id: Int) {
        if stroke != nil {
            for patch in answer.patches { stroke!.touched = stroke!.touched.union(patch.rect) }  // in place
        }
        for (other, outbox) in connections {
            let message = PageMessage.patches(answer.patches, seqs: other == id ? seqs : 0...0, background: background)
            if other == id && seqs.upperBound != 0 {
                stats.count(patchBytes: message.count, pixels: answer.patches.reduce(0) { $0 + Int($1.rect.width) * Int($1.rect.height) })
            }
            outbox(.binary(message))
        }
    }

    /// An empty answer to input messages, so the page knows they were handled.
    private func reply(_ id: Int, _ seqs: Seqs) {
        connections[id]?(.binary(PageMessage.patches([], seqs: seqs, background: background)))
    }

    private func broadcast(_ message: Outgoing) {
        for outbox in connections.values { outbox(message) }
    }

    private func send(_ id: Int, status: String, error: Bool) {
        connections[id]?(.text(PageMessage.status(status, error: error)))
    }

    /// A status for every page, and a line on stderr for the terminal.
    private func announce(_ text: String, error: Bool) {
        StandardError.write("bristle play: \(text)\n")
        broadcast(.text(PageMessage.status(text, error: error)))
    }

    private func brushesMessage(type: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let brushes = (try? encoder.encode(catalog.brushes)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return JSONText.object([
            ("type", JSONText.string(type)),
            ("canvas", JSONText.object([("width", JSONText.number(Double(mirror.width))),
                                        ("height", JSONText.number(Double(mirror.height))),
                                        ("background", JSONText.string(background.description))])),
            ("brush", choice.map { JSONText.string($0.id) } ?? "null"),
            ("brushes", brushes),
        ])
    }

    // MARK: HTTP API

    /// The committed canvas as `bristle render` exports it (background included).
    public func canvasPNG() async -> Result<[UInt8], PlayError> {
        await thread.sync { [self] in
            let fd = Self.scratchFile()
            guard fd >= 0 else { return .failure(.system("cannot create a temporary file in \(UnlinkedFile.directory)")) }
            defer { close(fd) }
            do { try mirror.exportPNG(toFileDescriptor: fd, transparent: false) } catch {
                return .failure(.system("cannot encode the canvas: \(error)"))
            }
            var bytes: [UInt8] = []
            lseek(fd, 0, SEEK_SET)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(fd, &chunk, chunk.count)
                guard n > 0 else { break }
                bytes += chunk[0..<n]
            }
            return .success(bytes)
        }
    }

    /// The session so far as a stroke script.
    public func recordingJSON() async -> String {
        await thread.sync { [self] in recording.text }
    }

    /// Timing and patch sizes of input messages since the start or the last reset (`GET
    /// /api/stats`, `?reset=1`), and the scheduling in effect (see ``scheduling()``).
    public func statsJSON(reset: Bool) async -> String {
        await thread.sync { [self] in
            defer { if reset { stats.reset() } }
            return stats.json(scheduling: schedulingNow().map { ($0, $1.map { JSONText.string($0.description) } ?? "null") })
        }
    }

    /// The scheduling of the session's thread and of the brush worker (``ThreadPriority``) for
    /// the server's log: `SCHED_FIFO 10 for the session's thread and the brush worker` where
    /// real time is permitted, `nice -4 ...` where not.
    public func scheduling() async -> String {
        await thread.sync { [self] in
            let now = schedulingNow()
            let session = now[0].1.map(\.description) ?? "unknown"
            let worker = now[1].1.map(\.description) ?? "no worker"
            return session == worker ? "\(session) for the session's thread and the brush worker"
                : "\(session) for the session's thread, \(worker) for the brush worker"
        }
    }

    /// The session thread's scheduling and the worker's (nil: unknown, or no worker); on the thread.
    private func schedulingNow() -> [(String, ThreadPriority.Scheduling?)] {
        [("session", .of(0)), ("worker", worker?.scheduling)]
    }

    /// The brushes, as `GET /api/brushes` lists them.
    public func brushesJSON() async -> String {
        await thread.sync { [self] in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            return (try? encoder.encode(catalog.brushes)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        }
    }

    /// An unlinked temporary file, open for reading and writing.
    private static func scratchFile() -> Int32 {
        UnlinkedFile.create(prefix: "bristle-play-png-") ?? -1
    }
}

private extension ClientMessage {
    /// Pointer input (what the latency is measured on).
    var isInput: Bool {
        switch self {
        case .down, .move, .up, .cancel: return true
        default: return false
        }
    }

    var isUndo: Bool { if case .undo = self { return true } else { return false } }
    var isRedo: Bool { if case .redo = self { return true } else { return false } }
}
