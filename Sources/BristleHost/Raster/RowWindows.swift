/// The cell walk's observer that records, for each band row, the cells each chain of a polygon
/// deposits into: the slices of edges going down (`dir > 0`) and those going up. Every cell the
/// walk writes in row `r` lies in one of the two windows `[lo, hi]` (inclusive) kept for the row,
/// so every cell outside both is zero, and between two disjoint windows the prefix sum (hence
/// the coverage) is the value it has just after the left one. ``CoverageSpans`` resolves from
/// each row's lowest window cell to its highest, and stores a covered run between two windows far
/// apart at once (``CoverageSpans/resolveOver(rows:cells:cellStride:width:bounds:onto:pixelStride:colour:)``,
/// ``CoverageSpans/resolveMax(rows:cells:cellStride:width:bounds:into:maskStride:room:)``).
///
/// True for any polygon; it pays for a convex one (a capsule), where in every row the edges going
/// down form one side and those going up the other, so the windows are the row's two boundary
/// crossings and the covered middle between them is one constant run.
///
/// The record is four `Int`s per row at ``bounds`` + 4 * row: the down chain's lowest and highest
/// cell, then the up chain's; an empty window has its lowest at `Int.max` and highest at -1
/// (``reset(rows:)``).
struct RowWindows: CellObserver {
    static var deposits: Bool { true }
    typealias Quiet = NoCellObserver
    /// The record, four `Int`s per band row.
    let bounds: UnsafeMutablePointer<Int>

    /// Empties the windows of rows `0 ..< rows`.
    func reset(rows: Int) {
        var r = 0
        while r < rows {
            let p = bounds + 4 &* r
            p[0] = .max
            p[1] = -1
            p[2] = .max
            p[3] = -1
            r &+= 1
        }
    }

    @inline(__always) func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                                _ bx: Double, _ by: Double) -> Bool { true }

    /// A slice passing through cells `first...last` writes those and the carry cell `last + 1`.
    @inline(__always) func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                                 xb: Double, yb: Double, dir: Double) {
        // The chain's pair: `dir` is +1 or -1, whose two top bits are 00 and 10.
        let p = bounds + (4 &* row &+ Int(truncatingIfNeeded: dir.bitPattern >> 62))
        let end = last &+ 1
        p[0] = first < p[0] ? first : p[0]
        p[1] = end > p[1] ? end : p[1]
    }

    @inline(__always) func horizontal(xa: Double, xb: Double, y: Double) {}
}
