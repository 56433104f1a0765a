/// What lies under the committed layer: a colour, or an image tiled from the top-left corner
/// (DrawingBoard used a pattern colour, which tiles). Brushes never see it; export puts it
/// under the drawing, so a true erase reveals it.
public enum Background {
    case color(RGBAColor)
    /// A canvas-sized premultiplied layer holding the (tiled) image.
    case image(Layer)

    /// Tiles premultiplied RGBA `pixels` (`imageWidth` x `imageHeight`, tightly packed) over a
    /// canvas of the given size. Returns nil when memory is short.
    public static func tiled(premultiplied pixels: [UInt8], imageWidth: Int, imageHeight: Int,
                             canvasWidth: Int, canvasHeight: Int) -> Background? {
        guard imageWidth > 0, imageHeight > 0, pixels.count >= imageWidth * imageHeight * 4,
              let layer = Layer(width: canvasWidth, height: canvasHeight) else { return nil }
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<canvasHeight {
                let sourceRow = source.baseAddress! + (y % imageHeight) * imageWidth * 4
                let row = layer.pixels + y * layer.strideBytes
                var x = 0
                while x < canvasWidth {
                    let n = min(imageWidth, canvasWidth - x)
                    (row + x * 4).update(from: sourceRow, count: n * 4)
                    x += n
                }
            }
        }
        return .image(layer)
    }
}
