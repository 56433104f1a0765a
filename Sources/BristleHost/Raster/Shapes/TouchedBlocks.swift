/// Which cells of each band row the exact fill (``ShapeScratch/fill(clip:sink:exact:)``)
/// wrote into ``CoverageAccumulator``, one bit per block of `1 << shift` consecutive cells, so
/// the row's resolution jumps over the blocks nothing wrote (they hold zeros: the
/// accumulator's invariant) instead of reading them: the empty stretches of a long thin
/// stroke's box, the inside of a dashed ellipse. (The plain fill marks nothing and reads its
/// rows whole, ``wholeRow``: on a solid ring's hole the marking cost what the skipping saved.)
///
/// A row's bits are only ever a superset of its written blocks (a set bit's block may hold
/// zeros; a clear bit's block holds only zeros). Invariant: outside a band's accumulation and
/// resolution every row's bits are zero (``take(row:)`` clears them as rows are resolved), so
/// ``begin(width:height:)`` clears nothing. Not thread-safe; owned by one ``ShapeScratch``.
final class TouchedBlocks {
    private var rows: UnsafeMutablePointer<UInt64>
    private var capacity = 0
    /// log2 of the cells per block: the smallest (at least 3) that fits a row's
    /// `width + 2` cells in 64 blocks.
    private(set) var shift = 3

    init() {
        rows = .allocate(capacity: 0)
    }

    deinit {
        rows.deallocate()
    }

    /// Starts a band of the accumulator's geometry (rows of `width + 2` cells).
    func begin(width: Int, height: Int) {
        if height > capacity {
            rows.deallocate()
            capacity = Swift.max(height, 2 * capacity)
            rows = .allocate(capacity: capacity)
            rows.initialize(repeating: 0, count: capacity)
        }
        var s = 3
        while (width + 1) >> s > 63 { s += 1 }
        shift = s
    }

    /// The bits and shift that make a row (of fewer than 2^32 cells) one written block: the
    /// resolution reads every cell.
    static let wholeRow = (bits: UInt64(1), shift: 32)

    /// The bits of band row `r` (bit `b`: cells `b << shift ..< (b + 1) << shift`).
    @inline(__always)
    func bits(row r: Int) -> UInt64 { rows[r] }

    /// The bits of band row `r`, cleared.
    @inline(__always)
    func take(row r: Int) -> UInt64 {
        let bits = rows[r]
        rows[r] = 0
        return bits
    }

    /// What pass 1 of the exact fill (``OverlapCells/Tracker``) marks the written blocks with.
    var marker: Marker { Marker(rows: rows, shift: shift) }

    /// The end of the run of zero cells of a row starting at `x` (`x <= end <= width`; `end`
    /// is the first non-zero cell or `width`), reading only the blocks `bits` marks and, past
    /// a marked block's end, at most the three cells after it (a clear bit's block holds zeros,
    /// so the first non-zero cell is the same), up to the cell after the row's `width + 2`:
    /// the next row's first, or past a band's last row the slack ``CoverageAccumulator``
    /// allocates for it.
    ///
    /// Four cells per test; the first non-zero one among four is found from the two 64-bit
    /// words (no loop cell by cell, whose exit was mispredicted about once per run end: the
    /// runs of zeros behind a stroke's walls are short and of varying length).
    @inline(__always)
    static func zeroRunEnd(_ cells: UnsafeMutablePointer<Float>, from x: Int, width w: Int,
                           bits: UInt64, shift: Int) -> Int {
        var end = x
        while end < w {
            let b = end &>> shift
            let ahead = bits &>> UInt64(truncatingIfNeeded: b)
            if ahead & 1 == 0 {
                // An unwritten block: on to the next written one.
                guard ahead != 0 else { return w }
                end = (b &+ ahead.trailingZeroBitCount) &<< shift
                continue
            }
            let blockEnd = Swift.min(w, (b &+ 1) &<< shift)
            // `end < w`: cells `end...end + 3` lie within the row's `w + 2` cells and the one
            // after them (the next row's first or the accumulator's slack).
            while end < blockEnd {
                let raw = UnsafeRawPointer(cells + end)
                let low = raw.loadUnaligned(as: UInt64.self)
                let high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                if low | high != 0 {
                    let first = low != 0 ? low.trailingZeroBitCount &>> 5 : 2 &+ high.trailingZeroBitCount &>> 5
                    return Swift.min(end &+ first, w)
                }
                end &+= 4
            }
        }
        return Swift.min(end, w)
    }

    /// The largest ``shift`` whose blocks the exact fill's resolve reads as bits of non-zero
    /// cells (``CoverageSpans/resolveOverBlocks(row:of:bits:shift:onto:paint:)``; 64 cells:
    /// bands up to 4,094 pixels wide, whose rows' `width + 2` = 4,096 cells fill the 64 blocks,
    /// as ``begin(width:height:)`` picks the shift).
    static let maskShift = 6

    /// Marks the blocks of the cells a row slice writes.
    struct Marker {
        let rows: UnsafeMutablePointer<UInt64>
        let shift: Int

        /// Sets band row `row`'s bits to `bits` (a caller that knows which blocks hold
        /// written cells).
        @inline(__always)
        func set(row: Int, _ bits: UInt64) {
            rows[row] = bits
        }

        /// Records that cells `first...last + 1` of band row `row` were written (an edge's
        /// slice through cells `first...last` also carries into the cell after them).
        @inline(__always)
        func mark(row: Int, first: Int, last: Int) {
            let a = UInt64(truncatingIfNeeded: first &>> shift)
            let b = UInt64(truncatingIfNeeded: (last &+ 1) &>> shift)
            // Bits a...b (b <= 63; 2 << 63 wraps to 0, and 0 - 1 is every bit).
            rows[row] |= ((2 &<< b) &- 1) & ~((1 &<< a) &- 1)
        }
    }
}
