import BristleHost

/// The `semantics` group: shapes commit only at `ended`, and predicted samples never reach
/// committed pixels.
enum SemanticsTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("semantics.commit-after-ended", tier: .standard, scope: .brush,
                        "A brush without CONTINUOUS leaves committed untouched until `ended` (it rubber-bands in the preview).") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(checks: .committedUntilEnded)
            guard !driver.brush.descriptor.capabilities.contains(.continuous) else {
                return .skip("the brush is CONTINUOUS: it commits after every event")
            }
            driver.fill(StandardStrokes.paper)
            try driver.draw(StandardStrokes.withWildPredictions(.wave(count: 30, width: 96, height: 64), width: 96, height: 64))
            try driver.draw(.wave(count: 12, width: 96, height: 64))
            return .pass
        },
        ConformanceTest("semantics.predicted-never-committed", tier: .standard, scope: .brush,
                        "For a DETERMINISTIC brush, with wild predicted samples at every event, committed stays byte-identical, event by event, to the same strokes drawn without predictions; a divergence names the event, its predicted samples and the first differing pixel.") { ctx throws(CheckFailure) in
            let with = try ctx.makeDriver(checks: .none), without = try ctx.makeDriver(checks: .none)
            let capabilities = with.brush.descriptor.capabilities
            guard capabilities.contains(.wantsPredicted) else { return .skip("the brush does not set WANTS_PREDICTED") }
            guard capabilities.contains(.deterministic) else {
                return .skip("the brush does not set DETERMINISTIC: two runs may differ without any prediction")
            }
            for d in [with, without] { d.fill(StandardStrokes.paper) }
            let strokes = [TestStroke.wave(count: 40, width: 96, height: 64),
                           TestStroke(points: (0..<30).map { (Double(80 - $0 * 2), Double(8 + $0)) }, batch: 2)]
            // The run without predictions first, in full (interleaving two instances would
            // blame predictions for state they share), keeping committed after every event.
            var expected: [[UInt8]] = []
            for plain in strokes {
                try without.begin(plain.first)
                for event in plain.events {
                    try without.move(event)
                    expected.append(without.committed.snapshot())
                }
                try without.end(plain.last)
                expected.append(without.committed.snapshot())
            }
            var step = 0
            for (n, plain) in strokes.enumerated() {
                let s = StandardStrokes.withWildPredictions(plain, width: 96, height: 64)
                try with.begin(s.first)
                var sample = 1
                var guesses = "none"
                for (e, event) in s.events.enumerated() {
                    try with.move(event, predicted: s.predicted[e])
                    if let problem = divergence(with.committed, expected[step]) {
                        if let cause = try NondeterminismProbe.cause(ctx, instead: "predicted samples") { return .fail(cause) }
                        return .fail("stroke \(n + 1), event \(e + 1) (samples \(sample)-\(sample + event.count - 1) of the "
                                     + "stroke), the last predicted samples before it at \(guesses): \(problem); predicted "
                                     + "samples belong in the preview only and are discarded by the next event")
                    }
                    step += 1
                    guesses = s.predicted[e].map { "(\($0.x), \($0.y))" }.joined(separator: ", ")
                    sample += event.count
                }
                try with.end(s.last)
                if let problem = divergence(with.committed, expected[step]) {
                    if let cause = try NondeterminismProbe.cause(ctx, instead: "predicted samples") { return .fail(cause) }
                    return .fail("stroke \(n + 1), at `ended`: \(problem); predicted samples never reach committed pixels")
                }
                step += 1
            }
            return .pass
        },
    ]

    /// Where committed differs from the run without predictions (`expected`), or nil.
    private static func divergence(_ committed: GuardedCanvas, _ expected: [UInt8]) -> String? {
        guard let p = committed.firstDifference(from: expected) else { return nil }
        let i = (p.y * committed.width + p.x) * 4
        return "committed differs from the run without predictions, first at (\(p.x), \(p.y)): "
            + "\(committed.describePixel(x: p.x, y: p.y)) instead of (\(expected[i]),\(expected[i + 1]),\(expected[i + 2]),\(expected[i + 3]))"
    }
}
