import BristleHost

/// The `canvas` group: a brush writes only inside the pixels it was given, never into the
/// stride padding (not even briefly), reports every pixel it changes, keeps pixels
/// premultiplied, leaves its inputs alone, copes with odd canvas sizes and strides, and uses
/// host memory only during the call that passed it.
enum CanvasTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("canvas.guard-pages", tier: .standard, scope: .brush,
                        "Strokes along and across every edge, on buffers whose last pixel's last byte touches a PROT_NONE guard page (the last row's padding is not mapped), then whose first pixel follows one: a write or read a byte past either end is a crash naming the byte.") { ctx throws(CheckFailure) in
            for placement in [GuardedCanvas.Placement.endAligned, .startAligned] {
                try drawEverything(ctx, checks: .padding, placement: placement)
            }
            return .pass
        },
        ConformanceTest("canvas.stride-padding", tier: .standard, scope: .brush,
                        "The \(GuardedCanvas.defaultPadding) padding bytes at the end of every row keep their sentinel after every draw and at every services call during it (restoring them before returning does not hide a write).") { ctx throws(CheckFailure) in
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
        ConformanceTest("canvas.row-guards", tier: .standard, scope: .brush,
                        "Every row ends flush against a PROT_NONE guard page: a brush that writes into the stride padding and restores it before returning, or only reads it, crashes at once.") { ctx throws(CheckFailure) in
            try drawEverything(ctx, checks: .padding, placement: .rowGuarded)
            return .pass
        },
        ConformanceTest("canvas.premultiplied", tier: .standard, scope: .brush,
                        "On transparent, translucent and opaque canvases (filled afresh for each colour), with opaque and translucent colours and every value of every enum parameter (blend modes, shapes), every pixel a draw reports is premultiplied: R, G, B <= A.") { ctx throws(CheckFailure) in
            let fills: [(UInt8, UInt8, UInt8, UInt8)] = [(0, 0, 0, 0), (60, 40, 20, 96), StandardStrokes.paper]
            let colors = [bristle_color_t(r: 0.1, g: 0.2, b: 0.6, a: 1), bristle_color_t(r: 0.9, g: 0.6, b: 0.2, a: 0.35),
                          bristle_color_t(r: 1, g: 1, b: 1, a: 0.02)]
            for fill in fills {
                let driver = try ctx.makeDriver(checks: [.premultiplied, .dirtyRect])
                for setting in ParameterTests.enumSettings(driver.brush) {
                    try ParameterTests.set(ctx, driver.brush, setting)
                    for color in colors {
                        // A fresh canvas for every colour: strokes along one path would
                        // otherwise meet only pixels an earlier opaque stroke made opaque.
                        driver.fill(fill)
                        driver.color = color
                        try driver.draw(StandardStrokes.withWildPredictions(.wave(count: 16, width: 96, height: 64),
                                                                            width: 96, height: 64))
                    }
                }
            }
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
        ConformanceTest("canvas.odd-strides", tier: .strict, scope: .brush,
                        "Rows 1, 3, 4 and 60 bytes of padding apart (strides that are not a multiple of 4, and the smallest padding), with every canvas check: a brush must step rows by stride_bytes, never by a pixel count.") { ctx throws(CheckFailure) in
            for padding in [1, 3, 4, 60] { try drawEverything(ctx, checks: .all, padding: padding) }
            return .pass
        },
        ConformanceTest("canvas.memory-after-return", tier: .strict, scope: .brush,
                        "Every call gets fresh samples, stroke context, target, dirty rectangle and pixel buffers, and those of the calls before become inaccessible: a brush that keeps a host pointer past the call that passed it crashes, reported as using memory after the hook returned, naming that call.") { ctx throws(CheckFailure) in
            try drawEverything(ctx, checks: DriverChecks.all.union(.lifetimes))
            return .pass
        },
    ]

    /// The canvas tests' stroke set on a 96x64 canvas: a wave, the edge strokes, a cancelled
    /// stroke, predicted samples and ticks, all under `checks`.
    static func drawEverything(_ ctx: TestContext, checks: DriverChecks,
                               placement: GuardedCanvas.Placement = .endAligned,
                               padding: Int = GuardedCanvas.defaultPadding) throws(CheckFailure) {
        try drawEverything(on: ctx.makeDriver(placement: placement, padding: padding, checks: checks))
    }

    /// The same stroke set on a driver the caller made (96x64 or larger).
    static func drawEverything(on driver: StrokeDriver) throws(CheckFailure) {
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
