/// The exact nonzero fill of a stroke's outline: finds the pixels where the accumulator's
/// one-pass coverage is not exact and computes their exact area (``ExactCellArea``).
///
/// **Why few pixels need it.** With the nonzero rule, the clamped sum of signed areas a pixel
/// accumulates is exact unless the pixel holds both a region of winding 0 and one of winding
/// 2 or more. A pixel crossed by no edge has one winding. A pixel crossed only by a chain of
/// consecutive edges of one contour that turns by less than π in all has windings
/// `{w, w + 1}`: such a chain is monotone in some direction, hence simple, and its two ends
/// (outside the pixel) can be joined around it by a path that meets neither the chain nor the
/// pixel, which splits the outline into a simple closed curve through the pixel and a loop
/// that misses it. Every other pixel (crossed by another contour: a dash's seam, a second
/// dash; or by the same contour coming back: self-crossings, an inner join's swallowtail, a
/// chain turning round inside the pixel) may be wrong; those are the *trouble* cells.
///
/// **Pass 1** (``Tracker``, while the accumulator deposits the areas): edges are numbered
/// contour by contour, each with a bound on the turning summed from the start
/// (`|u - v|` of consecutive unit directions, at least the angle times 2/π); every cell keeps
/// a tag: the last edge that crossed it and where its chain began (or that it holds a
/// contour's last and first edges, which meet at a vertex). An edge that does not continue
/// the chain, or makes it turn by ``chainTurnLimit`` or more, makes the cell trouble. Every
/// cell also sums `sign(dy)` of the edges crossing its row's top line inside it, so the
/// winding just below any point of the top line is a running sum.
///
/// **Pass 2** (``Collector``, only when there is trouble): the edges whose rows hold trouble
/// are walked again by the same accumulator code without depositing, and each row slice is
/// clipped to the trouble cells it passes through; every trouble cell's area is then
/// computed exactly and replaces the accumulated coverage when the row is resolved (the
/// cover passed to the pixels on its right stays the accumulator's: those pixels are exact).
///
/// Storage is laid out like ``CoverageAccumulator``'s band (same stride) and never cleared:
/// edge ids keep growing from fill to fill (from ``idBase``), so a cell whose tag holds an
/// id below the current fill's base is empty, and its crossing count is stale. Not
/// thread-safe; owned by one ``ShapeScratch``.
final class OverlapCells {
    private var tags: UnsafeMutablePointer<UInt32>
    private var chainFirst: UnsafeMutablePointer<UInt32>
    private var crossings: UnsafeMutablePointer<Float>
    private var turning: UnsafeMutablePointer<Double>
    private var turningCapacity = 0
    private var capacity = 0
    private var width = 0, height = 0, stride = 2
    private var originX = 0, originY = 0.0
    /// Largest bound on a chain's turning (summed |u - v| of its unit directions, 2 being π)
    /// for the cells it alone crosses to be exact without pass 2 (below π the chain is
    /// monotone in some direction: see the type's documentation).
    static let chainTurnLimit = 1.9
    /// Cell indices of the trouble cells, ascending after pass 1.
    private var trouble: [Int] = []
    /// `troubleRows[r]`: trouble cells in rows before `r` (`height + 1` entries).
    private var troubleRows: [Int32] = []
    private var pieces: [ExactCellArea.Piece] = []
    private var pieceCell: [Int32] = []
    private var edgeCrossings: [ExactCellArea.Crossing] = []
    private var crossingCell: [Int32] = []
    /// Exact area of each trouble cell (index as in ``trouble``) after pass 2.
    private(set) var areas: [Double] = []
    private var scratch = ExactCellArea.Scratch()
    private var cursor = 0
    /// Per band row, the first and last column pass 1 wrote (`Int32.max` / -1 when none).
    /// The first edge id of the current band: tags with smaller ids are from earlier bands.
    private var idBase: UInt32 = 1
    /// The first edge id of the next band.
    private var nextIdBase: UInt32 = 1
    /// Trouble cell `i`'s tag holds id `troubleBase + i` (past every edge id of the band).
    private var troubleBase: UInt32 = 1
    /// Ids stay below this (30 bits in a tag); nearer, the storage is cleared and ids restart.
    private static let idLimit: UInt32 = 1 << 30

