/// How a recording says a stroke looks (an InkML `<brush>`): colour, opacity folded into the
/// colour's alpha, width in the recording's own units, and whether it is a highlighter. The
/// command line's `--color`, `--width` and `--brush` win over it.
struct InkLook: Equatable {
    var color: RGBAColor?
    /// In the recording's position units (scaled by the fit like positions).
    var width: Double?
    /// `rasterOp="maskPen"`: a highlighter, drawn with the marker brush.
    var highlighter = false

    /// The brush id a highlighter is drawn with.
    static let highlighterBrush = "org.bristle.marker"

    /// The look of `brush`, following `brushRef`s in `brushes` (at most 16 deep; the nearer
    /// brush's properties win). `millimetresPerUnit` is the size of one unit of X when it is a
    /// known length, so that a width in `cm`, `mm`, `in` or `himetric` is converted; a width
    /// without units is in X's units. Nil when the brush sets nothing used.
    init?(inkML brush: InkMLBrush, in brushes: [String: InkMLBrush], millimetresPerUnit: Double?) {
        var properties = brush.properties
        var next = brush.brushRef
        var depth = 0
        while let ref = next, let parent = brushes[ref], depth < 16 {
            properties.merge(parent.properties) { mine, _ in mine }
            next = parent.brushRef
            depth += 1
        }
        if let text = properties["color"]?.value { color = try? RGBAColor(parsing: text) }
        if let size = properties["width"] ?? properties["height"], let value = Double(size.value), value > 0, value.isFinite {
            if let mm = InkUnits.millimetresPerUnit(size.units), let perUnit = millimetresPerUnit {
                width = value * mm / perUnit
            } else {
                width = value
            }
        }
        highlighter = properties["rasterOp"]?.value.lowercased() == "maskpen"
        var opacity = highlighter ? 0.5 : 1.0
        if let text = properties["transparency"]?.value, let t = Double(text), t.isFinite {
            // 0 is opaque, 255 fully transparent (InkML 3.3).
            opacity = 1 - min(max(t, 0), 255) / 255
        }
        if opacity < 1 {
            var c = color ?? RGBAColor(red: 0, green: 0, blue: 0)
            c.alpha = Float(opacity) * c.alpha
            color = c
        }
        if color == nil && width == nil && !highlighter { return nil }
    }
}
