import CBristle

/// One live brush instance, created through its library's factory and destroyed with this
/// object. It validates the instance's vtable and its parameters extension once, at creation,
/// and then calls the hooks directly (a C call through a function pointer, 2-3 ns).
///
/// Not thread-safe: the ABI serialises calls on an instance, and so does its owner.
public final class Brush {
    public let descriptor: BrushDescriptor
    /// The parameters the brush declares (`bristle.params/1`), in its order; empty without it.
    public let parameters: [BrushParameter]

    /// When set, each hook call writes its ``BrushHook`` raw value here before calling the
    /// brush and 0 once it returns, so a supervisor in another process (shared memory) can
    /// name the call a crash or a hang happened in. Nil by default (one check per call).
    public var hookTrace: UnsafeMutablePointer<Int32>? { didSet { observe() } }
    /// When set, every hook and parameter call is timed and recorded there, with its samples,
    /// layer and status (``HookTimeline``). Nil by default.
    public var timeline: HookTimeline? { didSet { observe() } }
    /// Whether ``hookTrace`` or ``timeline`` is set: the one check a hook call pays without them.
    private var observed = false
    /// ``hookTrace`` and ``timeline`` (not retained: the property holds it) as hook calls read
    /// them: private copies, which the optimiser sees every access to, are read without the
    /// retain and the dynamic exclusivity check a public property costs.
    private var observedTrace: UnsafeMutablePointer<Int32>?
    private var observedTimeline: Unmanaged<HookTimeline>?

    private func observe() {
        observedTrace = hookTrace
        observedTimeline = timeline.map(Unmanaged.passUnretained)
        observed = hookTrace != nil || timeline != nil
    }
    /// The size, and stride, of the samples this brush receives: `sizeof(bristle_sample_t)`
    /// in min(the brush's declared minor, the host's minor) (bristle.h, ARRAYS).
    public var sampleSize: Int { samples.structSize }

    let library: PluginLibrary
    let host: BrushHost
    let instance: UnsafePointer<bristle_brush_t>
    private let params: UnsafePointer<bristle_params_t>?
    private let samples: SamplePacker
    private var inStroke = false

    /// Creates the brush with this exact id from `library`, for `host`.
    public init(id: String, library: PluginLibrary, host: BrushHost) throws(BrushError) {
        guard let descriptor = library.descriptor(id: id) else {
            throw .unknownBrush(id: id, searched: [library.path],
                                nearest: NearestNames.to(id, among: library.descriptors.map(\.id)))
        }
        guard let instance = library.factory.pointee.create(library.factory, host.host, id) else {
            throw .createFailed(id: id, path: library.path)
        }
        func malformed(_ field: String, _ reason: String) -> BrushError {
            .malformedInstance(id: id, path: library.path, field: field, reason: reason)
        }
        let b = instance.pointee
        if let problem = ABILayout.brush.tooSmall(b.struct_size) {
            throw malformed("struct_size", problem)
        }
        let required: [(String, Bool)] = [
            ("destroy", b.destroy != nil), ("get_extension", b.get_extension != nil),
            ("begin", b.begin != nil), ("moved", b.moved != nil), ("ended", b.ended != nil),
            ("cancelled", b.cancelled != nil), ("draw", b.draw != nil),
            ("predicted", b.predicted != nil || !descriptor.capabilities.contains(.wantsPredicted)),
            ("tick", b.tick != nil || !descriptor.capabilities.contains(.wantsTicks)),
        ]
        if let missing = required.first(where: { !$0.1 }) {
            b.destroy?(instance)
            throw malformed(missing.0, "is NULL")
        }
        guard b.descriptor != nil else {
            b.destroy?(instance)
            throw malformed("descriptor", "is NULL")
        }
        self.descriptor = descriptor
        self.library = library
        self.host = host
        self.instance = instance
        samples = SamplePacker(structSize: ABILayout.sampleSize(forDeclaredMinor: descriptor.abiMinor))
        let raw = b.get_extension?(instance, BRISTLE_EXT_PARAMS)
        let params = raw?.assumingMemoryBound(to: bristle_params_t.self)
        switch Brush.readParameters(params, of: instance) {
        case .success(let list):
            self.params = params
            self.parameters = list
        case .failure(let problem):
            b.destroy?(instance)
            throw malformed("parameter", problem.reason)
        }
    }

    deinit {
        if inStroke { traced(.cancelled) { instance.pointee.cancelled?(instance) } }
        traced(.destroy) { instance.pointee.destroy?(instance) }
    }

