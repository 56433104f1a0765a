/// Running bounding box of the rows a drawing call wrote (the rasteriser's and the shapes'
/// dirty rectangle).
struct DirtyBox {
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min

    @inline(__always)
    mutating func add(row y: Int, lo: Int, hi: Int) {
        guard lo < hi else { return }
        minX = Swift.min(minX, lo); maxX = Swift.max(maxX, hi)
        minY = Swift.min(minY, y); maxY = Swift.max(maxY, y + 1)
    }

    var rect: PixelRect {
        guard minX < maxX, minY < maxY else { return .empty }
        return PixelRect(x: Int32(minX), y: Int32(minY), width: Int32(maxX - minX),
                         height: Int32(maxY - minY))
    }
}
