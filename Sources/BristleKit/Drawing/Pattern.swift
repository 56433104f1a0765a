import CBristle

/// A texture source (`bristle_pattern_t`, ABI 1.1): a tile of premultiplied pixels owned by the
/// brush, repeated over the whole canvas. Canvas pixel (x, y) takes the tile pixel
/// ((x - offsetX) mod width, (y - offsetY) mod height), nearest pixel, no filtering.
///
/// Passed to a draw instead of the paint's colour: with `.sourceOver` the source is the tile
/// pixel, with `.erase` the tile's alpha says how much to erase; the paint's opacity still
/// applies. A pattern is always valid: its size is checked when it is made and its pixels
/// are kept premultiplied.
public struct Pattern: Sendable, Equatable {
    /// The largest tile side the ABI allows.
    public static let maximumSide = 65536

    /// Tile columns and rows, 1 ... ``maximumSide``.
    public let width: Int
    public let height: Int
    /// Canvas column where a tile's left edge lies.
    public var offsetX: Int
    /// Canvas row where a tile's top edge lies.
    public var offsetY: Int
    /// R, G, B, A bytes, row after row, no padding.
    private var bytes: [UInt8]

    /// A tile of `width` x `height` pixels, row after row; nil when a side is outside
    /// 1 ... ``maximumSide`` or `pixels` does not hold exactly width x height pixels. Colour
    /// components above alpha are lowered to it.
    public init?(width: Int, height: Int, pixels: [Pixel], offsetX: Int = 0, offsetY: Int = 0) {
        guard (1...Pattern.maximumSide).contains(width), (1...Pattern.maximumSide).contains(height),
              pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.offsetX = offsetX
        self.offsetY = offsetY
        bytes = []
        bytes.reserveCapacity(4 * pixels.count)
        for p in pixels {
            bytes.append(min(p.r, p.a))
            bytes.append(min(p.g, p.a))
            bytes.append(min(p.b, p.a))
            bytes.append(p.a)
        }
    }

    /// A tile whose pixel (x, y) is `pixel(x, y)`; nil when a side is outside
    /// 1 ... ``maximumSide``.
    public init?(width: Int, height: Int, offsetX: Int = 0, offsetY: Int = 0, pixel: (Int, Int) -> Pixel) {
        guard (1...Pattern.maximumSide).contains(width), (1...Pattern.maximumSide).contains(height) else { return nil }
        self.init(width: width, height: height,
                  pixels: (0..<height).flatMap { y in (0..<width).map { x in pixel(x, y) } },
                  offsetX: offsetX, offsetY: offsetY)
    }

    /// The tile pixel at (x, y); `.clear` outside the tile. Setting it outside does nothing;
    /// colour components above alpha are lowered to it.
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            guard x >= 0, x < width, y >= 0, y < height else { return .clear }
            let i = 4 * (y * width + x)
            return Pixel(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
        }
        set {
            guard x >= 0, x < width, y >= 0, y < height else { return }
            let i = 4 * (y * width + x), a = newValue.a
            bytes[i] = min(newValue.r, a)
            bytes[i + 1] = min(newValue.g, a)
            bytes[i + 2] = min(newValue.b, a)
            bytes[i + 3] = a
        }
    }

    /// Calls `body` with the C pattern (NULL for nil), valid during the call. The offsets are
    /// reduced modulo the tile's size, which tiles the same and always fits the C fields.
    static func withC<R>(_ pattern: Pattern?, _ body: (UnsafePointer<bristle_pattern_t>?) -> R) -> R {
        guard let pattern else { return body(nil) }
        return pattern.bytes.withUnsafeBufferPointer { pixels in
            var c = bristle_pattern_t()
            c.struct_size = UInt32(MemoryLayout<bristle_pattern_t>.size)
            c.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED
            c.pixels = pixels.baseAddress
            c.width = Int32(pattern.width)
            c.height = Int32(pattern.height)
            c.stride_bytes = Int32(pattern.width * 4)
            c.offset_x = Int32(modulo(pattern.offsetX, pattern.width))
            c.offset_y = Int32(modulo(pattern.offsetY, pattern.height))
            return withUnsafePointer(to: c) { body($0) }
        }
    }

    /// `value` mod `n` in [0, n) for n > 0.
    private static func modulo(_ value: Int, _ n: Int) -> Int {
        let r = value % n
        return r < 0 ? r + n : r
    }
}
