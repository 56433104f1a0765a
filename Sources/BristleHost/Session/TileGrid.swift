import Glibc

/// The canvas cut into square tiles, numbered row-major from the top-left. Tiles on the right
/// and bottom edges are clipped to the canvas, so every tile rectangle lies inside it.
struct TileGrid {
    let width: Int
    let height: Int
    let tileSize: Int
    /// `log2(tileSize)`: a pixel's tile column or row is a shift, not a division (the session
    /// marks the tiles of every event's rectangle).
    let tileShift: Int
    let columns: Int
    let rows: Int

    /// A grid of `tileSize`-pixel tiles; `tileSize` is a power of two.
    init(width: Int, height: Int, tileSize: Int) {
        precondition(tileSize > 0 && tileSize & (tileSize - 1) == 0, "tiles are a power of two wide")
        self.width = width
        self.height = height
        self.tileSize = tileSize
        tileShift = tileSize.trailingZeroBitCount
        columns = (width + tileSize - 1) / tileSize
        rows = (height + tileSize - 1) / tileSize
    }

    /// The number of tiles of the canvas.
    var tileCount: Int { columns * rows }

    /// The pixels of `tile`, clipped to the canvas.
    func rect(of tile: Int32) -> PixelRect {
        let column = Int(tile) % columns, row = Int(tile) / columns
        let x = column * tileSize, y = row * tileSize
        return PixelRect(x: Int32(x), y: Int32(y), width: Int32(min(tileSize, width - x)),
                         height: Int32(min(tileSize, height - y)))
    }

    /// The tiles that `rect` (clipped to the canvas) overlaps, row-major.
    func tiles(covering rect: PixelRect) -> [Int32] {
        var out: [Int32] = []
        forEachTile(covering: rect) { out.append($0) }
        return out
    }

    /// Calls `body` with each tile that `rect` (clipped to the canvas) overlaps, row-major,
    /// without building a list (the session marks the tiles of every event's rectangle).
    @inline(__always)
    func forEachTile(covering rect: PixelRect, _ body: (Int32) -> Void) {
        guard let s = span(covering: rect) else { return }
        forEachTile(in: s, body)
    }

    /// Calls `body` with every tile of a ``span(covering:)``, row by row.
    @inline(__always)
    func forEachTile(in s: (c0: Int, c1: Int, r0: Int, r1: Int), _ body: (Int32) -> Void) {
        for row in s.r0...s.r1 { for column in s.c0...s.c1 { body(Int32(row * columns + column)) } }
    }

    /// The first and last tile column (`c0...c1`) and row (`r0...r1`) that `rect` (clipped to
    /// the canvas) overlaps, or nil when it overlaps none.
    @inline(__always)
    func span(covering rect: PixelRect) -> (c0: Int, c1: Int, r0: Int, r1: Int)? {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)))
        guard !r.isEmpty else { return nil }
        return (Int(r.x) >> tileShift, Int(r.maxX - 1) >> tileShift, Int(r.y) >> tileShift,
                Int(r.maxY - 1) >> tileShift)
    }

    /// True when `tile` holds different bytes in the two layers (same size as the grid).
    func differs(_ tile: Int32, _ a: Layer, _ b: Layer) -> Bool {
        let r = rect(of: tile)
        let offset = Int(r.x) * 4, count = Int(r.width) * 4
        for y in Int(r.y)..<Int(r.maxY) {
            if memcmp(a.pixels + y * a.strideBytes + offset, b.pixels + y * b.strideBytes + offset, count) != 0 {
                return true
            }
        }
        return false
    }

    /// True when some pixel of `tile` in `layer` is not transparent black (all four bytes 0).
    func hasContent(_ tile: Int32, in layer: Layer) -> Bool {
        let r = rect(of: tile)
        let offset = Int(r.x) * 4, count = Int(r.width) * 4
        for y in Int(r.y)..<Int(r.maxY) {
            let row = UnsafeRawPointer(layer.pixels + y * layer.strideBytes + offset)
            // Pixels are 4-byte aligned (rows start on 64-byte boundaries); scan a pixel per load.
            for i in 0..<(count / 4) where row.load(fromByteOffset: i * 4, as: UInt32.self) != 0 { return true }
        }
        return false
    }
}
