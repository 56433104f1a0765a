import Foundation

/// Reads W3C InkML (https://www.w3.org/TR/InkML/) into an ``InkRecording``.
///
/// Channels: `X`, `Y` (position), `F` (force: `pressure = (F - min) / (max - min)` with `max`
/// from a `channelProperty` named `max` or the channel's `max` attribute, and `min` likewise,
/// default 0; raw `F` goes to `force` and the max to `maxForce`), `T` (time, added to the
/// trace's `timeOffset`, both in milliseconds unless T's `units` say otherwise), `OTx`/`OTy`
/// (tilt, degrees or the channel's `units`), `OA`/`OE` (azimuth/elevation, to `azimuthAngle`
/// and `altitudeAngle`), `OR` (rotation, to `twist`), `W` (contact width and height). Other
/// channels are decoded and ignored.
///
/// Positions keep the file's coordinates, X and Y in the same unit (see ``InkMLChannelMapper``
/// for why per-axis `resolution` is not applied); `penUp` traces are hover, not ink.
enum InkMLReader {
    static func read(_ bytes: [UInt8], file: String) throws(InputError) -> InkRecording {
        let document = InkMLDocumentParser(file: file)
        let builder = InkMLRecordingBuilder(file: file, document: document)
        document.traceHandler = { trace throws(InputError) in try builder.traceEnded(trace) }
        document.parse(Data(bytes))
        document.traceHandler = nil
        if let failure = document.failure { throw failure }
        guard document.inkElements > 0 else {
            throw InputError(file: file, location: SourceLocation(line: 1, column: 1),
                             message: "expected an <ink> element (InkML) in the XML document, found none",
                             hint: "InkML ink is an <ink> (or <inkml:ink>) element holding <trace> elements")
        }
        return try builder.finish()
    }
}

/// Turns the traces of an InkML document into an ``InkRecording`` as the parser meets them,
/// so that a large file never holds its trace text and its samples at once.
///
/// A trace is decoded as soon as it ends when its context resolves with the definitions read
/// so far (the usual case: definitions come first). A trace that refers to a context defined
/// later waits for the end of the document, and so do the traces after it, so strokes stay in
/// file order.
final class InkMLRecordingBuilder {
    let file: String
    private var resolver: InkMLContextResolver
    private var recording = InkRecording()
    /// Samples whose force has no declared maximum: normalised by the largest force read.
    private var unscaledForce: [(stroke: Int, sample: Int)] = []
    private var deferred: [InkMLPendingTrace] = []

    init(file: String, document: InkMLDocumentParser) {
        self.file = file
        resolver = InkMLContextResolver(file: file, document: document)
    }

    /// Decodes `trace` now, or keeps it for ``finish()`` when its context is not known yet.
    func traceEnded(_ trace: InkMLPendingTrace) throws(InputError) {
        guard deferred.isEmpty, let context = try? resolver.context(for: trace) else {
            deferred.append(trace)
            return
        }
        try add(trace, context)
    }

    /// Decodes the traces that waited, normalises force, and returns the recording.
    func finish() throws(InputError) -> InkRecording {
        for trace in deferred { try add(trace, resolver.context(for: trace)) }
        deferred = []
        let largest = unscaledForce.reduce(0.0) { max($0, recording.strokes[$1.stroke].samples[$1.sample].force ?? 0) }
        if largest > 0 {
            for (s, i) in unscaledForce {
                let force = recording.strokes[s].samples[i].force ?? 0
                recording.strokes[s].samples[i].pressure = InkUnits.unit(force / largest)
            }
        }
        return recording
    }

    private func add(_ trace: InkMLPendingTrace, _ context: InkMLResolvedContext) throws(InputError) {
        let mapper = try InkMLChannelMapper(context: context, file: file)
        for warning in mapper.warnings where !recording.warnings.contains(warning) { recording.warnings.append(warning) }
        var decoder = InkMLTraceDecoder(file: file, channelNames: context.format.all.map(\.name),
                                        regularCount: context.format.regular.count)
        if trace.contextRef == nil && trace.currentContext == nil {
            decoder.defaultFormatHint = "this trace has no context, so its format is the default, X Y; give it a contextRef naming a <context> with its <traceFormat>"
        }
        let points = try decoder.decode(trace.text, chunks: trace.chunks)
        recording.samplesRead += points.count
        guard !points.isEmpty else { return }
        var timeOffset: Double? = nil
        if let text = trace.timeOffset {
            guard let t = Double(text.trimmingCharacters(in: .whitespaces)), t.isFinite else {
                throw InputError(file: file, location: trace.location,
                                 message: "expected a number of milliseconds for the timeOffset of <trace>, found \"\(text)\"")
            }
            timeOffset = t
        }
        var samples: [PointerSample] = []
        samples.reserveCapacity(points.count)
        var needScaling: [Int] = []
        for (i, point) in points.enumerated() {
            let (sample, needsScaling) = try mapper.sample(point, index: i, timeOffset: timeOffset)
            if needsScaling { needScaling.append(samples.count) }
            samples.append(sample)
        }
        if trace.type?.trimmingCharacters(in: .whitespaces) == "penUp" {
            // Hover: the pen moved above the surface. Kept for counting, never drawn.
            for i in samples.indices { samples[i].buttons = 0 }
            recording.hover += samples
            return
        }
        unscaledForce += needScaling.map { (recording.strokes.count, $0) }
        recording.strokes.append(InkStroke(pointerType: "pen", samples: samples, location: trace.location))
    }
}

