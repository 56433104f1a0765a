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
    /// The coverage of `n` inside subsamples out of 16: `round(255 * n / 16)`.
    private static let levels = (0...16).map { UInt8((255 * Double($0) / 16).rounded()) }

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
    /// Per pixel row, the pixels inside all four runs are fully covered and raised as one run;
    /// only the pixels at the runs' ends are counted one by one, so the cost follows the hull's
    /// area and outline, not its bounding box (a wide nib at 45 degrees sweeps a thin band
    /// across a large box).
    private func fillHull(_ points: [(x: Double, y: Double)], into mask: CoverageMask) -> Rect {
        let hull = ConvexHull.of(points)
        guard hull.count >= 3 else { return .empty }
        let area = Rect.covering(minX: hull.map(\.x).min() ?? 0, minY: hull.map(\.y).min() ?? 0,
                                 maxX: hull.map(\.x).max() ?? 0, maxY: hull.map(\.y).max() ?? 0,
                                 within: mask.width, mask.height)
        guard !area.isEmpty else { return .empty }
        let firstColumn = area.x * 4, lastColumn = (area.x + area.width) * 4 - 1
        let edges = ConvexHull.edges(of: hull)
        var runs: [ClosedRange<Int>] = []
        runs.reserveCapacity(4)
        for py in area.y..<(area.y + area.height) {
            runs.removeAll(keepingCapacity: true)
            for j in 0..<4 {
                if let run = ConvexHull.run(edges, y: Double(py) + (Double(j) + 0.5) / 4, columns: firstColumn...lastColumn) {
                    runs.append(run)
                }
            }
            guard !runs.isEmpty else { continue }
            var lowest = Int.max, highest = Int.min, innerLow = Int.min, innerHigh = Int.max
            for run in runs {
                lowest = min(lowest, run.lowerBound)
                highest = max(highest, run.upperBound)
                innerLow = max(innerLow, run.lowerBound)
                innerHigh = min(innerHigh, run.upperBound)
            }
            // Pixels whose four subsample columns lie inside all four runs: 16 of 16, one run.
            var fullLow = highest / 4 + 1, fullHigh = fullLow
            if runs.count == 4 {
                fullLow = (innerLow + 3) / 4
                fullHigh = max(fullLow, (innerHigh + 1) / 4)
                mask.raise(y: py, columns: fullLow..<fullHigh, to: 255)
            }
            // The pixels at the runs' ends, counted one by one.
            func count(_ px: Int) {
                var n = 0
                for run in runs { n += max(0, min(run.upperBound, px * 4 + 3) - max(run.lowerBound, px * 4) + 1) }
                if n > 0 { mask.raise(x: px, y: py, to: Marker.levels[n]) }
            }
            for px in (lowest / 4)..<min(fullLow, highest / 4 + 1) { count(px) }
            for px in max(fullHigh, lowest / 4)..<(highest / 4 + 1) { count(px) }
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