    init() {
        tags = .allocate(capacity: 0)
        chainFirst = .allocate(capacity: 0)
        crossings = .allocate(capacity: 0)
        turning = .allocate(capacity: 0)
    }

    deinit {
        tags.deallocate()
        chainFirst.deallocate()
        crossings.deallocate()
        turning.deallocate()
    }

    /// Number of trouble cells of the current band (after ``endPass1(_:)``).
    var troubleCount: Int { trouble.count }

    /// The pixels (plane coordinates) of the current band's trouble cells, in the order of
    /// ``areas``.
    var troubleCells: [(x: Int, y: Int)] {
        trouble.map { (originX + $0 % stride, Int(originY) + $0 / stride) }
    }

    /// Starts a band of the accumulator's geometry (pixel (originX, originY) its top left).
    func begin(originX: Int, originY: Int, width: Int, height: Int) {
        let needed = (width + 2) * height
        if needed > capacity {
            tags.deallocate()
            chainFirst.deallocate()
            crossings.deallocate()
            capacity = Swift.max(needed, 2 * capacity)
            tags = .allocate(capacity: capacity)
            tags.initialize(repeating: 0, count: capacity)
            chainFirst = .allocate(capacity: capacity)
            chainFirst.initialize(repeating: 0, count: capacity)
            crossings = .allocate(capacity: capacity)
            crossings.initialize(repeating: 0, count: capacity)
        }
        self.width = width
        self.height = height
        stride = width + 2
        self.originX = originX
        self.originY = Double(originY)
        trouble.removeAll(keepingCapacity: true)
        cursor = 0
    }

    /// Pass 1's observer (see the type's documentation) for a path of at most `edges` edges.
    func tracker(edges: Int) -> Tracker {
        if edges + 1 > turningCapacity {
            turning.deallocate()
            turningCapacity = Swift.max(edges + 1, 2 * turningCapacity)
            turning = .allocate(capacity: turningCapacity)
            turning.initialize(repeating: 0, count: turningCapacity)
        }
        idBase = nextIdBase
        if Int(idBase) + edges + capacity + 2 >= Int(Self.idLimit) {
            tags.update(repeating: 0, count: capacity)
            idBase = 1
        }
        var t = Tracker(tags: tags, crossings: crossings, chainFirst: chainFirst, turning: turning,
                        idBase: idBase, stride: stride, width: Double(width), height: Double(height),
                        trouble: [])
        swap(&t.trouble, &trouble)
        return t
    }

    /// Ends pass 1: sorts the trouble cells and numbers them in their tags.
    func endPass1(_ t: inout Tracker) {
        swap(&trouble, &t.trouble)
        troubleBase = t.nextId
        nextIdBase = troubleBase &+ UInt32(trouble.count) &+ 1
        guard !trouble.isEmpty else { return }
        trouble.sort()
        troubleRows.removeAll(keepingCapacity: true)
        troubleRows.append(contentsOf: repeatElement(0, count: height + 1))
        for (i, k) in trouble.enumerated() {
            tags[k] = (troubleBase &+ UInt32(truncatingIfNeeded: i)) << 2 | 3
            troubleRows[k / stride + 1] += 1
        }
        for r in 0..<height { troubleRows[r + 1] += troubleRows[r] }
        pieces.removeAll(keepingCapacity: true)
        pieceCell.removeAll(keepingCapacity: true)
        edgeCrossings.removeAll(keepingCapacity: true)
        crossingCell.removeAll(keepingCapacity: true)
    }

    /// Pass 2's observer (call only when ``troubleCount`` > 0).
    func collector() -> Collector {
        var c = Collector(cells: self)
        swap(&c.pieces, &pieces)
        swap(&c.pieceCell, &pieceCell)
        swap(&c.crossings, &edgeCrossings)
        swap(&c.crossingCell, &crossingCell)
        return c
    }

