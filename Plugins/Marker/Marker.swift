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
///   corners, each filled by the host's exact-area polygon fill (`mask_polyline` with no
///   style): coverage = the fraction of the pixel the hull covers;
/// - after every event the mask is composited over the stroke's base (the pixels before the
///   stroke) in the stroke colour at `opacity`, so a highlighter stroke has one opacity; only
///   inside the rectangle of cells the event's hulls raised (what `mask_polyline` returns), so
///   a scribble over its own ink recomposites the sliver it adds, not each hull's box.
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
    /// The host's drawing services: the hulls are filled with its polygon fill.
    private let services: Services

    init(host: Host) { services = host.services }

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

    /// Raises the mask to the nib at `sample` and the sweep from the previous nib: the convex
    /// hull of both nibs' corners, filled with exact-area coverage by the host.
    private mutating func add(_ sample: Sample) {
        guard let mask, let nib = nib(sample) else { return }
        let hull = ConvexHull.of((last ?? []) + nib)
        if hull.count >= 3 { raised = raised.union(mask.addPolyline(hull, using: services)) }
        last = nib
    }

    mutating func draw(into canvas: Canvas) {
        guard canvas.layer == .committed, let stroke, let mask, !raised.isEmpty else { return }
        let paint = Paint(color: stroke.color, opacity: stroke.parameters[Marker.opacity])
        canvas.composite(mask, in: raised, paint: paint, overBase: true)
        raised = .empty
    }
}
