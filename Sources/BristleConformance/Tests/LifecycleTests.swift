import BristleHost

/// The `lifecycle` group: strokes of every length run through the hooks with `BRISTLE_OK`,
/// cancel leaves nothing behind, one instance survives many strokes, the first stroke paints,
/// and brushes that want ticks take them.
enum LifecycleTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("lifecycle.single-stroke", tier: .standard, scope: .brush,
                        "One ordinary stroke (begin, 13 moved events of 3 samples, ended) returns BRISTLE_OK from every hook and draw.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            try driver.draw(.wave(count: 40, width: 96, height: 64))
            return .pass
        },
        ConformanceTest("lifecycle.first-stroke-paints", tier: .standard, scope: .brush,
                        "The first stroke of a fresh instance with default parameters changes pixels: committed ones (on an opaque canvas, so erasers count), or for a brush that only ever previews (a laser pointer), preview ones.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            driver.fill(StandardStrokes.paper)
            let before = driver.committed.snapshot()
            let stroke = TestStroke.wave(count: 40, width: 96, height: 64)
            try driver.begin(stroke.first)
            var previewed = false
            for event in stroke.events {
                try driver.move(event)
                previewed = previewed || !driver.preview.matches(before)
            }
            try driver.end(stroke.last)
            guard driver.committed.matches(before) else { return .pass }
            guard previewed else {
                return .fail("a 40-sample stroke across the canvas changed neither the committed layer nor the preview; a brush draws its stroke")
            }
            return TestOutcome(.pass, "the brush draws into the preview only")
        },
        ConformanceTest("lifecycle.cancel-restores", tier: .standard, scope: .brush,
                        "After a cancelled stroke the host's restore of every reported rectangle gives back committed exactly.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            driver.fill(StandardStrokes.paper)
            let initial = driver.committed.snapshot()
            var cancelled = TestStroke.wave(count: 30, width: 96, height: 64)
            cancelled.cancelAtEnd = true
            try driver.draw(cancelled)
            if let p = driver.committed.firstDifference(from: initial) {
                return .fail("after cancel and the host's restore of every reported dirty rect, pixel (\(p.x), \(p.y)) "
                             + "still differs: the brush changed pixels it did not report")
            }
            return .pass
        },
        ConformanceTest("lifecycle.cancel-forgets", tier: .standard, scope: .brush,
                        "A DETERMINISTIC brush draws the stroke after a cancelled one exactly as after a different cancelled one: `cancelled` drops all stroke state.") { ctx throws(CheckFailure) in
            let a = try ctx.makeDriver(checks: .none), b = try ctx.makeDriver(checks: .none)
            guard a.brush.descriptor.capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC: two runs may differ anyway")
            }
            for d in [a, b] { d.fill(StandardStrokes.paper) }
            var one = TestStroke.wave(count: 30, width: 96, height: 64), other = TestStroke(points: [(48, 32)])
            one.cancelAtEnd = true
            other.cancelAtEnd = true
            let next = TestStroke(points: (0..<20).map { (Double(10 + $0 * 4), Double(50 - $0)) }, batch: 2)
            for (d, cancelled) in [(a, one), (b, other)] {
                try d.draw(cancelled)
                try d.draw(next)
            }
            if let p = a.committed.firstDifference(from: b.committed, outside: .empty) {
                if let cause = try NondeterminismProbe.cause(ctx, instead: "`cancelled`") { return .fail(cause) }
                return .fail("the stroke after a cancelled one differs from the same stroke after a different cancelled "
                             + "one, first at (\(p.x), \(p.y)): \(a.committed.describePixel(x: p.x, y: p.y)) against "
                             + "\(b.committed.describePixel(x: p.x, y: p.y)): `cancelled` must drop all stroke state")
            }
            return .pass
        },
        ConformanceTest("lifecycle.zero-length-stroke", tier: .standard, scope: .brush,
                        "A stroke whose samples all sit on one point (begin, three moved, ended) is handled.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            let p = TestStroke.sample(x: 40.5, y: 20.25, t: 0)
            try driver.begin(p)
            for i in 1...3 {
                var q = p
                q.t = Double(i) / 1000
                try driver.move([q])
            }
            try driver.end(p)
            return .pass
        },
        ConformanceTest("lifecycle.single-sample-stroke", tier: .standard, scope: .brush,
                        "A stroke of one sample (begin, then ended at the same sample, no moved) is handled.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            let p = TestStroke.sample(x: 10, y: 12, t: 0)
            try driver.begin(p)
            try driver.end(p)
            return .pass
        },
        ConformanceTest("lifecycle.many-strokes", tier: .standard, scope: .brush,
                        "One instance draws 40 strokes in a row; every hook returns BRISTLE_OK.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .none)
            var rng = ctx.random("lifecycle.many-strokes")
            for _ in 0..<40 {
                var s = StandardStrokes.random(&rng, width: 96, height: 64, maxSamples: 24, predicted: false)
                s.cancelAtEnd = false
                try driver.draw(s)
            }
            return .pass
        },
        ConformanceTest("lifecycle.ticks", tier: .standard, scope: .brush,
                        "A WANTS_TICKS brush takes 30 ticks after a stroke, each followed by a checked committed draw.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            guard driver.brush.descriptor.capabilities.contains(.wantsTicks) else {
                return .skip("the brush does not set WANTS_TICKS")
            }
            driver.fill(StandardStrokes.paper)
            try driver.draw(.wave(count: 30, width: 96, height: 64))
            try driver.tick(frames: 30)
            return .pass
        },
    ]
}
