import BristleHost
import CBristle

/// `stroke_polyline_w10_opaque` / `_alpha50` and `dash_polyline_w4`: the workload stroke's
/// samples as ONE polyline, one `draw_polyline` call through the services table (WORKLOAD.md
/// section 2, secondary cases): width 10 with round caps and joins (stroke-level opacity, no
/// self-accumulation), or width 4 dashed `{16, 8}` from phase 0 with butt caps and round joins,
/// opaque. `--segments K` keeps the first K segments, as the peers do.
final class PolylineCase: BenchCase {
    /// Which polyline case.
    enum Kind: String, CaseIterable {
        case opaque = "stroke_polyline_w10_opaque"
        case alpha50 = "stroke_polyline_w10_alpha50"
        case dashed = "dash_polyline_w4"
    }

    let kind: Kind
    var name: String { kind.rawValue }
    let item = "segment"
    var items: Int { points.count / 2 - 1 }
    var extraFields: [(String, String)] { [("segments", String(items)), ("via", "\"services.draw_polyline\"")] }

    private let surface: ServicesTarget
    /// x0, y0, x1, y1, ...
    private let points: [Double]
    private var paint: bristle_paint_t
    private var style: bristle_stroke_style_t
    private let dashes: [Double] = [16, 8]

    init(_ kind: Kind, options: BenchOptions) throws(BenchError) {
        self.kind = kind
        surface = try ServicesTarget()
        points = (0...options.segments).flatMap { i -> [Double] in
            let s = BenchWorkload.sample(i)
            return [s.x, s.y]
        }
        let alpha = kind == .alpha50 ? BenchWorkload.halfAlpha : BenchWorkload.opaqueAlpha
        paint = ServicesTarget.paint(BenchWorkload.strokeColor(alpha: alpha))
        style = kind == .dashed
            ? ServicesTarget.style(width: 4, cap: BRISTLE_CAP_BUTT, join: BRISTLE_JOIN_ROUND)
            : ServicesTarget.style(width: 10, cap: BRISTLE_CAP_ROUND, join: BRISTLE_JOIN_ROUND)
    }

    func reset() throws(BenchError) { surface.canvas.resetToWhite() }

    func run(measured: Bool) throws(BenchError) {
        let services = surface.services
        let draw = services.pointee.draw_polyline!
        let count = UInt32(points.count / 2)
        dashes.withUnsafeBufferPointer { dashes in
            if kind == .dashed {
                style.dashes = dashes.baseAddress
                style.dash_count = UInt32(dashes.count)
            }
            points.withUnsafeBufferPointer { xy in
                _ = draw(services, &surface.target, xy.baseAddress!, count, &style, &paint, nil)
            }
            style.dashes = nil
            style.dash_count = 0
        }
    }

    func writePNG(to path: String) throws(BenchError) { try surface.canvas.writePNG(to: path) }
}