/// Follows `contextRef`, `inkSourceRef` and `traceFormatRef` to the trace format and channel
/// properties of a trace.
struct InkMLContextResolver {
    let file: String
    let document: InkMLDocumentParser
    private var cache: [String: InkMLResolvedContext] = [:]

    init(file: String, document: InkMLDocumentParser) {
        self.file = file
        self.document = document
    }

    static let standard = InkMLResolvedContext(format: .standard, properties: [:])

    /// The longest chain of `contextRef`s followed; longer is refused (a located error), so
    /// resolution stays shallow whatever the file says.
    static let maximumContextDepth = 64

    /// The context of `trace`: its (or its group's) `contextRef`, else the document's current
    /// context, else the default (channels X and Y).
    mutating func context(for trace: InkMLPendingTrace) throws(InputError) -> InkMLResolvedContext {
        if let ref = trace.contextRef {
            return try named(ref, at: trace.location, from: "the contextRef of <trace>", visiting: [])
        }
        if let current = trace.currentContext {
            return try resolve(current, visiting: [])
        }
        return Self.standard
    }

    private mutating func named(_ id: String, at location: SourceLocation, from what: String,
                                visiting: Set<String>) throws(InputError) -> InkMLResolvedContext {
        if let cached = cache[id] { return cached }
        guard let context = document.contexts[id] else {
            throw InputError(file: file, location: location,
                             message: "expected \(what) to name a <context>, found \"#\(id)\", which no context has as its xml:id",
                             hint: Self.known(document.contexts.keys))
        }
        guard !visiting.contains(id) else {
            throw InputError(file: file, location: context.location,
                             message: "expected contexts to refer to each other without a loop, found a loop through \"#\(id)\"")
        }
        guard visiting.count < Self.maximumContextDepth else {
            throw InputError(file: file, location: context.location,
                             message: "expected a chain of at most \(Self.maximumContextDepth) contexts referring to each other, found a longer one at \"#\(id)\"",
                             hint: "a real ink file needs a few; a hostile one would exhaust the stack")
        }
        let resolved = try resolve(context, visiting: visiting.union([id]))
        cache[id] = resolved
        return resolved
    }

    private mutating func resolve(_ context: InkMLContext, visiting: Set<String>) throws(InputError) -> InkMLResolvedContext {
        var result = Self.standard
        if let ref = context.contextRef {
            result = try named(ref, at: context.location, from: "the contextRef of <context>", visiting: visiting)
        }
        var source = context.inkSource
        if source == nil, let ref = context.inkSourceRef {
            guard let named = document.inkSources[ref] else {
                throw InputError(file: file, location: context.location,
                                 message: "expected the inkSourceRef of <context> to name an <inkSource>, found \"#\(ref)\"",
                                 hint: Self.known(document.inkSources.keys))
            }
            source = named
        }
        if let source {
            if let format = try format(source.traceFormat, source.traceFormatRef, at: source.location, of: "inkSource") {
                result.format = format
            }
            result.properties.merge(source.properties) { $0.merging($1) { _, new in new } }
        }
        if let format = try format(context.traceFormat, context.traceFormatRef, at: context.location, of: "context") {
            result.format = format
        }
        result.properties.merge(context.properties) { $0.merging($1) { _, new in new } }
        return result
    }

    private func format(_ inline: InkMLTraceFormat?, _ ref: String?, at location: SourceLocation,
                        of element: String) throws(InputError) -> InkMLTraceFormat? {
        var format = inline
        if format == nil, let ref {
            guard let named = document.traceFormats[ref] else {
                throw InputError(file: file, location: location,
                                 message: "expected the traceFormatRef of <\(element)> to name a <traceFormat>, found \"#\(ref)\"",
                                 hint: Self.known(document.traceFormats.keys))
            }
            format = named
        }
        if let f = format, f.regular.isEmpty {
            throw InputError(file: file, location: f.location,
                             message: "expected at least one <channel> in <traceFormat>, found none",
                             hint: "a trace format lists its channels, like <channel name=\"X\"/> <channel name=\"Y\"/>")
        }
        return format
    }

