import BristleHost

/// The `canvas` group: a brush writes only inside the pixels it was given, never into the
/// stride padding, reports every pixel it changes, leaves its inputs alone, and copes with odd
/// canvas sizes.
enum CanvasTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("canvas.guard-pages", tier: .standard, scope: .brush,
                        "Strokes along and across every edge, on buffers flush against a PROT_NONE guard page after them and then before them: a write past either end is a crash.") { ctx throws(CheckFailure) in
            for placement in [GuardedCanvas.Placement.endAligned, .startAligned] {
                try drawEverything(ctx, checks: .padding, placement: placement)
            }
            return .pass
        },
        ConformanceTest("canvas.stride-padding", tier: .standard, scope: .brush,
                        "The \(GuardedCanvas.paddingBytes) padding bytes at the end of every row keep their sentinel after every draw.") { ctx throws(CheckFailure) in
            try drawEverything(ctx, checks: .padding)
            return .pass
        },
        ConformanceTest("canvas.dirty-rect", tier: .standard, scope: .brush,
                        "After every committed and preview draw, every changed pixel lies inside the reported *dirty rectangle, or, when the draw listed rectangles in target->dirty_list, inside one of them.") { ctx throws(CheckFailure) in
            try drawEverything(ctx, checks: .dirtyRect)
            return .pass
        },
        ConformanceTest("canvas.dirty-list", tier: .standard, scope: .brush,
                        "A draw that lists rectangles in target->dirty_list (ABI 1.2) keeps count within capacity, and its *dirty contains every listed rectangle; canvas.dirty-rect checks the changed pixels against the list.") { ctx throws(CheckFailure) in
            try drawEverything(ctx, checks: .dirtyList)
            return .pass
        },
        ConformanceTest("canvas.inputs-unmodified", tier: .standard, scope: .brush,
                        "Samples, the stroke context, the target struct and target->base are unchanged by every hook and draw.") { ctx throws(CheckFailure) in
            try drawEverything(ctx, checks: .inputs)
            return .pass
        },
        ConformanceTest("canvas.odd-sizes", tier: .strict, scope: .brush,
                        "Canvases of 1x1, 3x7, 1023x1 and 4097x3 pixels, with every canvas check, under edge-hugging strokes.") { ctx throws(CheckFailure) in
            for (w, h) in [(1, 1), (3, 7), (1023, 1), (4097, 3)] {
                let driver = try ctx.makeDriver(width: w, height: h)
                driver.strokeWidth = 3
                driver.fill(StandardStrokes.paper)
                for stroke in StandardStrokes.edges(width: w, height: h) {
                    try driver.draw(StandardStrokes.withWildPredictions(stroke, width: w, height: h))
                }
                try driver.tick(frames: 3)
            }
            return .pass
        },
    ]

    /// The canvas tests' stroke set on a 96x64 canvas: a wave, the edge strokes, a cancelled
    /// stroke, predicted samples and ticks, all under `checks`.
    static func drawEverything(_ ctx: TestContext, checks: DriverChecks,
                               placement: GuardedCanvas.Placement = .endAligned) throws(CheckFailure) {
        let driver = try ctx.makeDriver(placement: placement, checks: checks)
        driver.fill(StandardStrokes.paper)
        try driver.draw(StandardStrokes.withWildPredictions(.wave(count: 40, width: 96, height: 64), width: 96, height: 64))
        for stroke in StandardStrokes.edges(width: 96, height: 64) {
            try driver.draw(StandardStrokes.withWildPredictions(stroke, width: 96, height: 64))
        }
        var cancelled = TestStroke.wave(count: 20, width: 96, height: 64)
        cancelled.cancelAtEnd = true
        try driver.draw(cancelled)
        driver.strokeWidth = 40
        try driver.draw(TestStroke(points: [(5, 5), (90, 60)], batch: 1))
        try driver.tick(frames: 5)
    }
}
