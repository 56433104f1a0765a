/// Caller-owned 8-bit coverage plane (A8): 0 = uncovered, 255 = fully covered.
///
/// Memory layout: `height` rows, top row first; row `y` starts at `base + y * strideBytes`,
/// one byte per pixel. `strideBytes` may exceed `width`; padding bytes are never touched.
///
/// The plane is a *view* (see ``RGBAPlane`` for the ownership and validity rules; here the
/// stride must be at least `width`).
///
/// Concurrent writes: a ``Rasterizer`` draw into a mask may read and store back, with their own
/// values, bytes of the rows it draws outside the rect it returns: those of its band (the
/// shape's bounds clipped to the plane) and up to 15 bytes right of the band within the same row
/// (never past the row's `width`, never into the padding), so threads must not draw into the
/// same rows of one mask at once, even into rects that do not overlap.
public struct MaskPlane {
    /// The first byte of the top row.
    public var base: UnsafeMutablePointer<UInt8>
    /// Pixels per row.
    public var width: Int
    /// Number of rows.
    public var height: Int
    /// Distance in bytes from the start of one row to the start of the next (`>= width`).
    public var strideBytes: Int

    public init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, strideBytes: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.strideBytes = strideBytes
    }

    /// True when the plane describes at least one pixel and its stride can hold a row.
    public var isValid: Bool {
        width > 0 && height > 0 && width <= Int(Int32.max) && height <= Int(Int32.max)
            && strideBytes >= width
    }

    /// `[0, width) x [0, height)`, or ``PixelRect/empty`` when the plane is invalid.
    public var bounds: PixelRect {
        isValid ? PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)) : .empty
    }

    /// The first byte of row `y` (no bounds check).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y &* strideBytes }

    /// Zeroes `rect` (clipped). Row parts that are zero already are only read, never written:
    /// a canvas-sized mask from `calloc` keeps its untouched pages unallocated when a brush
    /// clears the bounding box of a long thin stroke.
    func clear(_ rect: PixelRect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let x0 = Int(r.x), n = Int(r.width)
        for y in Int(r.y)..<Int(r.maxY) {
            let p = row(y) + x0
            var i = 0
            // Eight bytes per load while they are zero; the first non-zero byte clears the rest.
            while i + 8 <= n, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) == 0 { i += 8 }
            while i < n, p[i] == 0 { i += 1 }
            if i < n { (p + i).update(repeating: 0, count: n - i) }
        }
    }
}
