/// Draws the standard sheet (``StandardSheet``) through one brush, or two side by side with a
/// difference row, into one labelled straight-alpha RGBA8 image: `bristle sheet`.
///
/// Layout: a label column (``labelWidth`` px) left of each canvas naming its rows, and a
/// header (``headerHeight`` px) above each canvas naming its brush. The canvas areas are
/// exactly what `bristle render` makes of ``StandardSheet/script(brush:)`` (the labels are
/// never drawn over them). With a second brush, its canvas is to the right of the first (a
/// ``gap`` between), and below the first a difference canvas: pixels both brushes drew alike
/// faint, pixels that differ red (the stronger, the larger the difference), with the count of
/// differing pixels written under the second.
public enum SheetRenderer {
    public static let labelWidth = 100
    public static let headerHeight = 16
    public static let gap = 8

    /// A rendered sheet.
    public struct Image: Sendable {
        public var width: Int
        public var height: Int
        /// Straight-alpha RGBA8, tightly packed, top row first.
        public var pixels: [UInt8]
        /// Pixels that differ between the two brushes (0 without a second one).
        public var differingPixels: Int
    }

    /// The sheet through `brush` (and `compare`), rendered with `options` (its search path).
    public static func render(_ brush: StandardSheet.BrushChoice, compare: StandardSheet.BrushChoice? = nil,
                              options: RenderOptions = RenderOptions()) throws(RenderError) -> Image {
        let first = try canvas(brush, options: options)
        let w = StandardSheet.canvasWidth, h = StandardSheet.canvasHeight
        let panelHeight = headerHeight + h
        guard let compare else {
            var image = blank(width: labelWidth + w, height: panelHeight)
            place(first, label: brush.idOrPath, at: (labelWidth, 0), labels: true, into: &image)
            return image
        }
        let second = try canvas(compare, options: options)
        var image = blank(width: labelWidth + 2 * w + gap, height: 2 * panelHeight + gap)
        place(first, label: brush.idOrPath, at: (labelWidth, 0), labels: true, into: &image)
        place(second, label: compare.idOrPath, at: (labelWidth + w + gap, 0), labels: false, into: &image)
        var difference = [UInt8](repeating: 255, count: w * h * 4)
        for i in stride(from: 0, to: first.count, by: 4) {
            let d = (0..<4).map { abs(Int(first[i + $0]) - Int(second[i + $0])) }.max()!
            if d == 0 {
                for c in 0..<3 { difference[i + c] = UInt8(255 - (255 - Int(first[i + c])) / 5) }
            } else {
                image.differingPixels += 1
                let fade = UInt8(max(0, 200 - 3 * d))
                difference[i] = 230
                difference[i + 1] = fade
                difference[i + 2] = fade
            }
        }
        place(difference, label: "difference", at: (labelWidth, panelHeight + gap), labels: true, into: &image)
        BitmapFont.draw("\(image.differingPixels) PIXELS DIFFER", x: labelWidth + w + gap + 8, y: panelHeight + gap + headerHeight + 8,
                        color: (160, 20, 20), into: &image.pixels, width: image.width, height: image.height)
        return image
    }

    /// The sheet's canvas through `brush`, flattened over its white background.
    public static func canvas(_ brush: StandardSheet.BrushChoice, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let script: StrokeScript
        do {
            script = try StrokeScriptReader.parse(StandardSheet.script(brush: brush), sourcePath: "standard-sheet.json")
        } catch {
            throw .input(error)
        }
        return try ScriptRenderer(options: options).render(script).flattenedPixels(transparent: false)
    }

    private static func blank(width: Int, height: Int) -> Image {
        Image(width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * 4), differingPixels: 0)
    }

    /// Copies a canvas into `image` below a header naming it, with the row labels (and lines
    /// between rows) in the label column to its left when `labels`.
    private static func place(_ canvas: [UInt8], label: String, at origin: (x: Int, y: Int), labels: Bool, into image: inout Image) {
        let w = StandardSheet.canvasWidth, h = StandardSheet.canvasHeight
        let top = origin.y + headerHeight
        for y in 0..<h {
            let from = y * w * 4, to = ((top + y) * image.width + origin.x) * 4
            image.pixels.replaceSubrange(to..<(to + w * 4), with: canvas[from..<(from + w * 4)])
        }
        BitmapFont.draw(label, x: origin.x + 4, y: origin.y + 4, color: (40, 40, 40),
                        into: &image.pixels, width: image.width, height: image.height)
        guard labels else { return }
        for (row, text) in StandardSheet.rows.enumerated() {
            let rowTop = top + row * StandardSheet.rowHeight
            BitmapFont.draw(text, x: 4, y: rowTop + (StandardSheet.rowHeight - BitmapFont.glyphHeight) / 2,
                            color: (40, 40, 40), into: &image.pixels, width: image.width, height: image.height)
            for x in 0..<(labelWidth - 4) where row > 0 {
                let o = (rowTop * image.width + x) * 4
                for c in 0..<3 { image.pixels[o + c] = 200 }
            }
        }
    }
}