    /// Runs one plugin call returning a status with ``hookTrace`` set to `hook`, recorded on
    /// ``timeline`` as `name` (the hook's own by default) with `samples` (and the parameter's
    /// id, `parameter`).
    @inline(__always)
    private func traced(_ hook: BrushHook, _ name: HookTimeline.Name? = nil, samples: Int = 0, parameter: String? = nil,
                        _ call: () -> Int32) -> Int32 {
        guard observed else { return call() }
        return observedCall(hook, name, samples, parameter, call)
    }

    /// The same for a call returning nothing.
    @inline(__always)
    private func traced(_ hook: BrushHook, _ call: () -> Void) {
        guard observed else { return call() }
        _ = observedCall(hook, nil, 0, nil) { call(); return BRISTLE_OK }
    }

    private func observedCall(_ hook: BrushHook, _ name: HookTimeline.Name?, _ samples: Int, _ parameter: String?,
                              _ call: () -> Int32) -> Int32 {
        let trace = observedTrace
        trace?.pointee = hook.rawValue
        defer { trace?.pointee = 0 }
        guard let timeline = observedTimeline else { return call() }
        return timeline._withUnsafeGuaranteedRef { timeline in
            let start = timeline.now()
            let status = call()
            let returnsStatus = hook != .cancelled && hook != .destroy
            timeline.record(name ?? Self.recordedName(hook), since: start, samples: samples,
                            layer: hook == .draw ? .committed : hook == .drawPreview ? .preview : .none,
                            parameter: parameter, status: returnsStatus ? status : nil)
            return status
        }
    }

    /// How the timeline names a hook: both draws are `draw` (their layer tells them apart).
    /// Parameter calls pass their own name; loading and create are no calls on an instance.
    private static func recordedName(_ hook: BrushHook) -> HookTimeline.Name {
        switch hook {
        case .begin: .begin
        case .moved: .moved
        case .predicted: .predicted
        case .ended: .ended
        case .cancelled: .cancelled
        case .tick: .tick
        case .draw, .drawPreview: .draw
        case .destroy: .destroy
        case .setParameter, .loading, .create: .setValue
        }
    }

    /// The most parameters a brush may declare; more is taken as a corrupt count.
    static let maximumParameterCount: UInt32 = 256

    private static func readParameters(_ params: UnsafePointer<bristle_params_t>?,
                                       of instance: UnsafePointer<bristle_brush_t>)
        -> Result<[BrushParameter], InvalidParameterInfo>
    {
        guard let params else { return .success([]) }
        let p = params.pointee
        if let problem = ABILayout.params.tooSmall(p.struct_size) {
            return .failure(InvalidParameterInfo("the extension's \(problem)"))
        }
        guard let count = p.count, let info = p.info, p.set_value != nil, p.get_value != nil,
              p.set_color != nil, p.get_color != nil else {
            return .failure(InvalidParameterInfo("extension has a NULL function"))
        }
        let n = count(instance)
        guard n <= maximumParameterCount else {
            return .failure(InvalidParameterInfo("count returned \(n); at most \(maximumParameterCount) allowed"))
        }
        var list: [BrushParameter] = []
        for i in 0..<n {
            guard let raw = info(instance, i) else {
                return .failure(InvalidParameterInfo("info(\(i)) returned NULL below count \(n)"))
            }
            switch BrushParameter.validate(raw) {
            case .success(let parameter):
                guard !list.contains(where: { $0.id == parameter.id }) else {
                    return .failure(InvalidParameterInfo("two parameters share the id '\(parameter.id)'"))
                }
                list.append(parameter)
            case .failure(let problem):
                return .failure(problem)
            }
        }
        return .success(list)
    }

    // MARK: Parameters

    /// The parameter with this id.
    public func parameter(_ id: String) throws(BrushError) -> BrushParameter {
        guard let parameter = parameters.first(where: { $0.id == id }) else {
            throw .unknownParameter(brush: descriptor.id, name: id, known: parameters.map(\.id))
        }
        return parameter
    }

    /// Sets a numeric (float, int, bool, enum) parameter. Between strokes only.
    public func setParameter(_ id: String, value: Double) throws(BrushError) {
        let parameter = try parameter(id)
        guard parameter.kind != .color, value.isFinite, let params else {
            throw .badParameterValue(brush: descriptor.id, name: id, value: String(value),
                                     expected: parameter.expectation)
        }
        let status = traced(.setParameter, .setValue, parameter: id) { params.pointee.set_value!(instance, id, value) }
        guard status == BRISTLE_OK else {
            throw .hookFailed(brush: descriptor.id, hook: "params.set_value(\(id))", status: status)
        }
    }

