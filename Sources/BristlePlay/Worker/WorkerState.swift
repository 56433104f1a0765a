import BristleHost

/// The worker's session and the stroke in progress; turns each request into session calls
/// through ``BristleHost/ScriptRenderer`` (actions) and ``BristleHost/StrokePlayer`` (live
/// strokes), and what they changed into patches.
final class WorkerState {
    /// The file name errors of the live input are reported against.
    static let sourceName = "recording.json"

    private let trace: HookTrace
    private let renderer = ScriptRenderer()
    private var session: DrawingSession?
    private var stroke: (player: StrokePlayer, device: DrawingSession.Device)?
    /// Everything the stroke in progress damaged: what its end sends as committed pixels.
    private var strokeDamage = PixelRect.empty

    init(trace: HookTrace) { self.trace = trace }

    func handle(_ request: WorkerRequest, payload: String) -> WorkerReply {
        if request == .start { return start(payload) }
        guard let session else { return .failed("no session yet (start comes first)") }
        switch request {
        case .start: fatalError("handled above")
        case .action: return action(payload, session)
        case .begin: return begin(payload, session)
        case .move: return move(payload, session)
        case .end: return end(session)
        case .cancel:
            session.cancel()
            stroke = nil
            return WorkerReply(status: .ok, patches: patches(of: session, as: .preview))
        }
    }

    // MARK: Requests

    private func start(_ text: String) -> WorkerReply {
        let built: DrawingSession
        do {
            let script = try StrokeScriptReader.parse(text, sourcePath: Self.sourceName)
            trace.set(.loading)
            defer { trace.set(nil) }
            built = try renderer.render(script)
        } catch {
            return .failed("\(error)")
        }
        built.collectsDamage = true
        built.brush?.hookTrace = trace.word
        session = built
        return WorkerReply(status: .ok, patches: [LayerPatch(kind: .committed, layer: built.committed, rect: built.committed.bounds)])
    }

    private func action(_ text: String, _ session: DrawingSession) -> WorkerReply {
        guard stroke == nil else { return .failed("an action during a stroke") }
        let action: ScriptAction
        switch parse("{\"actions\": [\(text)]}") {
        case .success(let script): action = script.actions[0]
        case .failure(let error): return .failed(error.description)
        }
        var value: Int32 = 0
        do {
            switch action.kind {
            case .brush(let spec):
                // Load first, so that a crash in the library's init is told from one in create.
                if let path = spec.path {
                    trace.set(.loading)
                    _ = try? PluginLoader.load(path: path)
                }
                trace.set(.create)
                defer { trace.set(nil) }
                try renderer.perform(action, in: session, file: Self.sourceName)
                session.brush?.hookTrace = trace.word
            case .ticks:
                let before = renderer.stats.ticks
                try renderer.perform(action, in: session, file: Self.sourceName)
                value = renderer.stats.ticks > before ? 1 : 0
            case .undo, .redo, .clear:
                value = Int32(try renderer.perform(action, in: session, file: Self.sourceName)?.performed ?? 1)
            case .stroke:
                return .failed("strokes come as begin, move and end")
            }
        } catch {
            return .failed(error.description, patches: patches(of: session, as: .committed))
        }
        return WorkerReply(status: .ok, value: value, patches: patches(of: session, as: .committed))
    }

    private func begin(_ text: String, _ session: DrawingSession) -> WorkerReply {
        guard stroke == nil else { return .failed("begin during a stroke") }
        let spec: StrokeSpec
        switch parse("{\"actions\": [{\"stroke\": \(text)}]}") {
        case .success(let script):
            guard case .stroke(let s) = script.actions[0].kind else { return .failed("not a stroke") }
            spec = s
        case .failure(let error): return .failed(error.description)
        }
        var player = StrokePlayer(pointerType: spec.pointerType)
        guard let event = player.build(spec.events[0]) else { return .failed("the first event has no usable sample") }
        let device = StrokePlayer.device(of: event.samples, pointerType: spec.pointerType)
        strokeDamage = .empty
        stroke = (player, device)
        return play(event, session)
    }

    private func move(_ text: String, _ session: DrawingSession) -> WorkerReply {
        guard let current = stroke else { return .failed("move outside a stroke") }
        let spec: InputEventSpec
        switch parse("{\"actions\": [{\"stroke\": {\"events\": [\(text)]}}]}") {
        case .success(let script):
            guard case .stroke(let s) = script.actions[0].kind else { return .failed("not an event") }
            spec = s.events[0]
        case .failure(let error): return .failed(error.description)
        }
        var player = current.player
        guard let event = player.build(spec) else { return .failed("the event has no usable sample") }
        stroke = (player, current.device)
        return play(event, session)
    }

    private func play(_ event: StrokePlayer.Event, _ session: DrawingSession) -> WorkerReply {
        guard var current = stroke else { return .failed("no stroke") }
        do {
            try current.player.play(event, device: current.device, in: session) { (call) throws(SessionError) in try call() }
            stroke = current
        } catch {
            stroke = nil
            return .failed(error.description, patches: patches(of: session, as: .preview))
        }
        return WorkerReply(status: .ok, patches: patches(of: session, as: .preview))
    }

    private func end(_ session: DrawingSession) -> WorkerReply {
        guard let current = stroke else { return .failed("end outside a stroke") }
        stroke = nil
        do {
            try current.player.end(in: session)
        } catch {
            return .failed(error.description, patches: patches(of: session, as: .preview))
        }
        var reply = WorkerReply(status: .ok, patches: patches(of: session, as: .preview))
        let union = strokeDamage.intersection(session.committed.bounds)
        if !union.isEmpty {
            reply.patches.append(LayerPatch(kind: .committed, layer: session.committed, rect: union))
        }
        return reply
    }

    // MARK: Helpers

    private func parse(_ text: String) -> Result<StrokeScript, InputError> {
        Result { () throws(InputError) in try StrokeScriptReader.parse(text, sourcePath: Self.sourceName) }
    }

    /// The session's damage since the last call, merged, as patches of `kind`'s layer.
    private func patches(of session: DrawingSession, as kind: LayerPatch.Kind) -> [LayerPatch] {
        let damage = session.takeDamage()
        for rect in damage { strokeDamage = strokeDamage.union(rect) }
        let layer = kind == .committed ? session.committed : session.preview
        return DamageMerger.merge(damage, clip: layer.bounds).map { LayerPatch(kind: kind, layer: layer, rect: $0) }
    }
}
