import CBristle

/// The shape services of ABI 1.1 on a canvas: rectangles, ellipses, polylines and soft dabs,
/// each filled or stroked with a ``StrokeStyle``, painted with a ``Paint`` or a ``Pattern``.
/// On a host without the service (a 1.0 host; see ``Services/provides(_:)``) they draw nothing
/// and return an empty rectangle. Every changed pixel is recorded as dirty.
extension Canvas {
    /// The rectangle with corners (x, y) and (x + width, y + height) (negative sizes are any
    /// drag direction), filled when `style` is nil, else its outline stroked, centred on the
    /// edges (dashes start at the top-left corner, clockwise) (`draw_rect`).
    @discardableResult
    public func drawRect(x: Double, y: Double, width: Double, height: Double, style: StrokeStyle? = nil,
                         paint: Paint, pattern: Pattern? = nil) -> Rect {
        shape(style, paint, pattern) { s, p, tile in
            services.call(\.draw_rect) { table, f in f(table, target, x, y, width, height, s, p, tile) }
        }
    }

    /// The axis-aligned ellipse centred at (x, y) with radii `radiusX`, `radiusY` >= 0, filled
    /// when `style` is nil, else stroked: every point within `style.width / 2` of it (dashes
    /// start at (x + radiusX, y), clockwise) (`draw_ellipse`).
    @discardableResult
    public func drawEllipse(x: Double, y: Double, radiusX: Double, radiusY: Double, style: StrokeStyle? = nil,
                            paint: Paint, pattern: Pattern? = nil) -> Rect {
        shape(style, paint, pattern) { s, p, tile in
            services.call(\.draw_ellipse) { table, f in f(table, target, x, y, radiusX, radiusY, s, p, tile) }
        }
    }

    /// The polyline through `points` stroked with `style` (caps, joins, dashes, `closed`), or
    /// the filled polygon (nonzero winding, 3 points or more) when `style` is nil
    /// (`draw_polyline`). No points, or more than `BRISTLE_MAX_POLYLINE_POINTS`, draw nothing.
    @discardableResult
    public func drawPolyline(_ points: [(x: Double, y: Double)], style: StrokeStyle? = nil,
                             paint: Paint, pattern: Pattern? = nil) -> Rect {
        Services.withPoints(points) { xy, count in
            shape(style, paint, pattern) { s, p, tile in
                services.call(\.draw_polyline) { table, f in f(table, target, xy, count, s, p, tile) }
            }
        }
    }

    /// A dab: the disc of `radius` centred at (x, y) with a radial falloff. `hardness` 1 (or
    /// NaN) is the hard disc of ``fillDisc(x:y:radius:paint:)``; below 1 the coverage falls off
    /// along a smoothstep to 0 at the rim (the profile is in `bristle.h`) (`draw_dab`).
    @discardableResult
    public func drawDab(x: Double, y: Double, radius: Double, hardness: Double, paint: Paint,
                        pattern: Pattern? = nil) -> Rect {
        shape(nil, paint, pattern) { _, p, tile in
            services.call(\.draw_dab) { table, f in f(table, target, x, y, radius, hardness, p, tile) }
        }
    }

    /// Calls a `draw_*` service with the C style, paint and pattern, and records what it changed.
    private func shape(_ style: StrokeStyle?, _ paint: Paint, _ pattern: Pattern?,
                       _ body: (UnsafePointer<bristle_stroke_style_t>?, UnsafePointer<bristle_paint_t>,
                                UnsafePointer<bristle_pattern_t>?) -> Rect) -> Rect {
        let p = paint.c
        return painted(StrokeStyle.withC(style) { s in
            Pattern.withC(pattern) { tile in withUnsafePointer(to: p) { body(s, $0, tile) } }
        })
    }
}
