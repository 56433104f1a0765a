import BristleKit
import Glibc

/// org.bristle.spray: an airbrush-like spray of single-pixel dots that writes pixels itself.
///
/// The formula (deterministic for a given seed and samples, whatever the event chunking):
/// - R = stroke width in pixels / 2 (at least 0.5); stamps are `spacing = max(1, R / 2)`
///   pixels apart along the polyline through the usable samples, the first at the first usable
///   sample; a stamp's position and pressure are interpolated linearly between samples;
/// - one SplitMix64 sequence per stroke, seeded with the stroke's seed (``SeededRandom``);
/// - a stamp throws `n = round(density * p)` dots, p = pressure when measured, else 1;
/// - a dot takes u = unit(), v = unit() and lands at (cx + R sqrt(u) cos 2 pi v,
///   cy + R sqrt(u) sin 2 pi v), uniform over the disc; the pixel (floor x, floor y) gets the
///   stroke colour source-over at coverage `opacity` (dots outside the canvas are dropped).
///
/// Dots are drawn into the committed layer after every event; there is nothing provisional.
struct Spray: Brush {
    static let descriptor = BrushDescriptor(
        id: "org.bristle.spray", name: "Spray", vendor: "Bristle", version: "1.0.0",
        description: "A seeded spray of single-pixel dots; pressure sets how many.",
        tags: ["spray", "airbrush", "pressure"], capabilities: [.continuous, .deterministic])

    static let density = Parameter.integer("density", name: "Density", range: 1...400, default: 40,
                                           description: "Dots per stamp at full pressure.")
    static let opacity = Parameter.float("opacity", name: "Opacity", range: 0...1, default: 1,
                                         description: "Opacity of each dot.")
    static var parameters: [Parameter] { [density, opacity] }

    /// A stamp: where dots are thrown, and the pressure there.
    private struct Stamp {
        var x, y, pressure: Double
    }

    /// The longest segment walked; a longer jump (absurd input) restarts the path without dots.
    private static let longestSegment = 100_000.0

    private var stroke: Stroke?
    private var random = SeededRandom(seed: 0)
    private var last: Stamp?
    private var untilNext = 0.0
    private var pending: [Stamp] = []

    init(host: Host) {}

    private var radius: Double { max((stroke?.widthInPixels ?? 1) / 2, 0.5) }
    private var spacing: Double { max(1, radius / 2) }

    mutating func begin(_ stroke: Stroke, at sample: Sample) {
        self.stroke = stroke
        random = SeededRandom(seed: stroke.seed)
        last = nil
        pending = []
        add(sample)
    }

    mutating func moved(_ samples: [Sample]) {
        for s in samples { add(s) }
    }

    mutating func ended(at sample: Sample) { add(sample) }

    mutating func cancelled() {
        pending = []
        last = nil
    }

    /// Walks from the last point to `sample`, leaving a stamp every `spacing` pixels.
    private mutating func add(_ sample: Sample) {
        guard sample.isUsable else { return }
        let p = sample.pressure ?? 1
        let here = Stamp(x: sample.x, y: sample.y, pressure: p)
        guard let from = last else {
            pending.append(here)
            last = here
            untilNext = spacing
            return
        }
        let length = hypot(here.x - from.x, here.y - from.y)
        last = here
        guard length > 0 else { return }
        guard length <= Spray.longestSegment else {
            untilNext = spacing
            return
        }
        var at = untilNext
        while at <= length {
            let t = at / length
            pending.append(Stamp(x: from.x + (here.x - from.x) * t, y: from.y + (here.y - from.y) * t,
                                 pressure: from.pressure + (here.pressure - from.pressure) * t))
            at += spacing
        }
        untilNext = at - length
    }

    mutating func draw(into canvas: Canvas) {
        guard canvas.layer == .committed, let stroke else { return }
        let r = radius
        let density = stroke.parameters[Spray.density]
        let opacity = stroke.parameters[Spray.opacity]
        for stamp in pending {
            let dots = Int((density * stamp.pressure).rounded())
            for _ in 0..<max(dots, 0) {
                let distance = r * random.unit().squareRoot()
                let angle = 2 * Double.pi * random.unit()
                let x = stamp.x + distance * cos(angle), y = stamp.y + distance * sin(angle)
                guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else { continue }
                canvas.blend(stroke.color, coverage: opacity, x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
            }
        }
        pending = []
    }
}
