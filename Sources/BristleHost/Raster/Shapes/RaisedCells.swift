/// The cells a mask call raised: the bounding box of every cell whose value rose while
/// ``CoverageSink`` max-combined coverage into a mask (``ShapeTarget/mask(_:raised:)``).
///
/// The mask services return it instead of the box of the shape's coverage, so a brush that
/// composites what a call returned redraws only what changed: a dense scribble over its own
/// stroke raises a sliver of its last piece's box (issue 15's marker zig-zag).
public final class RaisedCells {
    private var box = DirtyBox()

    public init() {}

    /// Every cell raised so far lies inside it; empty when none rose.
    public var rect: PixelRect { box.rect }

    /// `mask[i] = max(mask[i], cov[i])` for `count` cells of row `y` starting at column `x`,
    /// recording the cells that rose.
    @inline(__always)
    func maxRow(_ y: Int, _ x: Int, _ mask: UnsafeMutablePointer<UInt8>, _ cov: UnsafePointer<UInt8>,
                _ count: Int) {
        var lo = count, hi = 0
        for i in 0..<count {
            let m = cov[i]
            if m > mask[i] {
                mask[i] = m
                if lo == count { lo = i }
                hi = i + 1
            }
        }
        box.add(row: y, lo: x + lo, hi: x + hi)
    }

    /// `mask[i] = max(mask[i], m)` for `count` cells of row `y` starting at column `x`,
    /// recording the cells that rose. Cells already at `m` or above are skipped eight at a
    /// time when `m` is 255 (the inside of a shape drawn over itself).
    @inline(__always)
    func maxRun(_ y: Int, _ x: Int, _ mask: UnsafeMutablePointer<UInt8>, _ count: Int, _ m: UInt8) {
        var lo = 0, hi = count
        if m == 255 {
            let raw = UnsafeRawPointer(mask)
            while lo + 8 <= hi && raw.loadUnaligned(fromByteOffset: lo, as: UInt64.self) == .max { lo += 8 }
        }
        while lo < hi && mask[lo] >= m { lo += 1 }
        guard lo < hi else { return }
        if m == 255 {
            let raw = UnsafeRawPointer(mask)
            while hi - 8 > lo && raw.loadUnaligned(fromByteOffset: hi - 8, as: UInt64.self) == .max { hi -= 8 }
        }
        while mask[hi - 1] >= m { hi -= 1 }
        for i in lo..<hi where mask[i] < m { mask[i] = m }
        box.add(row: y, lo: x + lo, hi: x + hi)
    }
}
