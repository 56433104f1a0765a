import BristleHost
import Glibc

/// The `robustness` group (strict): hostile but legal input — non-finite and huge
/// coordinates, pressure and tilt out of range, a 100 000-sample stroke, time going
/// backwards, seeded random strokes and batches — is clamped, never fatal, and drawn under
/// every canvas check; plus the time a brush takes per sample.
enum RobustnessTests {
    /// Above this average time per sample the time test warns.
    static let sampleWarnSeconds = 20e-6

    static let all: [ConformanceTest] = [
        ConformanceTest("robustness.extreme-coordinates", tier: .strict, scope: .brush,
                        "Strokes with NaN, +-Inf and +-1e9 coordinates among ordinary ones return BRISTLE_OK and pass every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            driver.fill(StandardStrokes.paper)
            let bad: [Double] = [.nan, .infinity, -.infinity, 1e9, -1e9]
            for (i, value) in bad.enumerated() {
                for variant in 0..<3 {
                    var points: [(Double, Double)] = [(20, 20), (30, 25), (40, 30), (50, 35)]
                    points[variant] = i % 2 == 0 ? (value, 30) : (30, value)
                    try driver.draw(TestStroke(points: points, batch: 2))
                }
                try driver.draw(TestStroke(points: [(value, value), (value, 10), (10, value)], batch: 1))
            }
            return .pass
        },
        ConformanceTest("robustness.pressure-extremes", tier: .strict, scope: .brush,
                        "Pressure 0, 1, -1, 2 and NaN, tilt and force out of range, and a stroke width of 1000 points return BRISTLE_OK and pass every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            driver.fill(StandardStrokes.paper)
            for pressure: Float in [0, 1, -1, 2, .nan, .infinity] {
                var stroke = TestStroke.wave(count: 12, width: 96, height: 64)
                stroke.applyPressure { _ in pressure }
                try driver.draw(stroke)
            }
            var samples: [bristle_sample_t] = []
            for i in 0..<12 {
                var s = TestStroke.sample(x: Double(8 + i * 6), y: 30, t: Double(i) / 100)
                s.flags |= BRISTLE_SAMPLE_HAS_TILT | BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_TWIST | BRISTLE_SAMPLE_HAS_CONTACT
                s.altitude = [-1, 0, 10, .nan][i % 4]
                s.azimuth = [-7, 100, .infinity, 0][i % 4]
                s.force = [1e30, -5, .nan, 0][i % 4]
                s.max_force = [0, 1, -1, .nan][i % 4]
                s.twist = 1e9
                s.width = -3
                s.height = .infinity
                samples.append(s)
            }
            try driver.draw(TestStroke(samples: samples, batches: [3]))
            driver.strokeWidth = 1000
            try driver.draw(.wave(count: 8, width: 96, height: 64))
            return .pass
        },
        ConformanceTest("robustness.long-stroke", tier: .strict, scope: .brush,
                        "One stroke of 100 000 samples in events of 8 returns BRISTLE_OK and passes every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(width: 64, height: 48)
            let n = max(1000, ctx.iterations(100_000))
            var samples: [bristle_sample_t] = []
            samples.reserveCapacity(n)
            for i in 0..<n {
                let a = Double(i) * 0.01
                samples.append(TestStroke.sample(x: 32 + 24 * cos(a) * (0.5 + 0.5 * sin(a * 0.013)),
                                                 y: 24 + 18 * sin(a), t: Double(i) / 1000,
                                                 pressure: Float(0.2 + 0.6 * (0.5 + 0.5 * sin(a * 0.7)))))
            }
            try driver.draw(TestStroke(samples: samples, batches: [8]))
            return TestOutcome(.pass, "\(n) samples")
        },
        ConformanceTest("robustness.time-backwards", tier: .strict, scope: .brush,
                        "A stroke whose timestamps go backwards (and repeat) returns BRISTLE_OK and passes every canvas check.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            var samples: [bristle_sample_t] = []
            for i in 0..<40 {
                samples.append(TestStroke.sample(x: Double(5 + i * 2), y: Double(10 + i), t: [1.0, 0.5, 0.5, -3, 1e9, .nan][i % 6]))
            }
            try driver.draw(TestStroke(samples: samples, batches: [1, 3, 2]))
            return .pass
        },
        ConformanceTest("robustness.random-strokes", tier: .strict, scope: .brush,
                        "Seeded random strokes (1 to 120 samples, random batches, repeated points, points off the canvas, predictions, cancels, ticks) pass every canvas check; --reproduce SEED replays them.") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver()
            driver.fill(StandardStrokes.paper)
            var rng = ctx.random("robustness.random-strokes")
            let wantsPredicted = driver.brush.descriptor.capabilities.contains(.wantsPredicted)
            for _ in 0..<ctx.iterations(40) {
                driver.strokeWidth = Float.random(in: 0.5...30, using: &rng)
                try driver.draw(StandardStrokes.random(&rng, width: 96, height: 64, predicted: wantsPredicted))
                if Int.random(in: 0..<4, using: &rng) == 0 { try driver.tick(frames: Int.random(in: 1...4, using: &rng)) }
            }
            return .pass
        },
        ConformanceTest("robustness.time-per-sample", tier: .strict, scope: .brush,
                        "Average time per sample over a 4000-sample stroke on a 512x512 canvas stays under \(Int(sampleWarnSeconds * 1e6)) us (warn only: machine-dependent).") { ctx throws(CheckFailure) in
            let driver = try ctx.makeDriver(width: 512, height: 512, checks: .none)
            let stroke = TestStroke.wave(count: 4000, width: 512, height: 512, batch: 4)
            let start = Clock.seconds()
            try driver.draw(stroke)
            let perSample = (Clock.seconds() - start) / 4000
            let us = (perSample * 1e6 * 100).rounded() / 100
            guard perSample <= sampleWarnSeconds else {
                return TestOutcome(.warn, "\(us) us per sample (harness included)")
            }
            return TestOutcome(.pass, "\(us) us per sample")
        },
    ]
}
