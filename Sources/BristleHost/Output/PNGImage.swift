/// A decoded PNG: 8-bit RGBA with straight (not premultiplied) alpha, tightly packed
/// (`width * 4` bytes per row, no padding), top row first.
///
/// Layers inside Bristle are premultiplied; convert with ``PixelConversion`` when moving
/// pixels between a layer and a `PNGImage`.
public struct PNGImage: Equatable, Sendable {
    /// Width in pixels (at least 1 for an image read from a file).
    public var width: Int
    /// Height in pixels (at least 1 for an image read from a file).
    public var height: Int
    /// `width * height * 4` bytes: R, G, B, A of each pixel, rows top to bottom.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bytes per row (`width * 4`).
    public var strideBytes: Int { width * 4 }

    /// The straight-alpha components of the pixel at column `x`, row `y` (0 is the top row).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
