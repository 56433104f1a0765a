import BristleHost

/// The `layout` group: the brush's view of the struct layouts agrees with the header. A brush
/// written in another language mirrors the structs by hand; one with a field too few or too
/// many writes a `struct_size` no ABI version defines, and the host then reads its struct
/// wrongly or draws nothing. And a brush that declares 1.2 or later steps through sample arrays
/// by `struct_size` (bristle.h, ARRAYS), whatever size the host passes.
enum LayoutTests {
    /// How much larger than the brush's own samples `layout.sample-stride` makes them.
    static let extraSampleBytes = 24

    static let all: [ConformanceTest] = [
        ConformanceTest("layout.plugin-structs", tier: .basic, scope: .brush,
                        "The struct_size of the entry, the factory, the descriptor, an instance, its params extension and every param_info is a size some published ABI version defines (for a brush declaring a later minor than the host's: at least the host's size).") { ctx throws(CheckFailure) in
            let (raw, d) = try DescriptorTests.raw(ctx)
            defer { raw.deinitialize() }
            let entryMinor = raw.entry.pointee.abi.minor, minor = d.pointee.abi.minor
            let f = try raw.brushFactory()
            var problems: [String] = []
            func check(_ what: String, _ layout: ABIStruct, _ size: UInt32, _ declared: UInt32) {
                if let p = layout.sizeProblem(size, declaredMinor: declared) { problems.append("\(what): \(p)") }
            }
            check("the entry", ABILayout.entry, raw.entry.pointee.struct_size, entryMinor)
            check("the factory", ABILayout.factory, f.pointee.struct_size, entryMinor)
            check("the descriptor", ABILayout.descriptor, d.pointee.struct_size, minor)
            let host = BrushHost(logHandler: { _, _ in })
            guard let id = ctx.brushID,
                  let b = ctx.recorder.record("factory->create(\"\(id)\")", { f.pointee.create!(f, host.cHost, id) }) else {
                return .fail("create(\"\(ctx.brushID ?? "")\") returned NULL for a listed id")
            }
            defer { ctx.recorder.record("brush->destroy()") { b.pointee.destroy?(b) } }
            check("the instance", ABILayout.brush, b.pointee.struct_size, minor)
            let paramsExtension = b.pointee.get_extension.flatMap { get in
                ctx.recorder.record("brush->get_extension(\"\(BRISTLE_EXT_PARAMS)\")") { get(b, BRISTLE_EXT_PARAMS) }
            }
            if let params = paramsExtension?.assumingMemoryBound(to: bristle_params_t.self) {
                check("the params extension", ABILayout.params, params.pointee.struct_size, minor)
                if ABILayout.params.tooSmall(params.pointee.struct_size) == nil, let count = params.pointee.count,
                   let info = params.pointee.info {
                    for i in 0..<min(count(b), 256) {
                        guard let p = ctx.recorder.record("params->info(\(i))", { info(b, i) }) else { continue }
                        check("param_info \(i)", ABILayout.paramInfo, p.pointee.struct_size, minor)
                    }
                }
            }
            return problems.isEmpty ? .pass : .fail(problems.joined(separator: "; "))
        },
        ConformanceTest("layout.service-structs", tier: .standard, scope: .brush,
                        "Every paint, segment, stroke style and pattern the brush passes to the drawing services has a struct_size a published ABI version defines (a mirrored struct with a field too few makes the host draw nothing).") { ctx throws(CheckFailure) in
            guard let minor = try ctx.library().descriptor(id: ctx.brushID ?? "")?.abiMinor else {
                throw CheckFailure("the library lists no brush '\(ctx.brushID ?? "")'")
            }
            let host = BrushHost(logHandler: { _, _ in })
            let spy = ServicesSpy(host: host, declaredMinor: minor)
            let driver = try ctx.makeDriver(checks: .none, host: host)
            driver.fill(StandardStrokes.paper)
            try driver.draw(StandardStrokes.withWildPredictions(.wave(count: 40, width: 96, height: 64), width: 96, height: 64))
            try driver.draw(TestStroke(points: [(5, 5), (90, 60)], batch: 1))
            try driver.tick(frames: 3)
            let problems = withExtendedLifetime(spy) { spy.problems }
            return problems.isEmpty ? .pass : .fail(problems.joined(separator: "; "))
        },
        ConformanceTest("layout.sample-stride", tier: .strict, scope: .brush,
                        "A brush declaring ABI 1.2 (up to the host's minor) draws the same pixels, committed and preview, when each sample it receives is \(extraSampleBytes) bytes larger than its own (struct_size and stride; trailing bytes garbage): it steps through sample arrays by struct_size.") { ctx throws(CheckFailure) in
            let a = try ctx.makeDriver(checks: .none)
            let minor = a.brush.descriptor.abiMinor
            guard minor >= 2 else {
                return .skip("the brush declares ABI 1.\(minor): hosts pass it samples of exactly its own size, so "
                             + "it may index samples[i]")
            }
            guard minor <= ABILayout.hostMinor else {
                return .skip("the brush declares ABI 1.\(minor), newer than this harness's 1.\(ABILayout.hostMinor): "
                             + "bytes past this harness's sample may be fields that brush knows, so garbage there "
                             + "proves nothing")
            }
            guard a.brush.descriptor.capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC, so two runs cannot be compared pixel for pixel")
            }
            let own = a.brush.sampleSize, larger = own + extraSampleBytes
            // Three separate runs, one after the other (never interleaved, so state a brush
            // wrongly shares between instances cannot pass for a stride error).
            let reference = try snapshots(a)
            guard try snapshots(ctx.makeDriver(checks: .none)) == reference else {
                return .skip("two runs at the brush's own sample size already differ, so this test cannot tell a "
                             + "stride error from nondeterminism (the determinism tests say more)")
            }
            let largerRun = try snapshots(ctx.makeDriver(checks: .none, sampleStructSize: larger))
            guard let i = reference.indices.first(where: { reference[$0] != largerRun[$0] }) else { return .pass }
            let (want, got) = (reference[i], largerRun[i])
            let layer = want.committed != got.committed ? "committed" : "preview"
            let p = firstDifference(layer == "committed" ? want.committed : want.preview,
                                    layer == "committed" ? got.committed : got.preview, width: a.committed.width)
            return .fail("with samples of struct_size \(larger) (\(extraSampleBytes) bytes more than "
                         + "bristle_sample_t in ABI 1.\(minor), \(own) bytes, the extra bytes holding 0xA5), the "
                         + "\(layer) layer differs after \(want.after), first at pixel (\(p.x), \(p.y)): the brush steps "
                         + "through the samples of moved/predicted by its own sizeof instead of by struct_size. Read "
                         + "them with bristle_sample_at(samples, i) or BRISTLE_ARRAY_AT, never samples[i] "
                         + "(bristle.h, ARRAYS)")
        },
    ]

    /// What the layers hold after each event of the stride test's strokes.
    struct Snapshot: Equatable {
        var after: String
        var committed: [UInt8]
        var preview: [UInt8]
    }

    /// Draws the stride test's strokes (events of 3 and 5 samples, 3 predicted samples per
    /// event) on paper and snapshots both layers after every event and every stroke.
    static func snapshots(_ d: StrokeDriver) throws(CheckFailure) -> [Snapshot] {
        d.fill(StandardStrokes.paper)
        let strokes = [StandardStrokes.withWildPredictions(.wave(count: 40, width: 96, height: 64), width: 96, height: 64),
                       TestStroke.wave(count: 31, width: 96, height: 64, batch: 5)]
        var out: [Snapshot] = []
        for (n, stroke) in strokes.enumerated() {
            try d.begin(stroke.first)
            for (i, event) in stroke.events.enumerated() {
                try d.move(event, predicted: i < stroke.predicted.count ? stroke.predicted[i] : [])
                out.append(Snapshot(after: "event \(i + 1) of stroke \(n + 1)", committed: d.committed.snapshot(),
                                    preview: d.preview.snapshot()))
            }
            try d.end(stroke.last)
            out.append(Snapshot(after: "the end of stroke \(n + 1)", committed: d.committed.snapshot(),
                                preview: d.preview.snapshot()))
        }
        return out
    }

    /// The first pixel where two packed layer snapshots of rows `width` pixels wide differ.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8], width: Int) -> (x: Int, y: Int) {
        let byte = a.indices.first { a[$0] != b[$0] } ?? 0
        return (byte / 4 % width, byte / 4 / width)
    }
}
