/// What lies under the committed layer: a colour, or an image tiled from the top-left corner
/// (DrawingBoard used a pattern colour, which tiles). Brushes never see it; export puts it
/// under the drawing, so a true erase reveals it.
public enum Background {
    case color(RGBAColor)
    /// A premultiplied image, tightly packed, tiled from the top-left corner. Only the image is
    /// kept: export composites each canvas row over the matching image row, so a small texture
    /// under a huge canvas costs the texture, not another canvas.
    case image(width: Int, height: Int, premultiplied: [UInt8])

    /// A background tiling premultiplied RGBA `pixels` (`imageWidth` x `imageHeight`, tightly
    /// packed), or nil when the size is empty or the buffer too short.
    public static func tiled(premultiplied pixels: [UInt8], imageWidth: Int, imageHeight: Int) -> Background? {
        guard imageWidth > 0, imageHeight > 0, pixels.count >= imageWidth * imageHeight * 4 else { return nil }
        return .image(width: imageWidth, height: imageHeight, premultiplied: pixels)
    }

    /// Composites `count` premultiplied pixels of canvas row `y` starting at column 0 (`source`)
    /// over the background into `destination` (premultiplied; may be `source`).
    func flatten(row y: Int, source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, count: Int) {
        switch self {
        case .color(let color):
            PixelConversion.flatten(premultiplied: UnsafeRawBufferPointer(start: source, count: count * 4),
                                    sourceStrideBytes: count * 4, over: color,
                                    into: UnsafeMutableRawBufferPointer(start: destination, count: count * 4),
                                    destinationStrideBytes: count * 4, width: count, height: 1)
        case .image(let width, let height, let pixels):
            pixels.withUnsafeBytes { image in
                let imageRow = UnsafeRawBufferPointer(rebasing: image[(y % height) * width * 4 ..< (y % height + 1) * width * 4])
                var x = 0
                while x < count {
                    let n = min(width, count - x)
                    PixelConversion.flatten(premultiplied: UnsafeRawBufferPointer(start: source + x * 4, count: n * 4),
                                            sourceStrideBytes: n * 4, overPremultiplied: imageRow,
                                            backgroundStrideBytes: width * 4,
                                            into: UnsafeMutableRawBufferPointer(start: destination + x * 4, count: n * 4),
                                            destinationStrideBytes: n * 4, width: n, height: 1)
                    x += n
                }
            }
        }
    }
}
