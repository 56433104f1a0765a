/// What ``CoverageAccumulator`` reports, edge by edge and row by row, to a fill that needs
/// more than the summed areas (``OverlapCells``: which cells several pieces of one outline
/// share, and the exact geometry inside them). The accumulator is generic over it, so the
/// plain fill (``NoCellObserver``) specialises to the code without any observation.
///
/// Coordinates are the band's (pixel (0, 0) of the band is the square [0, 1] x [0, 1]), after
/// the accumulator's clipping: the geometry reported is exactly the one whose areas are
/// deposited, so cell membership is the same bit for bit in every pass.
protocol CellObserver {
    /// The observer of the edges this one declines (``edge(_:first:last:_:_:_:_:)`` returns
    /// false): their walk is reported to ``quiet`` instead.
    associatedtype Quiet: CellObserver
    /// Whether the walk deposits areas into the accumulator's cells (false: observe only).
    static var deposits: Bool { get }
    /// Edge `id` (numbered from 1, contour by contour, in the order the edges are added) of
    /// the contour whose edges are `first...last`, from (ax, ay) to (bx, by) in plane
    /// coordinates, is about to be added. Returns whether this observer sees its walk (false:
    /// ``quiet`` does; the path's edge loop, ``ContourPath/addEdges(to:observer:)``, chooses).
    mutating func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                       _ bx: Double, _ by: Double) -> Bool
    /// What sees the walk of the edges this observer declines.
    var quiet: Quiet { get set }
    /// One row's slice of the current edge, from (xa, ya) to (xb, yb) with
    /// `row <= ya < yb <= row + 1`; `dir` is +1 when the edge goes down, -1 up. It passes
    /// through cells `first...last` of the row (the cells whose area it changes other than by
    /// the carry to their right).
    mutating func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                        xb: Double, yb: Double, dir: Double)
    /// A horizontal edge at height `y` (band coordinates, not clipped), from x `xa` to `xb`
    /// in its own direction. It deposits no area but separates windings inside its cells.
    mutating func horizontal(xa: Double, xb: Double, y: Double)
}

/// The observer of the plain fill: observes nothing, so the generic walk compiles to the
/// accumulator's own.
struct NoCellObserver: CellObserver {
    static var deposits: Bool { true }
    @inline(__always) func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                                _ bx: Double, _ by: Double) -> Bool { true }
    typealias Quiet = NoCellObserver
    @inline(__always) func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                                 xb: Double, yb: Double, dir: Double) {}
    @inline(__always) func horizontal(xa: Double, xb: Double, y: Double) {}
}

/// An observer that declines no edge, or whose declined edges need nothing seen, has the
/// plain fill's observer as its ``CellObserver/quiet``.
extension CellObserver where Quiet == NoCellObserver {
    var quiet: NoCellObserver {
        get { NoCellObserver() }
        set {}  // nothing to keep
    }
}
