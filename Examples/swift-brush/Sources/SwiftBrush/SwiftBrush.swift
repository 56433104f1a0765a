import BristleKit

/// org.example.swift-brush: a round-capped line through the samples; the pen's pressure sets the width
/// (from a quarter of the stroke width at no pressure to all of it at full pressure).
struct SwiftBrush: Brush {
    static let descriptor = BrushDescriptor(
        id: "org.example.swift-brush", name: "Swift Brush", vendor: "Example", version: "1.0.0",
        description: "A round-capped line through the samples.")

    static let opacity = Parameter.float("opacity", name: "Opacity", range: 0...1, default: 1,
                                         description: "Opacity of each segment.")
    static var parameters: [Parameter] { [opacity] }

    /// A point of the line: position and width in pixels.
    private struct Point {
        var x, y, width: Double
    }

    private var stroke: Stroke?
    private var last: Point?
    private var pending: [Point] = []

    init(host: Host) {}

    mutating func begin(_ stroke: Stroke, at sample: Sample) {
        self.stroke = stroke
        last = nil
        pending = []
        add(sample)
    }

    mutating func moved(_ samples: [Sample]) {
        for sample in samples { add(sample) }
    }

    mutating func ended(at sample: Sample) { add(sample) }

    mutating func cancelled() { pending = [] }

    /// Keeps a usable sample for the next draw; bad input is skipped, never fatal.
    private mutating func add(_ sample: Sample) {
        guard let stroke, sample.isUsable else { return }
        let width = stroke.widthInPixels * (0.25 + 0.75 * (sample.pressure ?? 1))
        pending.append(Point(x: sample.x, y: sample.y, width: width))
    }

    mutating func draw(into canvas: Canvas) {
        guard canvas.layer == .committed, let stroke else { return }
        let paint = Paint(color: stroke.color, opacity: stroke.parameters[Self.opacity])
        for p in pending {
            let from = last ?? p  // the first point is a dot: a zero-length segment
            if let last, last.x == p.x, last.y == p.y { continue }
            canvas.fillSegment(from: (from.x, from.y), to: (p.x, p.y), startWidth: from.width, endWidth: p.width,
                               paint: paint)
            last = p
        }
        pending = []
    }
}
