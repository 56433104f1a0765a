import BristleHost
import CBristle

/// `ellipse_fill`, `ellipse_stroke`, `rect_fill`, `rect_stroke`: the workload's 1,000 random
/// SplitMix64 shapes (WORKLOAD.md section 3), each one `draw_ellipse` / `draw_rect` call through
/// the services table (the call a brush makes), SRC_OVER in its own straight colour, onto the
/// white 2048x1536 canvas, as the peers draw them. Strokes use the shape's width #9; rectangle
/// outlines have mitered corners (limit 10, cairo's default). `--segments K` below 1,000 keeps
/// the first K shapes (quick checks; the peers always draw all 1,000).
final class ShapesCase: BenchCase {
    /// Which of the four shape cases.
    enum Kind: String, CaseIterable {
        case ellipseFill = "ellipse_fill"
        case ellipseStroke = "ellipse_stroke"
        case rectFill = "rect_fill"
        case rectStroke = "rect_stroke"

        var isRectangle: Bool { self == .rectFill || self == .rectStroke }
        var isStroke: Bool { self == .ellipseStroke || self == .rectStroke }
        var seed: UInt64 {
            switch self {
            case .ellipseFill: BenchWorkload.ellipseFillSeed
            case .ellipseStroke: BenchWorkload.ellipseStrokeSeed
            case .rectFill: BenchWorkload.rectFillSeed
            case .rectStroke: BenchWorkload.rectStrokeSeed
            }
        }
    }

    let kind: Kind
    var name: String { kind.rawValue }
    let item = "shape"
    var items: Int { shapes.count }
    var extraFields: [(String, String)] { [("via", kind.isRectangle ? "\"services.draw_rect\"" : "\"services.draw_ellipse\"")] }

    private let surface: ServicesTarget
    private let shapes: [WorkloadShape]
    private let paints: [bristle_paint_t]
    private let styles: [bristle_stroke_style_t]

    init(_ kind: Kind, options: BenchOptions) throws(BenchError) {
        self.kind = kind
        surface = try ServicesTarget()
        shapes = Array(BenchWorkload.shapes(seed: kind.seed, rectangles: kind.isRectangle).prefix(options.segments))
        paints = shapes.map { ServicesTarget.paint($0.color) }
        styles = shapes.map {
            ServicesTarget.style(width: $0.strokeWidth, cap: BRISTLE_CAP_BUTT, join: BRISTLE_JOIN_MITER)
        }
    }

    func reset() throws(BenchError) { surface.canvas.resetToWhite() }

    func run(measured: Bool) throws(BenchError) {
        let services = surface.services
        // draw_rect and draw_ellipse take the same arguments: (x, y, w, h) or (cx, cy, rx, ry).
        let draw = kind.isRectangle ? services.pointee.draw_rect! : services.pointee.draw_ellipse!
        let stroke = kind.isStroke
        paints.withUnsafeBufferPointer { paints in
            styles.withUnsafeBufferPointer { styles in
                for (i, s) in shapes.enumerated() {
                    _ = draw(services, &surface.target, s.a, s.b, s.c, s.d,
                             stroke ? styles.baseAddress! + i : nil, paints.baseAddress! + i, nil)
                }
            }
        }
    }

    func writePNG(to path: String) throws(BenchError) { try surface.canvas.writePNG(to: path) }
}
