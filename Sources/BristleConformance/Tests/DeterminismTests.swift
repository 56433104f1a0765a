import BristleHost

/// The `determinism` group, for brushes that set DETERMINISTIC: the same input gives the same
/// pixels twice, whatever the batching and however long the session, and two instances do
/// not influence each other, neither interleaved on one thread nor running on two.
enum DeterminismTests {
    /// The largest per-channel difference batching invariance tolerates (out of 255): event
    /// boundaries may round a segment joint differently, but never change the stroke.
    static let batchingTolerance = 2
    /// Strokes of the long session (never scaled: it must pass 300 events).
    static let longSessionStrokes = 45

    static let all: [ConformanceTest] = [
        ConformanceTest("determinism.render-twice", tier: .strict, scope: .brush,
                        "Two fresh instances given the same strokes and seeds produce byte-identical committed layers.") { ctx throws(CheckFailure) in
            let a = try ctx.makeDriver(checks: .none), b = try ctx.makeDriver(checks: .none)
            guard a.brush.descriptor.capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC")
            }
            var rng = ctx.random("determinism.render-twice")
            for d in [a, b] { d.fill(StandardStrokes.paper) }
            for _ in 0..<4 {
                var s = StandardStrokes.random(&rng, width: 96, height: 64, predicted: false)
                s.cancelAtEnd = false
                try a.draw(s)
                try b.draw(s)
                try a.tick(frames: 2)
                try b.tick(frames: 2)
            }
            let diff = a.committed.difference(from: b.committed)
            guard diff.pixels == 0 else {
                return .fail("two identical runs differ in \(diff.pixels) pixels (by up to \(diff.maxDelta)/255): a "
                             + "DETERMINISTIC brush uses no clocks, no unseeded randomness, no uninitialised memory")
            }
            return .pass
        },
        ConformanceTest("determinism.batching", tier: .strict, scope: .brush,
                        "The same samples delivered one per event and in seeded random batches give the same committed pixels, within \(batchingTolerance)/255 per channel.") { ctx throws(CheckFailure) in
            let a = try ctx.makeDriver(checks: .none), b = try ctx.makeDriver(checks: .none)
            guard a.brush.descriptor.capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC")
            }
            var rng = ctx.random("determinism.batching")
            for d in [a, b] { d.fill(StandardStrokes.paper) }
            let wave = TestStroke.wave(count: 60, width: 96, height: 64, batch: 1)
            let samples = [wave.first] + wave.events.flatMap { $0 } + [wave.last]
            let batches = (0..<12).map { _ in Int.random(in: 1...9, using: &rng) }
            try a.draw(TestStroke(samples: samples, batches: [1]))
            try b.draw(TestStroke(samples: samples, batches: batches))
            let diff = a.committed.difference(from: b.committed)
            guard diff.maxDelta <= batchingTolerance else {
                if let cause = try NondeterminismProbe.cause(ctx, instead: "batching") { return .fail(cause) }
                return .fail("batches \(batches) change \(diff.pixels) pixels by up to \(diff.maxDelta)/255 against one "
                             + "sample per event (tolerance \(batchingTolerance)): how the host splits input into events "
                             + "must not change the stroke")
            }
            return .pass
        },
        ConformanceTest("determinism.long-session", tier: .strict, scope: .brush,
                        "Two fresh instances given the same session of \(longSessionStrokes) strokes (over 300 events, with predictions, cancels and ticks) hold byte-identical committed layers after every stroke: nondeterminism that shows only after hundreds of events (a counter, a ring buffer, a lazily seeded generator) is caught.") { ctx throws(CheckFailure) in
            let a = try ctx.makeDriver(checks: .none), b = try ctx.makeDriver(checks: .none)
            guard a.brush.descriptor.capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC")
            }
            var rng = ctx.random("determinism.long-session")
            let wantsPredicted = a.brush.descriptor.capabilities.contains(.wantsPredicted)
            let session = (0..<longSessionStrokes).map { _ in
                var stroke = StandardStrokes.random(&rng, width: 96, height: 64, maxSamples: 40, predicted: wantsPredicted)
                stroke.events = stroke.events.flatMap { $0 }.chunked(Int.random(in: 1...3, using: &rng))
                stroke.predicted = Array(stroke.predicted.prefix(stroke.events.count))
                return stroke
            }
            // One instance after the other (interleaving them would blame state they share),
            // the first keeping its committed layer after every stroke.
            var expected: [[UInt8]] = []
            for d in [a, b] {
                d.fill(StandardStrokes.paper)
                var events = 0
                for (i, stroke) in session.enumerated() {
                    try d.draw(stroke)
                    events += stroke.events.count + 2
                    if i % 5 == 4 { try d.tick(frames: 2) }
                    guard d === b else {
                        expected.append(d.committed.snapshot())
                        continue
                    }
                    if let p = b.committed.firstDifference(from: expected[i]) {
                        let k = (p.y * 96 + p.x) * 4
                        return .fail("after stroke \(i + 1) (about \(events) events into the session) two instances given "
                                     + "the same session differ, first at (\(p.x), \(p.y)): \(b.committed.describePixel(x: p.x, y: p.y)) "
                                     + "against (\(expected[i][k]),\(expected[i][k + 1]),\(expected[i][k + 2]),\(expected[i][k + 3])); a "
                                     + "DETERMINISTIC brush draws the same pixels however long it has been running")
                    }
                }
            }
            let events = session.reduce(0) { $0 + $1.events.count + 2 }
            return TestOutcome(.pass, "\(events) events")
        },
        ConformanceTest("determinism.instances-independent", tier: .strict, scope: .brush,
                        "Two instances interleaved call by call on one thread, then running on two threads at once, draw exactly what each draws alone: no shared mutable global state.") { ctx throws(CheckFailure) in
            let probe = try ctx.makeDriver(checks: .none)
            guard probe.brush.descriptor.capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC")
            }
            let strokesA = [TestStroke.wave(count: 80, width: 96, height: 64, batch: 2)]
            var pointsB: [(Double, Double)] = []
            for i in 0..<80 {
                let y = 5 + (i * 7) % 50
                pointsB.append((Double(90 - i), Double(y)))
            }
            let strokesB = [TestStroke(points: pointsB, batch: 2)]
            // Reference: each alone.
            let refA = try ctx.makeDriver(checks: .none), refB = try ctx.makeDriver(checks: .none)
            for s in strokesA { try refA.draw(s) }
            for s in strokesB { try refB.draw(s) }
            // Interleaved on one thread.
            let a = try ctx.makeDriver(checks: .none), b = try ctx.makeDriver(checks: .none)
            for (sa, sb) in zip(strokesA, strokesB) {
                try a.begin(sa.first)
                try b.begin(sb.first)
                for i in 0..<max(sa.events.count, sb.events.count) {
                    if i < sa.events.count { try a.move(sa.events[i]) }
                    if i < sb.events.count { try b.move(sb.events[i]) }
                }
                try a.end(sa.last)
                try b.end(sb.last)
            }
            if a.committed.difference(from: refA.committed).pixels != 0 || b.committed.difference(from: refB.committed).pixels != 0 {
                return .fail("two instances interleaved on one thread draw differently from each alone: instances share "
                             + "state (a global); keep stroke state behind brush_data")
            }
            // Two threads, a few rounds.
            for round in 0..<ctx.iterations(3) {
                let ta = try ctx.makeDriver(checks: .none), tb = try ctx.makeDriver(checks: .none)
                let (fa, fb) = ThreadPair.run({
                    do throws(CheckFailure) { for s in strokesA { try ta.draw(s) } } catch { return error }
                    return nil
                }, {
                    do throws(CheckFailure) { for s in strokesB { try tb.draw(s) } } catch { return error }
                    return nil
                })
                if let f = fa ?? fb { throw f }
                if ta.committed.difference(from: refA.committed).pixels != 0 || tb.committed.difference(from: refB.committed).pixels != 0 {
                    return .fail("two instances on two threads (round \(round + 1)) draw differently from each alone: "
                                 + "the brush keeps unsynchronised global state")
                }
            }
            return .pass
        },
    ]
}
