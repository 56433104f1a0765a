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
    /// recording the cells that rose.
    @inline(__always)
    func maxRun(_ y: Int, _ x: Int, _ mask: UnsafeMutablePointer<UInt8>, _ count: Int, _ m: UInt8) {
        let r = Self.raise(mask, count, to: m)
        box.add(row: y, lo: x + r.lo, hi: x + r.hi)
    }

    /// Resolves band row `r` of `acc` (nonzero rule: the same coverage as
    /// ``CoverageSpans/resolve(row:of:rule:)``) straight into `mask` (the cell of band column 0,
    /// plane row `y`, plane column `x0`) with max, recording the cells that rose. A run of zero
    /// cells keeps the sum, hence the coverage, so it is raised as one run (zero cells are
    /// found four at a time, only in the blocks `bits` marks as in
    /// ``CoverageSpans/resolveRuns(row:of:bits:shift:minimumRun:_:)``, and mask cells already
    /// at 255 skipped eight at a time). Zeroes the row's cells as it reads them. Returns the
    /// band columns with non-zero coverage.
    func resolveMax(row r: Int, of acc: CoverageAccumulator, bits: UInt64, shift: Int,
                    into mask: UnsafeMutablePointer<UInt8>, y: Int, x0: Int) -> (lo: Int, hi: Int) {
        let w = acc.width
        let cells = acc.row(r)
        var sum: Float = 0
        var lo = w, hi = 0, raisedLo = w, raisedHi = 0
        var x = 0
        while x < w {
            sum += cells[x]
            cells[x] = 0
            let start = x
            x &+= 1
            if x < w && cells[x].bitPattern == 0 {
                x = TouchedBlocks.zeroRunEnd(cells, from: x, width: w, bits: bits, shift: shift)
            }
            let q = CoverageSpans.quantize(Swift.min(abs(sum), 1))
            guard q != 0 else { continue }
            if lo > start { lo = start }
            hi = x
            let raised = Self.raise(mask + start, x - start, to: q)
            if raised.lo < raised.hi {
                if raisedLo > start + raised.lo { raisedLo = start + raised.lo }
                raisedHi = start + raised.hi
            }
        }
        cells[w] = 0
        cells[w + 1] = 0
        box.add(row: y, lo: x0 + raisedLo, hi: x0 + raisedHi)
        return (lo, hi)
    }

    /// `mask[i] = max(mask[i], m)` for `count` cells; returns the cells that rose, `lo..<hi`
    /// (`lo >= hi` when none). Cells already at 255 are skipped eight at a time when `m` is 255
    /// (the inside of a shape drawn over itself).
    @inline(__always)
    private static func raise(_ mask: UnsafeMutablePointer<UInt8>, _ count: Int, to m: UInt8) -> (lo: Int, hi: Int) {
        var lo = 0, hi = count
        let raw = UnsafeRawPointer(mask)
        if m == 255 {
            while lo + 8 <= hi && raw.loadUnaligned(fromByteOffset: lo, as: UInt64.self) == .max { lo += 8 }
        }
        while lo < hi && mask[lo] >= m { lo += 1 }
        guard lo < hi else { return (count, 0) }
        if m == 255 {
            while hi - 8 > lo && raw.loadUnaligned(fromByteOffset: hi - 8, as: UInt64.self) == .max { hi -= 8 }
        }
        while mask[hi - 1] >= m { hi -= 1 }
        for i in lo..<hi where mask[i] < m { mask[i] = m }
        return (lo, hi)
    }
}
