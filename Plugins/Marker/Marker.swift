import BristleKit
import Glibc

/// org.bristle.marker: a flat, chisel-tipped highlighter whose mark is wide or thin depending
/// on the nib's angle, composited once per stroke (overlaps never darken it).
///
/// The formula:
/// - the nib is a rectangle of length W = stroke width in pixels and thickness
///   T = max(1, W * thickness), centred on the sample; its long axis points at
///   phi = azimuth + pi/2 when the sample has tilt (the chisel's edge across the pen's lean),
///   else at phi = `angle` degrees (clockwise from +x, like every angle on the canvas);
/// - coverage accumulates with max in a canvas-sized mask: the first usable sample's nib, then
///   for each further usable sample the convex hull of its nib's and the previous nib's eight
///   corners, each rasterised by the brush with 4 x 4 subsamples per pixel (at
///   x + (i + 0.5) / 4, y + (j + 0.5) / 4): coverage = round(255 * inside / 16);
/// - after every event the mask is composited over the stroke's base (the pixels before the
///   stroke) in the stroke colour at `opacity`, so a highlighter stroke has one opacity.
struct Marker: Brush {
    static let descriptor = BrushDescriptor(
        id: "org.bristle.marker", name: "Marker", vendor: "Bristle", version: "1.0.0",
        description: "A chisel-tipped highlighter: its width follows the pen's azimuth; one opacity per stroke.",
        tags: ["marker", "highlighter", "tilt"], capabilities: [.continuous, .deterministic])

    static let opacity = Parameter.float("opacity", name: "Opacity", range: 0...1, default: 0.5,
                                         description: "Opacity of the whole stroke.")
    static let thickness = Parameter.float("thickness", name: "Nib thickness", range: 0.05...1, default: 0.2,
                                           description: "The nib's thickness as a fraction of its length.")
    static let angle = Parameter.float("angle", name: "Nib angle", range: 0...180, default: 45, unit: "deg",
                                       description: "The nib's angle when the pen reports no tilt.")
    static var parameters: [Parameter] { [opacity, thickness, angle] }

    /// The four corners of the nib at one sample.
    private typealias Nib = [(x: Double, y: Double)]

    /// Samples farther than this from the canvas are skipped (absurd input).
    private static let reach = 1_000_000.0

    private var stroke: Stroke?
    private var mask: CoverageMask?
    private var last: Nib?
    private var raised: Rect = .empty

    init(host: Host) {}

    mutating func begin(_ stroke: Stroke, at sample: Sample) throws(BrushFailure) {
        self.stroke = stroke
        if let mask, mask.width == stroke.canvasWidth, mask.height == stroke.canvasHeight {
            mask.clear()
        } else {
            mask = CoverageMask(width: stroke.canvasWidth, height: stroke.canvasHeight)
        }
        last = nil
        raised = .empty
        add(sample)
    }

    mutating func moved(_ samples: [Sample]) {
        for s in samples { add(s) }
    }

    mutating func ended(at sample: Sample) { add(sample) }

    mutating func cancelled() {
        mask?.clear()
        last = nil
        raised = .empty
    }

    /// The nib at `sample`, or nil when the sample is unusable.
    private func nib(_ sample: Sample) -> Nib? {
        guard let stroke, sample.isUsable, abs(sample.x) < Marker.reach, abs(sample.y) < Marker.reach else { return nil }
        let phi = sample.tilt.map { $0.azimuth + .pi / 2 } ?? stroke.parameters[Marker.angle] * .pi / 180
        let half = stroke.widthInPixels / 2
        let thick = max(1, stroke.widthInPixels * stroke.parameters[Marker.thickness]) / 2
        let ax = half * cos(phi), ay = half * sin(phi)  // along the nib
        let nx = -thick * sin(phi), ny = thick * cos(phi)  // across it
        return [(sample.x - ax - nx, sample.y - ay - ny), (sample.x + ax - nx, sample.y + ay - ny),
                (sample.x + ax + nx, sample.y + ay + ny), (sample.x - ax + nx, sample.y - ay + ny)]
    }

    /// Raises the mask to the nib at `sample` and the sweep from the previous nib.
    private mutating func add(_ sample: Sample) {
        guard let mask, let nib = nib(sample) else { return }
        raised = raised.union(fillHull((last ?? []) + nib, into: mask))
        last = nib
    }

    /// Raises `mask` to the 4 x 4-subsampled coverage of the convex hull of `points`; returns
    /// the rectangle it may have raised.
    ///
    /// On each subsample row the hull's inside subsamples form one run (the hull is convex), so
    /// the run's ends are found with the exact point-in-hull test and everything between is
    /// counted without testing: the same coverage as testing all 16 subsamples of every pixel.
    private func fillHull(_ points: [(x: Double, y: Double)], into mask: CoverageMask) -> Rect {
        let hull = ConvexHull.of(points)
        guard hull.count >= 3 else { return .empty }
        let area = Rect.covering(minX: hull.map(\.x).min() ?? 0, minY: hull.map(\.y).min() ?? 0,
                                 maxX: hull.map(\.x).max() ?? 0, maxY: hull.map(\.y).max() ?? 0,
                                 within: mask.width, mask.height)
        guard !area.isEmpty else { return .empty }
        let firstColumn = area.x * 4, lastColumn = (area.x + area.width) * 4 - 1
        var inside = [Int](repeating: 0, count: area.width)
        for py in area.y..<(area.y + area.height) {
            for i in inside.indices { inside[i] = 0 }
            for j in 0..<4 {
                let y = Double(py) + (Double(j) + 0.5) / 4
                guard let run = ConvexHull.run(hull, y: y, columns: firstColumn...lastColumn) else { continue }
                for column in run { inside[column / 4 - area.x] += 1 }
            }
            for (i, count) in inside.enumerated() where count > 0 {
                mask.raise(x: area.x + i, y: py, to: UInt8((255 * Double(count) / 16).rounded()))
            }
        }
        return area
    }

    mutating func draw(into canvas: Canvas) {
        guard canvas.layer == .committed, let stroke, let mask, !raised.isEmpty else { return }
        let paint = Paint(color: stroke.color, opacity: stroke.parameters[Marker.opacity])
        canvas.composite(mask, in: raised, paint: paint, overBase: true)
        raised = .empty
    }
}