    /// Sets a colour parameter. Between strokes only.
    public func setParameter(_ id: String, color: RGBAColor) throws(BrushError) {
        let parameter = try parameter(id)
        guard parameter.kind == .color, let params else {
            throw .badParameterValue(brush: descriptor.id, name: id, value: color.description,
                                     expected: parameter.expectation)
        }
        var c = bristle_color_t(r: color.red, g: color.green, b: color.blue, a: color.alpha)
        let status = traced(.setParameter, .setColor, parameter: id) { params.pointee.set_color!(instance, id, &c) }
        guard status == BRISTLE_OK else {
            throw .hookFailed(brush: descriptor.id, hook: "params.set_color(\(id))", status: status)
        }
    }

    /// Sets a parameter from text a person wrote (see ``BrushParameter/parse(_:)``).
    public func setParameter(_ id: String, text: String) throws(BrushError) {
        let parameter = try parameter(id)
        if parameter.kind == .color {
            guard let color = try? RGBAColor(parsing: text) else {
                throw .badParameterValue(brush: descriptor.id, name: id, value: text,
                                         expected: parameter.expectation)
            }
            try setParameter(id, color: color)
        } else {
            guard let value = parameter.parse(text) else {
                throw .badParameterValue(brush: descriptor.id, name: id, value: text,
                                         expected: parameter.expectation)
            }
            try setParameter(id, value: value)
        }
    }

    /// The current value of a numeric parameter, as the brush reports it.
    public func value(of id: String) -> Double? {
        guard let params, parameters.contains(where: { $0.id == id && $0.kind != .color }) else { return nil }
        var v = 0.0
        return params.pointee.get_value!(instance, id, &v) == BRISTLE_OK ? v : nil
    }

    /// The current value of a colour parameter, as the brush reports it.
    public func color(of id: String) -> RGBAColor? {
        guard let params, parameters.contains(where: { $0.id == id && $0.kind == .color }) else { return nil }
        var c = bristle_color_t()
        guard params.pointee.get_color!(instance, id, &c) == BRISTLE_OK else { return nil }
        return RGBAColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)
    }

    /// The C instance, for tools that check the brush's side of the ABI directly (the
    /// conformance harness). Valid as long as this object.
    public var cInstance: UnsafePointer<bristle_brush_t> { instance }

    // MARK: Hooks (called by DrawingSession and the conformance harness; each returns the
    // brush's status; the caller keeps the drawing loop's order and owns every pointer).
    // The sample forms lay the samples out at ``sampleSize`` (the stride rule); the pointer
    // forms pass records the caller laid out itself.

    public func begin(_ context: UnsafePointer<bristle_stroke_context_t>, _ sample: bristle_sample_t) -> Int32 {
        begin(context, samples.pack(CollectionOfOne(sample)))
    }

    public func begin(_ context: UnsafePointer<bristle_stroke_context_t>,
                      _ sample: UnsafePointer<bristle_sample_t>) -> Int32 {
        inStroke = true
        return traced(.begin, samples: 1) { instance.pointee.begin!(instance, context, sample) }
    }

    public func moved(_ batch: [bristle_sample_t]) -> Int32 {
        moved(samples.pack(batch), count: batch.count)
    }

    public func moved(_ samples: UnsafePointer<bristle_sample_t>, count: Int) -> Int32 {
        traced(.moved, samples: count) { instance.pointee.moved!(instance, samples, UInt32(count)) }
    }

    public func predicted(_ batch: [bristle_sample_t]) -> Int32 {
        predicted(samples.pack(batch), count: batch.count)
    }

    public func predicted(_ samples: UnsafePointer<bristle_sample_t>, count: Int) -> Int32 {
        traced(.predicted, samples: count) { instance.pointee.predicted!(instance, samples, UInt32(count)) }
    }

    public func ended(_ sample: bristle_sample_t) -> Int32 {
        ended(samples.pack(CollectionOfOne(sample)))
    }

    public func ended(_ sample: UnsafePointer<bristle_sample_t>) -> Int32 {
        inStroke = false
        return traced(.ended, samples: 1) { instance.pointee.ended!(instance, sample) }
    }

    public func cancelled() {
        inStroke = false
        traced(.cancelled) { instance.pointee.cancelled!(instance) }
    }

    public func tick(t: Double, dt: Double) -> Int32 {
        traced(.tick) { instance.pointee.tick!(instance, t, dt) }
    }

    public func draw(_ target: UnsafePointer<bristle_target_t>, dirty: inout bristle_rect_t) -> Int32 {
        traced(target.pointee.layer == BRISTLE_LAYER_PREVIEW ? .drawPreview : .draw) {
            instance.pointee.draw!(instance, target, &dirty)
        }
    }
}
