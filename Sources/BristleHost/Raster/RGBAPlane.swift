import CBristleMath

/// Caller-owned premultiplied RGBA8 pixels.
///
/// Memory layout: `height` rows, top row first; row `y` starts at `base + y * strideBytes`;
/// each pixel is four bytes in the order R, G, B, A, with colour channels premultiplied by
/// alpha (so every colour byte is `<=` the pixel's alpha byte). `strideBytes` may exceed
/// `width * 4`; the padding bytes after each row are never read or written.
///
/// The plane is a *view*: it does not own, retain or free the memory, and the caller must keep
/// the memory alive and not access it concurrently while a ``Rasterizer`` call uses the plane.
/// A plane whose `width` or `height` is not positive, or whose `strideBytes` is smaller than
/// `width * 4`, is *invalid*: its ``bounds`` are empty and every drawing call into it draws
/// nothing and returns ``PixelRect/empty``.
public struct RGBAPlane {
    /// The first byte of the top row.
    public var base: UnsafeMutablePointer<UInt8>
    /// Pixels per row.
    public var width: Int
    /// Number of rows.
    public var height: Int
    /// Distance in bytes from the start of one row to the start of the next (`>= width * 4`).
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
            && strideBytes >= width &* 4
    }

    /// `[0, width) x [0, height)`, or ``PixelRect/empty`` when the plane is invalid.
    public var bounds: PixelRect {
        isValid ? PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)) : .empty
    }

    /// The first byte of row `y` (no bounds check).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y &* strideBytes }

    /// Asks for every cache line of bytes `first...last` of row `y` with the intent to write
    /// them, without waiting (``CBristleMath_prefetchForWrite``): a loop calls it a few rows
    /// ahead of the row it blends. Prefetches never fault, so `y` may be past the last row.
    @inline(__always)
    func prefetchForWrite(row y: Int, from first: Int, through last: Int) {
        let start = row(y)
        var p = start + first
        let end = start + last
        while p <= end {
            CBristleMath_prefetchForWrite(p)
            p += 64
        }
        CBristleMath_prefetchForWrite(end)
    }
}
