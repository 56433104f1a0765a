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
                        "With wild predicted samples at every event, committed ends byte-identical to the same strokes drawn without predictions.") { ctx throws(CheckFailure) in
            let with = try ctx.makeDriver(checks: .none), without = try ctx.makeDriver(checks: .none)
            guard with.brush.descriptor.capabilities.contains(.wantsPredicted) else {
                return .skip("the brush does not set WANTS_PREDICTED")
            }
            for d in [with, without] { d.fill(StandardStrokes.paper) }
            let strokes = [TestStroke.wave(count: 40, width: 96, height: 64),
                           TestStroke(points: (0..<30).map { (Double(80 - $0 * 2), Double(8 + $0)) }, batch: 2)]
            for s in strokes {
                try with.draw(StandardStrokes.withWildPredictions(s, width: 96, height: 64))
                try without.draw(s)
            }
            let diff = with.committed.difference(from: without.committed)
            guard diff.pixels == 0 else {
                return .fail("predicted samples changed \(diff.pixels) committed pixels (by up to \(diff.maxDelta)/255): "
                             + "they belong in the preview only and are discarded by the next event")
            }
            return .pass
        },
    ]
}