    /// Ends pass 2: computes every trouble cell's exact area.
    func endPass2(_ c: inout Collector) {
        swap(&c.pieces, &pieces)
        swap(&c.pieceCell, &pieceCell)
        swap(&c.crossings, &edgeCrossings)
        swap(&c.crossingCell, &crossingCell)
        // Group the pieces and crossings by cell (stable, by counting).
        let n = trouble.count
        func grouped<T>(_ items: [T], _ cell: [Int32]) -> (items: [T], start: [Int]) {
            var start = [Int](repeating: 0, count: n + 1)
            for c in cell { start[Int(c) + 1] += 1 }
            for i in 0..<n { start[i + 1] += start[i] }
            var next = start
            var out = items
            for (i, c) in cell.enumerated() {
                out[next[Int(c)]] = items[i]
                next[Int(c)] += 1
            }
            return (out, start)
        }
        let (ps, pStart) = grouped(pieces, pieceCell)
        let (cs, cStart) = grouped(edgeCrossings, crossingCell)
        areas.removeAll(keepingCapacity: true)
        let bandBase = c.idBase
        var row = -1
        var column = 0
        var winding: Float = 0
        ps.withUnsafeBufferPointer { pp in
            cs.withUnsafeBufferPointer { cp in
                for (i, k) in trouble.enumerated() {
                    let r = k / stride, c = k % stride
                    if r != row {
                        row = r
                        column = 0
                        winding = 0
                    }
                    let base = r * stride
                    while column < c {
                        if tags[base + column] >> 2 >= bandBase { winding += crossings[base + column] }
                        column += 1
                    }
                    let p = UnsafeBufferPointer(rebasing: pp[pStart[i]..<pStart[i + 1]])
                    let x = UnsafeBufferPointer(rebasing: cp[cStart[i]..<cStart[i + 1]])
                    areas.append(ExactCellArea.area(column: Double(c), row: Double(r),
                                                    winding: Int32(winding), crossings: x,
                                                    pieces: p, scratch: &scratch))
                }
            }
        }
    }

    /// Whether band row `r` holds trouble cells (after pass 1).
    func hasTrouble(row r: Int) -> Bool {
        !trouble.isEmpty && troubleRows[r + 1] > troubleRows[r]
    }

    /// Hands on the run `lo..<hi` of band row `r` that ``CoverageSpans/resolveRuns(row:of:minimumRun:_:)``
    /// emitted (`m == 0`: coverages in `coverage`; `m > 0`: all `m`) to `out` with the same
    /// meaning, the row's trouble cells inside it replaced by their exact area quantised
    /// like ``CoverageSpans`` (a constant run is split around them). Runs must come in order,
    /// left to right and row by row. Trouble cells the resolver skipped (zero coverage) stay
    /// zero: the outline's contours are all wound one way, so a pixel's exact area is at most
    /// the magnitude of its accumulated one.
    @inline(__always)
    func emit(row r: Int, _ lo: Int, _ hi: Int, _ m: UInt8, coverage: UnsafeMutablePointer<UInt8>,
              _ out: (Int, Int, UInt8) -> Void) {
        let base = r * stride, n = trouble.count
        while cursor < n && trouble[cursor] < base + lo { cursor += 1 }
        if m == 0 {
            while cursor < n && trouble[cursor] < base + hi {
                coverage[trouble[cursor] - base] = quantizedArea(cursor)
                cursor += 1
            }
            out(lo, hi, 0)
            return
        }
        var start = lo
        while cursor < n && trouble[cursor] < base + hi {
            let c = trouble[cursor] - base
            if c > start { out(start, c, m) }
            coverage[c] = quantizedArea(cursor)
            out(c, c + 1, 0)
            start = c + 1
            cursor += 1
        }
        if hi > start { out(start, hi, m) }
    }

    @inline(__always)
    private func quantizedArea(_ i: Int) -> UInt8 {
        CoverageSpans.quantize(Float(Swift.min(areas[i], 1)))
    }

    /// Pass 1's observer: tags the cells every edge crosses and sums the top-line crossings.
    struct Tracker: CellObserver {
        let tags: UnsafeMutablePointer<UInt32>
        let crossings: UnsafeMutablePointer<Float>
        let stride: Int
        let width: Double, height: Double
        let chainFirst: UnsafeMutablePointer<UInt32>
        /// Per edge id, the bound on the turning summed from the path's start.
        let turning: UnsafeMutablePointer<Double>
        var trouble: [Int]
        /// Edge ids of this band are `idBase + ` the path's numbering.
        let idBase: UInt32
        /// The id after the band's last edge.
        var nextId: UInt32 { idBase &+ UInt32(edgeCount) }
        private var edgeCount = 0
        private var id: UInt32 = 0, first: UInt32 = 0, last: UInt32 = 0
        private var previousX = 0.0, previousY = 0.0, previousLength = 0.0
        private var total = 0.0, here = 0.0

