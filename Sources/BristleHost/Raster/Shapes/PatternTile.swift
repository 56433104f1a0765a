/// A texture source: caller-owned premultiplied RGBA8 pixels repeated over the whole plane.
///
/// Plane pixel `(x, y)` takes tile pixel `((x - offsetX) mod width, (y - offsetY) mod height)`
/// (mathematical modulo, nearest pixel, no filtering). A view like ``RGBAPlane``: the caller
/// keeps the memory alive for the duration of the drawing call. A tile whose size is not in
/// `1...65536` or whose stride is below `width * 4` is invalid and draws nothing.
public struct PatternTile {
    /// The first byte of the tile's top row.
    public var base: UnsafePointer<UInt8>
    /// Tile columns.
    public var width: Int
    /// Tile rows.
    public var height: Int
    /// Bytes from one tile row to the next (`>= width * 4`).
    public var strideBytes: Int
    /// Plane column where a tile's left edge lies.
    public var offsetX: Int
    /// Plane row where a tile's top edge lies.
    public var offsetY: Int

    public init(base: UnsafePointer<UInt8>, width: Int, height: Int, strideBytes: Int,
                offsetX: Int = 0, offsetY: Int = 0) {
        self.base = base
        self.width = width
        self.height = height
        self.strideBytes = strideBytes
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// True when the tile describes pixels the sampler may read.
    public var isValid: Bool {
        (1...65536).contains(width) && (1...65536).contains(height) && strideBytes >= width * 4
    }

    /// The tile column sampled by plane column `x`.
    @inline(__always)
    func column(_ x: Int) -> Int {
        let m = (x &- offsetX) % width
        return m < 0 ? m + width : m
    }

    /// The first byte of the tile row sampled by plane row `y`.
    @inline(__always)
    func row(_ y: Int) -> UnsafePointer<UInt8> {
        var m = (y &- offsetY) % height
        if m < 0 { m += height }
        return base + m * strideBytes
    }
}
