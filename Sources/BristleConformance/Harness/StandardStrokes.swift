import BristleHost
import Glibc

/// The strokes the tests draw: an ordinary wave, strokes that hug and cross every edge of the
/// canvas, and seeded random ones.
public enum StandardStrokes {
    /// The opaque colour the tests paint the canvas with before drawing, so that a brush that
    /// erases changes pixels too.
    public static let paper: (UInt8, UInt8, UInt8, UInt8) = (200, 190, 180, 255)

    /// Strokes along the four edges, through the corners and out of the canvas.
    public static func edges(width: Int, height: Int) -> [TestStroke] {
        let w = Double(width), h = Double(height)
        return [
            TestStroke(points: [(0, 0), (w * 0.5, 0.2), (w - 0.5, 0), (w - 0.1, h * 0.5), (w, h)], batch: 2),
            TestStroke(points: [(w - 0.5, h - 0.5), (w * 0.5, h - 0.2), (0, h - 0.5), (0.3, h * 0.5), (0, 0)], batch: 2),
            TestStroke(points: [(-6, -6), (w * 0.5, h * 0.5), (w + 6, h + 6)], batch: 1),
            TestStroke(points: [(w + 6, -6), (-6, h + 6)], batch: 1),
            TestStroke(points: [(w * 0.5, h * 0.5)], batch: 1),
        ]
    }

    /// Strokes for large canvases, with a sample every `step` pixels so that each event covers
    /// a small area: along the last quarter of the right and bottom edges, from the centre to the
    /// far corner, and a loop in the far corner (coordinates past 2048 and 4095, where narrow
    /// integer types and fixed-size grids give out, while touching little memory).
    public static func dense(width: Int, height: Int, step: Double) -> [TestStroke] {
        let w = Double(width), h = Double(height)
        func line(_ from: (Double, Double), _ to: (Double, Double)) -> TestStroke {
            let n = max(2, Int((hypot(to.0 - from.0, to.1 - from.1) / step).rounded(.up)) + 1)
            return TestStroke(points: (0..<n).map { i in
                let f = Double(i) / Double(n - 1)
                return (from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f)
            }, batch: 8)
        }
        let loop = (0..<60).map { i -> (Double, Double) in
            let a = Double(i) / 60 * 2 * .pi
            return (w - 40 + 30 * cos(a), h - 40 + 30 * sin(a))
        }
        return [line((w - 0.5, h * 0.75), (w - 0.5, h)), line((w * 0.75, h - 0.5), (w, h - 0.5)),
                line((w / 2, h / 2), (w, h)), TestStroke(points: loop, batch: 3)]
    }

    /// Predicted samples for every event of `stroke`: three guesses close ahead of it.
    public static func withNearPredictions(_ stroke: TestStroke) -> TestStroke {
        var s = stroke
        s.predicted = stroke.events.map { event in
            let last = event[event.count - 1]
            return (1...3).map { k in
                var p = TestStroke.sample(x: last.x + Double(3 * k), y: last.y + Double(2 * k), t: last.t + 0.004 * Double(k))
                p.flags |= BRISTLE_SAMPLE_PREDICTED
                return p
            }
        }
        return s
    }

    /// A random stroke over (and a little beyond) a canvas: 1 to `maxSamples` samples with
    /// occasional repeated points, random batch sizes, and sometimes predicted samples.
    public static func random(_ rng: inout SeededRandom, width: Int, height: Int, maxSamples: Int = 120,
                              predicted: Bool) -> TestStroke {
        let n = Int.random(in: 1...maxSamples, using: &rng)
        var x = Double.random(in: -10...Double(width + 10), using: &rng)
        var y = Double.random(in: -10...Double(height + 10), using: &rng)
        var samples: [bristle_sample_t] = []
        for i in 0..<n {
            if i > 0, Int.random(in: 0..<8, using: &rng) != 0 {
                x += Double.random(in: -6...6, using: &rng)
                y += Double.random(in: -6...6, using: &rng)
            }
            var s = TestStroke.sample(x: x, y: y, t: Double(i) / 240, pressure: Float.random(in: 0...1, using: &rng))
            if Int.random(in: 0..<4, using: &rng) == 0 {
                s.flags |= BRISTLE_SAMPLE_HAS_TILT
                s.altitude = Float.random(in: 0...(Float.pi / 2), using: &rng)
                s.azimuth = Float.random(in: 0..<(2 * Float.pi), using: &rng)
            }
            samples.append(s)
        }
        let batches = (0..<8).map { _ in Int.random(in: 1...16, using: &rng) }
        var stroke = TestStroke(samples: samples, batches: batches)
        if predicted {
            stroke.predicted = stroke.events.map { event in
                let last = event[event.count - 1]
                var p = TestStroke.sample(x: last.x + Double.random(in: -20...20, using: &rng),
                                          y: last.y + Double.random(in: -20...20, using: &rng), t: last.t + 0.01)
                p.flags |= BRISTLE_SAMPLE_PREDICTED
                return [p]
            }
        }
        stroke.cancelAtEnd = Int.random(in: 0..<6, using: &rng) == 0
        return stroke
    }

    /// Predicted samples for every event of `stroke`: a wild guess far from the real path.
    public static func withWildPredictions(_ stroke: TestStroke, width: Int, height: Int) -> TestStroke {
        var s = stroke
        s.predicted = stroke.events.enumerated().map { i, event in
            let last = event[event.count - 1]
            let corner = [(2.0, 2.0), (Double(width) - 3, 2.0), (2.0, Double(height) - 3), (Double(width) - 3, Double(height) - 3)][i % 4]
            return (1...3).map { k in
                let f = Double(k) / 3
                var p = TestStroke.sample(x: last.x + (corner.0 - last.x) * f, y: last.y + (corner.1 - last.y) * f,
                                          t: last.t + 0.004 * Double(k))
                p.flags |= BRISTLE_SAMPLE_PREDICTED
                return p
            }
        }
        return s
    }
}