        init(tags: UnsafeMutablePointer<UInt32>, crossings: UnsafeMutablePointer<Float>,
             chainFirst: UnsafeMutablePointer<UInt32>, turning: UnsafeMutablePointer<Double>, idBase: UInt32,
             stride: Int, width: Double, height: Double, trouble: [Int]) {
            self.idBase = idBase
            self.tags = tags
            self.chainFirst = chainFirst
            self.turning = turning
            self.crossings = crossings
            self.stride = stride
            self.width = width
            self.height = height
            self.trouble = trouble
        }

        static var deposits: Bool { true }

        @inline(__always) func wants(minY: Double, maxY: Double) -> Bool { true }

        @inline(__always)
        mutating func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                           _ bx: Double, _ by: Double) {
            self.id = idBase &+ id
            self.first = idBase &+ first
            self.last = idBase &+ last
            edgeCount = Int(id) + 1
            // Turning from the previous edge, bounded by |u - v| (the angle between unit
            // vectors is at most π/2 |u - v|); a contour's first edge and a zero-length edge
            // break every chain (4 is past the limit).
            let dx = bx - ax, dy = by - ay
            let l = (dx * dx + dy * dy).squareRoot()
            var turn = 4.0
            if l > 0 {
                let ux = dx / l, uy = dy / l
                if id != first && previousLength > 0 {
                    let ex = ux - previousX, ey = uy - previousY
                    turn = (ex * ex + ey * ey).squareRoot()
                }
                previousX = ux
                previousY = uy
            }
            previousLength = l
            total += turn
            turning[Int(id)] = total
            here = total
        }

        /// Records that the current edge crosses cell `k`. Tag: edge id << 2 | state, state 1
        /// (a chain of consecutive edges starting at `chainFirst[k]`, turning by less than
        /// `chainTurnLimit` in all), 2 (a contour's last and first edges), 3 (trouble).
        @inline(__always)
        private mutating func touch(_ k: Int) {
            let t = tags[k]
            let state = t & 3, previous = t >> 2
            if previous < idBase || state == 0 {
                if previous < idBase { crossings[k] = 0 }  // stale: no crossing yet
                tags[k] = id << 2 | 1
                chainFirst[k] = id
                return
            }
            if state == 3 || previous == id { return }
            if state == 1 {
                if id == previous &+ 1
                    && here - turning[Int(chainFirst[k] &- idBase)] < OverlapCells.chainTurnLimit {
                    tags[k] = id << 2 | 1
                    return
                }
                if previous == first && id == last && chainFirst[k] == previous {
                    tags[k] = id << 2 | 2
                    return
                }
            }
            tags[k] = id << 2 | 3
            trouble.append(k)
        }