    private static func known(_ ids: Dictionary<String, some Any>.Keys) -> String? {
        ids.isEmpty ? "the document defines none" : "the document defines " + ids.sorted().map { "#" + $0 }.joined(separator: ", ")
    }
}

/// Turns decoded InkML points into Pointer Events samples for one context.
struct InkMLChannelMapper {
    let file: String
    private var x = 0, y = 0
    private var f: Int?, t: Int?, tiltX: Int?, tiltY: Int?, azimuth: Int?, elevation: Int?, rotation: Int?, w: Int?
    private var defaults: [Double?] = []
    private var xFactor = 1.0, yFactor = 1.0, wFactor = 1.0
    private var forceMin = 0.0, forceMax: Double?
    private var millisecondsPerT = 1.0
    private var degreesPerUnit: [Int: Double] = [:]
    /// Channels ignored for units that are not understood, as located warnings.
    private(set) var warnings: [String] = []

    init(context: InkMLResolvedContext, file: String) throws(InputError) {
        self.file = file
        let channels = context.format.all
        func index(_ name: String) -> Int? { channels.firstIndex { $0.name == name } }
        guard let xi = index("X"), let yi = index("Y") else {
            let names = channels.map(\.name).joined(separator: " ")
            throw InputError(file: file, location: context.format.location,
                             message: "expected the trace format to have the channels X and Y, found \(names)",
                             hint: "the importer needs a position; add <channel name=\"X\"/> and <channel name=\"Y\"/>")
        }
        x = xi
        y = yi
        f = index("F"); t = index("T"); tiltX = index("OTx") ?? index("TX"); tiltY = index("OTy") ?? index("TY")
        azimuth = index("OA"); elevation = index("OE"); rotation = index("OR"); w = index("W")
        defaults = channels.map(\.defaultValue)

        // Positions keep the file's coordinates, X and Y in the same unit: the fit scales them
        // uniformly. Per-axis `resolution` is deliberately not applied to positions: Microsoft
        // Office writes isotropic ink coordinates but declares its digitizer's resolutions
        // (3971.76/in for X, 5295.25/in for Y in ink1.xml), and dividing by them squashes the
        // handwriting by a quarter; Office and Microsoft's InkMLjs draw X and Y alike.
        if channels[xi].negative { xFactor = -1 }
        if channels[yi].negative { yFactor = -1 }
        for c in [channels[xi], channels[yi]] where InkUnits.millimetresPerUnit(c.units) == nil && !InkUnits.isDeviceUnit(c.units) {
            let at = c.location
            warnings.append("\(file):\(at.line):\(at.column): warning: channel \(c.name) has units \"\(c.units ?? "")\", which are not a length (in, cm, mm, himetric, dev): read as device units")
        }
        // X and Y in two different lengths (cm and mm) are both brought to millimetres; in the
        // same unit they stay as they are.
        var lengthOfX = 1.0
        if let mmX = InkUnits.millimetresPerUnit(channels[xi].units), let mmY = InkUnits.millimetresPerUnit(channels[yi].units),
           mmX != mmY {
            xFactor *= mmX
            yFactor *= mmY
            lengthOfX = mmX
        }
        if let w {
            // W is in X's units, unless both have a resolution in known lengths: then W is
            // converted through millimetres (W / resW in mm, times resX per mm).
            if let mmPerW = Self.millimetres(channels[w], context), let mmPerX = Self.millimetres(channels[xi], context),
               context.property("W", "resolution") != nil, context.property("X", "resolution") != nil {
                wFactor = mmPerW / mmPerX
            }
            wFactor *= lengthOfX
        }

        if let i = f, !InkUnits.isForceUnit(channels[i].units) {
            ignore(channels[i], expected: "a force (dev, N, g, %)")
            f = nil
        }
        if let i = f {
            let channel = channels[i]
            forceMax = context.property("F", "max")?.value ?? channel.max
            forceMin = context.property("F", "min")?.value ?? channel.min ?? 0
            if let m = forceMax, !(m > forceMin) { forceMax = nil }
            if forceMax == nil, InkUnits.scaled(channel.units).base == "%" { forceMax = 100 }
        }
        if let i = t {
            if let ms = Self.size(of: channels[i], context, InkUnits.millisecondsPerUnit) {
                millisecondsPerT = ms
            } else {
                ignore(channels[i], expected: "a time (ms, s, us, 1/1000 s)")
                t = nil
            }
        }
        for i in [tiltX, tiltY, azimuth, elevation, rotation].compactMap({ $0 }) {
            if let d = Self.size(of: channels[i], context, InkUnits.degreesPerUnit) {
                degreesPerUnit[i] = d
            } else {
                ignore(channels[i], expected: "an angle (deg, 1/100 deg, rad, grad)")
                if tiltX == i { tiltX = nil }
                if tiltY == i { tiltY = nil }
                if azimuth == i { azimuth = nil }
                if elevation == i { elevation = nil }
                if rotation == i { rotation = nil }
            }
        }
    }

