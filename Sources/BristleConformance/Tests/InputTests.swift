import BristleHost
import Glibc

/// The `input` group (strict): the ranges a real host sends and the other tests do not — input
/// devices with few channels, display scale factors, large coalesced batches and large
/// canvases — under every canvas check.
enum InputTests {
    /// The side of the large canvas.
    static let largeSide = 4096

    static let all: [ConformanceTest] = [
        ConformanceTest("input.devices", tier: .strict, scope: .brush,
                        "Strokes from a mouse (no pressure, tilt or anything else), a finger (contact size only), a pen reporting only pressure, only tilt, or every channel, and a pen's eraser end, pass every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            driver.fill(StandardStrokes.paper)
            for device in InputDevice.all {
                driver.deviceFlags = device.flags
                driver.pointerType = device.pointer
                for stroke in [TestStroke.wave(count: 24, width: 96, height: 64)] + StandardStrokes.edges(width: 96, height: 64) {
                    try driver.draw(device.apply(to: stroke))
                }
            }
            return .pass
        },
        ConformanceTest("input.scale", tier: .strict, scope: .brush,
                        "Strokes at 0.5, 1, 2, 3 and 4 canvas pixels per point with widths of 0.5, 6 and 60 points, then at scale 4 and width 200 with every numeric parameter at its maximum at once, pass every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            driver.fill(StandardStrokes.paper)
            for scale: Float in [0.5, 1, 2, 3, 4] {
                for width: Float in [0.5, 6, 60] {
                    driver.scale = scale
                    driver.strokeWidth = width
                    try driver.draw(StandardStrokes.withWildPredictions(.wave(count: 12, width: 96, height: 64), width: 96, height: 64))
                    for stroke in StandardStrokes.edges(width: 96, height: 64) { try driver.draw(stroke) }
                }
            }
            for p in driver.brush.parameters where p.kind != .color {
                do throws(BrushError) { try driver.brush.setParameter(p.id, value: p.maximum) } catch {
                    throw CheckFailure("set_value(\"\(p.id)\", \(p.maximum)) failed: \(error.description)")
                }
            }
            driver.scale = 4
            driver.strokeWidth = 200
            for stroke in StandardStrokes.edges(width: 96, height: 64) { try driver.draw(stroke) }
            return .pass
        },
        ConformanceTest("input.large-batches", tier: .strict, scope: .brush,
                        "Events of 1000 coalesced samples each, and 1000 predicted samples after every event, pass every canvas check (a host coalesces that many after a stall).") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            driver.fill(StandardStrokes.paper)
            let n = 3002
            var samples: [bristle_sample_t] = []
            for i in 0..<n {
                let a = Double(i) / Double(n) * 12 * .pi, r = 4 + 26 * Double(i) / Double(n)
                samples.append(TestStroke.sample(x: 48 + r * cos(a), y: 32 + r * sin(a), t: Double(i) / 1000,
                                                 pressure: Float(0.3 + 0.5 * Double(i % 100) / 100)))
            }
            var stroke = TestStroke(samples: samples, batches: [1000])
            stroke.predicted = stroke.events.map { event in
                let last = event[event.count - 1]
                return (1...1000).map { k in
                    var p = TestStroke.sample(x: last.x + Double(k % 40) - 20, y: last.y + Double(k % 30) - 15,
                                              t: last.t + Double(k) / 1e5)
                    p.flags |= BRISTLE_SAMPLE_PREDICTED
                    return p
                }
            }
            try driver.draw(stroke)
            return .pass
        },
        ConformanceTest("input.large-canvas", tier: .strict, scope: .brush,
                        "On a \(largeSide)x\(largeSide) canvas (rows exactly width * 4 bytes apart) and on \(largeSide)x2 and 2x\(largeSide) ones, strokes along the far edges, from the centre to the far corner and around it report every changed pixel (checked around the samples at every draw, and over the whole canvas after every stroke), stay premultiplied and inside the buffer.") { ctx throws(CheckFailure) in
            let side = largeSide
            let driver = try ctx.makeDriver(width: side, height: side, padding: 0, checks: [.padding, .dirtyRect, .premultiplied])
            driver.dirtyWindowMargin = 64
            for stroke in StandardStrokes.dense(width: side, height: side, step: 64) {
                try driver.draw(StandardStrokes.withNearPredictions(stroke))
            }
            for (w, h) in [(side, 2), (2, side)] {
                let thin = try ctx.makeDriver(width: w, height: h)
                thin.fill(StandardStrokes.paper)
                for stroke in StandardStrokes.edges(width: w, height: h) { try thin.draw(stroke) }
            }
            return .pass
        },
    ]
}