        @inline(__always)
        mutating func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                            xb: Double, yb: Double, dir: Double) {
            let base = row &* stride
            if ya == Double(row) {
                // A stale cell gets a fresh tag with state 0 (crossed at the top only).
                let k = base &+ CoverageAccumulator.floor(xa)
                if tags[k] >> 2 < idBase {
                    tags[k] = id << 2
                    crossings[k] = Float(dir)
                } else {
                    crossings[k] += Float(dir)
                }
            }
            var k = base &+ first
            let end = base &+ last
            while k <= end {
                touch(k)
                k &+= 1
            }
        }

        @inline(__always)
        mutating func horizontal(xa: Double, xb: Double, y: Double) {
            guard let (row, lo, hi) = OverlapCells.horizontalCells(xa, xb, y, width, height) else { return }
            for c in lo...hi { touch(row &* stride &+ c) }
        }
    }

    /// The row and cells `lo...hi` a horizontal edge at `y` from `xa` to `xb` (band
    /// coordinates) separates, clipped to the band; nil when none (outside, or on a row line).
    @inline(__always)
    static func horizontalCells(_ xa: Double, _ xb: Double, _ y: Double, _ width: Double,
                                _ height: Double) -> (Int, Int, Int)? {
        guard y > 0 && y < height else { return nil }
        let row = CoverageAccumulator.floor(y)
        guard Double(row) != y else { return nil }
        let xl = Swift.max(Swift.min(xa, xb), 0), xr = Swift.min(Swift.max(xa, xb), width)
        guard xl < xr else { return nil }
        return (row, CoverageAccumulator.floor(xl), CoverageAccumulator.ceiling(xr) - 1)
    }

    /// Pass 2's observer: walks only edges over trouble rows, deposits nothing, and keeps
    /// every piece and top-line crossing inside a trouble cell.
    struct Collector: CellObserver {
        let tags: UnsafeMutablePointer<UInt32>
        /// The band's first edge id and its trouble cells' first tag id.
        let idBase: UInt32, troubleBase: UInt32
        let troubleRows: [Int32]
        let stride: Int
        let width: Double, height: Double
        let originY: Double
        var pieces: [ExactCellArea.Piece]
        var pieceCell: [Int32]
        var crossings: [ExactCellArea.Crossing]
        var crossingCell: [Int32]

        init(cells o: OverlapCells) {
            tags = o.tags
            idBase = o.idBase
            troubleBase = o.troubleBase
            troubleRows = o.troubleRows
            stride = o.stride
            width = Double(o.width)
            height = Double(o.height)
            originY = o.originY
            pieces = []
            pieceCell = []
            crossings = []
            crossingCell = []
        }

        static var deposits: Bool { false }

        func wants(minY: Double, maxY: Double) -> Bool {
            let lo = Swift.max(minY - originY, 0), hi = Swift.min(maxY - originY, height)
            guard lo <= hi else { return false }
            let r0 = CoverageAccumulator.floor(lo)
            let r1 = Swift.min(Swift.max(CoverageAccumulator.ceiling(hi), r0 + 1), Int(height))
            return troubleRows[r1] > troubleRows[r0]
        }

        func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                  _ bx: Double, _ by: Double) {}

        /// The trouble index of cell `k`, or -1.
        @inline(__always)
        private func troubleIndex(_ k: Int) -> Int32 {
            let t = tags[k]
            return t & 3 == 3 && t >> 2 >= troubleBase ? Int32(truncatingIfNeeded: (t >> 2) &- troubleBase) : -1
        }

        mutating func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                            xb: Double, yb: Double, dir: Double) {
            guard troubleRows[row + 1] > troubleRows[row] else { return }
            let base = row * stride
            if ya == Double(row) {
                let t = troubleIndex(base + CoverageAccumulator.floor(xa))
                if t >= 0 {
                    crossings.append(.init(x: xa, dir: dir > 0 ? 1 : -1))
                    crossingCell.append(t)
                }
            }
            // Left to right: (x0, y0) the left end.
            let (x0, y0, x1, y1) = xa <= xb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
            let rising = xa <= xb ? dir : -dir  // sign of dx in the edge's own direction
            let delta: Int32 = x0 == x1 ? 0 : (rising > 0 ? -1 : 1)
            for c in first...last {
                let t = troubleIndex(base + c)
                guard t >= 0 else { continue }
                let cl = Double(c), cr = cl + 1
                var p = ExactCellArea.Piece(x0: x0, y0: y0, x1: x1, y1: y1, delta: delta)
                if x0 < x1 {
                    if x0 < cl { p.x0 = cl; p.y0 = y0 + (cl - x0) * (y1 - y0) / (x1 - x0) }
                    if x1 > cr { p.x1 = cr; p.y1 = y0 + (cr - x0) * (y1 - y0) / (x1 - x0) }
                }
                pieces.append(p)
                pieceCell.append(t)
            }
        }

        mutating func horizontal(xa: Double, xb: Double, y: Double) {
            guard let (row, lo, hi) = OverlapCells.horizontalCells(xa, xb, y, width, height),
                  troubleRows[row + 1] > troubleRows[row] else { return }
            let xl = Swift.max(Swift.min(xa, xb), 0), xr = Swift.min(Swift.max(xa, xb), width)
            let delta: Int32 = xb > xa ? -1 : 1
            for c in lo...hi {
                let t = troubleIndex(row * stride + c)
                guard t >= 0 else { continue }
                pieces.append(.init(x0: Swift.max(xl, Double(c)), y0: y, x1: Swift.min(xr, Double(c + 1)),
                                    y1: y, delta: delta))
                pieceCell.append(t)
            }
        }
    }
}