    /// Records that `channel` is ignored because its units are not `expected`.
    private mutating func ignore(_ channel: InkMLChannel, expected: String) {
        let at = channel.location
        warnings.append("\(file):\(at.line):\(at.column): warning: channel \(channel.name) is ignored: expected its units to be \(expected), found \"\(channel.units ?? "")\"")
    }

    /// The size of one unit of `channel` in the unit `convert` measures: from its `resolution`
    /// property when that is a reciprocal of a unit `convert` knows (`1/deg`, `1/s`), else from
    /// the channel's `units`. `nil` when neither says.
    private static func size(of channel: InkMLChannel, _ context: InkMLResolvedContext,
                             _ convert: (String?) -> Double?) -> Double? {
        if let resolution = context.property(channel.name, "resolution"), resolution.value > 0,
           var unit = resolution.units?.trimmingCharacters(in: .whitespaces), unit.hasPrefix("1/") {
            unit.removeFirst(2)
            if let size = convert(unit) { return size / resolution.value }
        }
        if channel.units == nil { return convert(nil) }
        return InkUnits.isDeviceUnit(channel.units) ? nil : convert(channel.units)
    }

    /// Millimetres per unit of a length channel: from its `resolution` property (units such
    /// as `1/in`), else from its own `units` when they are a length. `nil` when unknown.
    private static func millimetres(_ channel: InkMLChannel, _ context: InkMLResolvedContext) -> Double? {
        if let resolution = context.property(channel.name, "resolution") {
            guard resolution.value > 0 else { return nil }
            var unit = resolution.units ?? ""
            if unit.hasPrefix("1/") { unit.removeFirst(2) }
            return InkUnits.millimetresPerUnit(unit).map { $0 / resolution.value }
        }
        return InkUnits.millimetresPerUnit(channel.units)
    }

    /// The sample for `point` (the `index`th of its trace), and whether its pressure still
    /// has to be normalised by the file's largest force (F without a declared maximum).
    func sample(_ point: InkMLTraceDecoder.Point, index: Int, timeOffset: Double?) throws(InputError) -> (PointerSample, Bool) {
        func value(_ i: Int?) -> Double? {
            guard let i else { return nil }
            return point.values[i] ?? defaults[i]
        }
        guard let px = value(x), let py = value(y) else {
            throw InputError(file: file, location: point.location,
                             message: "expected values for X and Y in point \(index + 1) of the trace, found an unknown value (?)",
                             hint: "a point of ink needs a position")
        }
        var s = PointerSample(x: px * xFactor, y: py * yFactor, location: point.location)
        s.buttons = 1
        var needsScaling = false
        if let force = value(f) {
            s.force = max(force, 0)
            if let m = forceMax {
                s.maxForce = m
                s.pressure = InkUnits.unit((force - forceMin) / (m - forceMin))
            } else {
                needsScaling = true
            }
        }
        if let time = value(t) {
            s.timeStamp = (timeOffset ?? 0) + time * millisecondsPerT
        } else if index == 0 {
            s.timeStamp = timeOffset
        }
        if let i = tiltX, let v = value(i) { s.tiltX = InkUnits.tilt(degrees: v * degreesPerUnit[i]!) }
        if let i = tiltY, let v = value(i) { s.tiltY = InkUnits.tilt(degrees: v * degreesPerUnit[i]!) }
        if let i = azimuth, let v = value(i) {
            s.azimuthAngle = InkUnits.azimuth(radians: v * degreesPerUnit[i]! * .pi / 180)
        }
        if let i = elevation, let v = value(i) {
            s.altitudeAngle = InkUnits.altitude(radians: v * degreesPerUnit[i]! * .pi / 180)
        }
        if let i = rotation, let v = value(i) { s.twist = InkUnits.twist(degrees: v * degreesPerUnit[i]!) }
        if let width = value(w) {
            let size = max(width * wFactor, 0)
            s.width = size
            s.height = size
        }
        return (s, needsScaling)
    }
}
