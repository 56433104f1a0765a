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
/// **Chains** (``prepare(path:pieceLength:columns:rows:)``, once per fill): edges are numbered contour by contour, each
/// with a bound on the turning summed from its contour's start (`|u - v|` of consecutive unit
/// directions, at least the angle times 2/π), and each knows where the longest chain ending at
/// it may begin (the turning from there below ``chainTurnLimit``). The edges of a chain need
/// not all cross the pixel: what counts is that every edge crossing it lies in one chain (the
/// chain from the first of them to the last has its ends outside the pixel: an edge ending
/// inside it is followed by one leaving it). A chain may run through a contour's closing
/// vertex (from an edge near its end, round to one near its start: a dash's start corners).
///
/// **Pass 1** (``Tracker``, while the accumulator deposits the areas): every cell keeps a tag:
/// the last edge that crossed it and where its chain began, or that its chain runs through the
/// contour's closing vertex. An edge whose chain cannot hold the cell's makes the cell
/// trouble. Every cell also sums `sign(dy)` of the edges crossing its row's top line inside
/// it, so the winding just below any point of the top line is a running sum.
///
/// **The pieces of the trouble cells** are gathered during pass 1, not by walking the edges
/// again: an edge crossing a cell that is already trouble (or that it makes trouble) leaves its
/// piece there (its row slice clipped to the cell) and its top-line crossing; when a cell
/// becomes trouble, the edges that crossed it before are in its tag's chain (consecutive ids
/// from where the chain began to the last that crossed it), and only those few are
/// walked again, by the same accumulator code without depositing, keeping their pieces in
/// that cell alone. An edge that only crossed the cell's top line at its left corner is in
/// no chain: its crossing is in the cell's crossing count, whose part no kept crossing
/// accounts for is added to the winding at the cell's left side (at the left corner it winds
/// the whole cell). Every trouble cell's area is then computed exactly and replaces the
/// accumulated coverage when the row is resolved (the cover passed to the pixels on its
/// right stays the accumulator's: those pixels are exact).
///
/// Storage is laid out like ``CoverageAccumulator``'s band (same stride) and never cleared:
/// edge ids keep growing from fill to fill (from ``idBase``), so a cell whose tag holds an
/// id below the current fill's base is empty, and its crossing count is stale. Not
/// thread-safe; owned by one ``ShapeScratch``.
final class OverlapCells {
    /// Per cell, packed in one word: the tag (low 32 bits: the last edge id << 2 | state) and
    /// the first edge of its chain (high 32 bits; once trouble, the cell's number in the order
    /// cells became trouble).
    private var tags: UnsafeMutablePointer<UInt64>
    private var crossings: UnsafeMutablePointer<Float>
    /// Per edge (path numbering), the first edge of the longest chain ending at it
    /// (``prepare(path:pieceLength:columns:rows:)``).
    private var reach: UnsafeMutablePointer<UInt32>
    /// Per edge, the turning bound summed from its contour's start (4 at the first edge).
    private var turning: UnsafeMutablePointer<Double>
    /// At each contour's first edge: the turning at its last edge plus the turn from the last
    /// edge to the first.
    private var closing: UnsafeMutablePointer<Double>
    private var edgeCapacity = 0
    private var capacity = 0
    /// Which edges pass 1 tags (``prepare(path:pieceLength:columns:rows:)``).
    let meeting = MeetingPieces()
    private var width = 0, height = 0, stride = 2
    private var originX = 0
    /// Largest bound on a chain's turning (summed |u - v| of its unit directions, 2 being π)
    /// for the cells it alone crosses to be exact without pass 2 (below π the chain is
    /// monotone in some direction: see the type's documentation).
    static let chainTurnLimit = 1.9
    /// Cell indices of the trouble cells, ascending after ``finish(path:accumulator:blocks:_:)``.
    /// This and the other `@exclusivity(unchecked)` properties are read per run by ``emit(row:_:_:_:coverage:_:)``
    /// and only ever touched by the one fill that owns this object, never in overlapping
    /// accesses: the runtime's exclusivity checks (0.26M instructions on the polyline) are off.
    @exclusivity(unchecked) private var trouble: [Int] = []
    /// `troubleRows[r]`: trouble cells in rows before `r` (`height + 1` entries).
    @exclusivity(unchecked) private var troubleRows: [Int32] = []
    /// Pieces and top-line crossings kept in the trouble cells, each with its cell's number
    /// in the order cells became trouble (``Gathered``).
    private var gathered = Gathered()
    /// Exact area of each trouble cell (index as in ``trouble``) after ``finish(path:accumulator:blocks:_:)``.
    @exclusivity(unchecked) private(set) var areas: [Double] = []
    private var scratch = ExactCellArea.Scratch()
    /// The next trouble cell ``emit(row:_:_:_:coverage:_:)`` hands on.
    @exclusivity(unchecked) private var cursor = 0
    /// The first edge id of the current band: tags with smaller ids are from earlier bands.
    private var idBase: UInt32 = 1
    /// The first edge id of the next band.
    private var nextIdBase: UInt32 = 1
    /// Ids stay below this (30 bits in a tag); nearer, the storage is cleared and ids restart.
    private static let idLimit: UInt32 = 1 << 30

    init() {
        tags = .allocate(capacity: 0)
        crossings = .allocate(capacity: 0)
        reach = .allocate(capacity: 0)
        turning = .allocate(capacity: 0)
        closing = .allocate(capacity: 0)
    }

    deinit {
        tags.deallocate()
        crossings.deallocate()
        reach.deallocate()
        turning.deallocate()
        closing.deallocate()
    }

    /// Number of trouble cells of the current band (after ``finish(path:accumulator:blocks:_:)``).
    var troubleCount: Int { trouble.count }

    /// The pixels (plane coordinates) of the current band's trouble cells, in the order of
    /// ``areas``.
    var troubleCells: [(x: Int, y: Int)] {
        trouble.map { (originX + $0 % stride, originY + $0 / stride) }
    }
    private var originY = 0

    /// Starts a band of the accumulator's geometry (pixel (originX, originY) its top left).
    func begin(originX: Int, originY: Int, width: Int, height: Int) {
        let needed = (width + 2) * height
        if needed > capacity {
            tags.deallocate()
            crossings.deallocate()
            capacity = Swift.max(needed, 2 * capacity)
            tags = .allocate(capacity: capacity)
            tags.initialize(repeating: 0, count: capacity)
            crossings = .allocate(capacity: capacity)
            crossings.initialize(repeating: 0, count: capacity)
        }
        self.width = width
        self.height = height
        stride = width + 2
        self.originX = originX
        self.originY = originY
        trouble.removeAll(keepingCapacity: true)
        areas.removeAll(keepingCapacity: true)
        cursor = 0
    }

    /// Finds, once per fill, the chains of `path`'s edges (numbered as
    /// ``ContourPath/addEdges(to:observer:)`` does): for every edge the first edge of the
    /// longest chain of consecutive edges of its contour that ends at it and turns by less
    /// than ``chainTurnLimit`` (the sum of `|u - v|` of consecutive unit directions, from the
    /// contour's first edge; a zero-length edge breaks every chain), and per contour the
    /// turning round it, for the chains through its closing vertex. Then which edges pass 1
    /// tags (``MeetingPieces``, pieces of about `pieceLength`: half the stroke's width; infinite
    /// tags every edge) for a fill of the cells `columns` x `rows` (plane coordinates,
    /// inclusive).
    func prepare(path: ContourPath, pieceLength: Double, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let n = path.count
        if n + 1 > edgeCapacity {
            reach.deallocate()
            turning.deallocate()
            closing.deallocate()
            edgeCapacity = Swift.max(n + 1, 2 * edgeCapacity)
            reach = .allocate(capacity: edgeCapacity)
            reach.initialize(repeating: 0, count: edgeCapacity)
            turning = .allocate(capacity: edgeCapacity)
            turning.initialize(repeating: 0, count: edgeCapacity)
            closing = .allocate(capacity: edgeCapacity)
            closing.initialize(repeating: 0, count: edgeCapacity)
        }
        if pieceLength == MeetingPieces.wholeContours {
            var contours = meeting.contours(path: path, columns: columns, rows: rows)
            chains(path: path, &contours)
            meeting.find(pieces: contours.count, edges: n, columns: columns, rows: rows)
        } else if pieceLength.isFinite {
            var pieces = meeting.cutter(path: path, pieceLength: pieceLength, columns: columns, rows: rows)
            chains(path: path, &pieces)
            meeting.find(pieces: pieces.count, edges: n, columns: columns, rows: rows)
        } else {
            var none = MeetingPieces.NoCutter()
            chains(path: path, &none)
            meeting.tagAll(edges: n)
        }
    }

    /// The chains of ``prepare(path:pieceLength:columns:rows:)``, feeding `pieces` the edges.
    private func chains<C: MeetingPieces.Cutting>(path: ContourPath, _ pieces: inout C) {
        let n = path.count
        let reach = self.reach, turning = self.turning, closing = self.closing
        let starts = path.starts
        path.withPoints { xs, ys in
            for c in 0..<starts.count {
                let s = starts[c], e = c + 1 < starts.count ? starts[c + 1] : n
                guard e - s >= 2 else { continue }
                // Turning from the previous edge, bounded by |u - v| (the angle between unit
                // vectors is at most π/2 |u - v|); the contour's first edge and a zero-length
                // edge break every chain (4 is past the limit).
                var previousX = 0.0, previousY = 0.0, previousLength = 0.0
                var firstX = 0.0, firstY = 0.0, firstLength = 0.0
                var total = 0.0
                var from = s &+ 1
                var ax = xs[e &- 1], ay = ys[e &- 1]
                pieces.startContour(edge: s &+ 1)
                for i in s..<e {
                    let bx = xs[i], by = ys[i]
                    let dx = bx - ax, dy = by - ay
                    let l = (dx * dx + dy * dy).squareRoot()
                    var turn = 4.0
                    if l > 0 {
                        let ux = dx / l, uy = dy / l
                        if i != s && previousLength > 0 {
                            let ex = ux - previousX, ey = uy - previousY
                            turn = (ex * ex + ey * ey).squareRoot()
                        }
                        if i == s { firstX = ux; firstY = uy; firstLength = l }
                        previousX = ux
                        previousY = uy
                    }
                    previousLength = l
                    total += turn
                    let id = i &+ 1
                    turning[id] = total
                    while total - turning[from] >= Self.chainTurnLimit { from &+= 1 }
                    reach[id] = UInt32(truncatingIfNeeded: from)
                    pieces.add(edge: id, length: l, turn: turn, last: i == e &- 1, path: path, s: s, e: e,
                               reach: reach)
                    ax = bx
                    ay = by
                }
                // Round the closing vertex, from the last edge to the first.
                var wrap = 4.0
                if previousLength > 0 && firstLength > 0 {
                    let ex = firstX - previousX, ey = firstY - previousY
                    wrap = (ex * ex + ey * ey).squareRoot()
                }
                closing[s &+ 1] = total + wrap
                pieces.endContour(path: path, s: s, e: e, reach: reach, turning: turning, closing: total + wrap)
            }
        }
    }

    /// Pass 1's observer (see the type's documentation) for a path of at most `edges` edges
    /// (after ``prepare(path:pieceLength:columns:rows:)`` for that path); it also marks the written blocks with `blocks`
    /// (those of the untagged pieces at once: ``MeetingPieces/markUntagged(top:rows:originX:marker:)``).
    func tracker(edges: Int, blocks: TouchedBlocks.Marker) -> Tracker {
        meeting.markUntagged(top: originY, rows: height, originX: originX, marker: blocks)
        idBase = nextIdBase
        if Int(idBase) + edges + 2 >= Int(Self.idLimit) {
            tags.update(repeating: 0, count: capacity)
            idBase = 1
        }
        var t = Tracker(tags: tags, crossings: crossings, reach: reach, turning: turning, closing: closing,
                        tagged: meeting.tagged, idBase: idBase, stride: stride,
                        width: Double(width), height: Double(height), blocks: blocks, edges: edges)
        swap(&t.trouble, &trouble)
        swap(&t.gathered, &gathered)
        t.gathered.removeAll()
        return t
    }

    /// Ends pass 1: walks again the edges that crossed each trouble cell before it became
    /// trouble (``ContourPath/edge(_:)``, through `acc` without depositing), sorts
    /// the trouble cells and computes their exact areas.
    /// `blocks` holds the blocks pass 1 wrote (read, not cleared).
    func finish(path: ContourPath, accumulator acc: CoverageAccumulator, blocks: TouchedBlocks,
                _ t: inout Tracker) {
        swap(&trouble, &t.trouble)
        swap(&gathered, &t.gathered)
        nextIdBase = t.nextId &+ 1
        let n = trouble.count
        guard n > 0 else { return }
        // The chains of the cells, walked again for their cell alone.
        for (number, k) in trouble.enumerated() {
            let chain = gathered.chains[number]
            var one = OneCell(row: k / stride, column: k % stride, number: Int32(number),
                              width: Double(width), height: Double(height), gathered: Gathered())
            swap(&one.gathered, &gathered)
            var id = chain.from
            while true {
                let (ax, ay, bx, by) = path.edge(id &- idBase)
                acc.addEdge(ax, ay, bx, by, observer: &one)
                if id == chain.to { break }
                id &+= 1
            }
            swap(&one.gathered, &gathered)
        }
        // Number the cells in ascending order: rank[number] = position in `trouble`.
        var order = Array(0..<n)
        order.sort { trouble[$0] < trouble[$1] }
        var rank = [Int32](repeating: 0, count: n)
        for (i, number) in order.enumerated() { rank[number] = Int32(i) }
        trouble = order.map { trouble[$0] }
        troubleRows.removeAll(keepingCapacity: true)
        troubleRows.append(contentsOf: repeatElement(0, count: height + 1))
        for k in trouble { troubleRows[k / stride + 1] += 1 }
        for r in 0..<height { troubleRows[r + 1] += troubleRows[r] }
        // Group the pieces and crossings by cell (stable, by counting).
        func grouped<T>(_ items: [T], _ cell: [Int32]) -> (items: [T], start: [Int]) {
            var start = [Int](repeating: 0, count: n + 1)
            for c in cell { start[Int(rank[Int(c)]) + 1] += 1 }
            for i in 0..<n { start[i + 1] += start[i] }
            var next = start
            var out = items
            for (i, c) in cell.enumerated() {
                let r = Int(rank[Int(c)])
                out[next[r]] = items[i]
                next[r] += 1
            }
            return (out, start)
        }
        let (ps, pStart) = grouped(gathered.pieces, gathered.pieceCell)
        let (cs, cStart) = grouped(gathered.crossings, gathered.crossingCell)
        areas.removeAll(keepingCapacity: true)
        var row = -1
        var column = 0
        var winding: Float = 0
        var bits: UInt64 = 0
        let shift = blocks.shift
        ps.withUnsafeBufferPointer { pp in
            cs.withUnsafeBufferPointer { cp in
                for (i, k) in trouble.enumerated() {
                    let r = k / stride, c = k % stride
                    if r != row {
                        row = r
                        column = 0
                        winding = 0
                        bits = blocks.bits(row: r)
                    }
                    let base = r * stride
                    // The crossings left of the cell, in the blocks the pass wrote (a crossed
                    // cell is in its slice's blocks).
                    while column < c {
                        let b = column >> shift
                        let ahead = bits >> UInt64(truncatingIfNeeded: b)
                        if ahead & 1 == 0 {
                            column = ahead == 0 ? c : Swift.min(c, (b + ahead.trailingZeroBitCount) << shift)
                            continue
                        }
                        let end = Swift.min(c, (b + 1) << shift)
                        while column < end {
                            if UInt32(truncatingIfNeeded: tags[base + column]) >> 2 >= idBase {
                                winding += crossings[base + column]
                            }
                            column += 1
                        }
                    }
                    let x = UnsafeBufferPointer(rebasing: cp[cStart[i]..<cStart[i + 1]])
                    // Crossings at the left corner by edges in no chain: counted, not kept.
                    var unkept = crossings[k]
                    for e in x { unkept -= Float(e.dir) }
                    let p = UnsafeBufferPointer(rebasing: pp[pStart[i]..<pStart[i + 1]])
                    areas.append(ExactCellArea.area(column: Double(c), row: Double(r),
                                                    winding: Int32(winding + unkept), crossings: x,
                                                    pieces: p, scratch: &scratch))
                }
            }
        }
    }

    /// Pass 1's walk: adds `path`'s edges (those of `runs`, ``EdgeBands``; nil: all) to `acc`,
    /// reporting them to `t` (through ``EveryEdge`` when no search ran). Out of line: inlined
    /// into ``ShapeScratch/fill(clip:sink:exact:hole:)``, it makes the fill's row loop compile
    /// worse (`ellipse_stroke` 2 % more instructions).
    @inline(never)
    func addEdges(of path: ContourPath, _ runs: UnsafeBufferPointer<EdgeBands.Run>?,
                  to acc: CoverageAccumulator, _ t: inout Tracker) {
        if meeting.searched {
            if let runs { path.addEdges(runs, to: acc, observer: &t) } else { path.addEdges(to: acc, observer: &t) }
            return
        }
        withUnsafeMutablePointer(to: &t) { p in
            var every = EveryEdge(tracker: p)
            if let runs { path.addEdges(runs, to: acc, observer: &every) } else { path.addEdges(to: acc, observer: &every) }
        }
    }

    /// Whether band row `r` holds trouble cells (after ``finish(path:accumulator:blocks:_:)``).
    func hasTrouble(row r: Int) -> Bool {
        !trouble.isEmpty && troubleRows[r + 1] > troubleRows[r]
    }

    /// Hands on the run `lo..<hi` of band row `r` that ``CoverageSpans/resolveRuns(row:of:bits:shift:minimumRun:_:)``
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

    /// What the trouble cells gather: their pieces and top-line crossings, each with its
    /// cell's number (the order cells became trouble), and per cell the chain of edges that
    /// crossed it before.
    struct Gathered {
        var pieces: [ExactCellArea.Piece] = []
        var pieceCell: [Int32] = []
        var crossings: [ExactCellArea.Crossing] = []
        var crossingCell: [Int32] = []
        var chains: [Chain] = []

        /// Edges `from...to` (band ids): consecutive edges, some of which may not cross the
        /// cell.
        struct Chain {
            var from: UInt32, to: UInt32
        }

        mutating func removeAll() {
            pieces.removeAll(keepingCapacity: true)
            pieceCell.removeAll(keepingCapacity: true)
            crossings.removeAll(keepingCapacity: true)
            crossingCell.removeAll(keepingCapacity: true)
            chains.removeAll(keepingCapacity: true)
        }

        /// Keeps the part inside column `c` of the row slice from (xa, ya) to (xb, yb) (`dir`
        /// +1 going down) for cell `number`.
        @inline(__always)
        mutating func slice(_ number: Int32, column c: Int, xa: Double, ya: Double, xb: Double,
                            yb: Double, dir: Double) {
            // Left to right: (x0, y0) the left end.
            let (x0, y0, x1, y1) = xa <= xb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
            let rising = xa <= xb ? dir : -dir  // sign of dx in the edge's own direction
            let delta: Int32 = x0 == x1 ? 0 : (rising > 0 ? -1 : 1)
            let cl = Double(c), cr = cl + 1
            var p = ExactCellArea.Piece(x0: x0, y0: y0, x1: x1, y1: y1, delta: delta)
            if x0 < x1 {
                if x0 < cl { p.x0 = cl; p.y0 = y0 + (cl - x0) * (y1 - y0) / (x1 - x0) }
                if x1 > cr { p.x1 = cr; p.y1 = y0 + (cr - x0) * (y1 - y0) / (x1 - x0) }
            }
            pieces.append(p)
            pieceCell.append(number)
        }

        /// Keeps the part inside column `c` of a horizontal edge at `y` from `xa` to `xb`
        /// (clipped to `[0, width]`) for cell `number`.
        @inline(__always)
        mutating func horizontal(_ number: Int32, column c: Int, xa: Double, xb: Double, y: Double,
                                 width: Double) {
            let xl = Swift.max(Swift.min(xa, xb), 0), xr = Swift.min(Swift.max(xa, xb), width)
            pieces.append(.init(x0: Swift.max(xl, Double(c)), y0: y, x1: Swift.min(xr, Double(c + 1)),
                                y1: y, delta: xb > xa ? -1 : 1))
            pieceCell.append(number)
        }

        /// Keeps a top-line crossing at `x` (`dir` +1 going down) for cell `number`.
        @inline(__always)
        mutating func crossing(_ number: Int32, x: Double, dir: Double) {
            crossings.append(.init(x: x, dir: dir > 0 ? 1 : -1))
            crossingCell.append(number)
        }
    }

    /// Pass 1's observer: tags the cells every edge crosses, sums the top-line crossings and
    /// gathers what the trouble cells need.
    struct Tracker: CellObserver {
        let tags: UnsafeMutablePointer<UInt64>
        let crossings: UnsafeMutablePointer<Float>
        let stride: Int
        let width: Double, height: Double
        /// Per edge (path numbering), the first edge of the longest chain ending at it, the
        /// turning summed from its contour's start, and at a contour's first edge the turning
        /// round the contour (``prepare(path:pieceLength:columns:rows:)``).
        let reach: UnsafeMutablePointer<UInt32>
        let turning: UnsafePointer<Double>, closing: UnsafePointer<Double>
        let blocks: TouchedBlocks.Marker
        /// Per edge (path numbering), whether it tags the cells it crosses (``MeetingPieces``).
        let tagged: UnsafePointer<Bool>
        /// The walk of the edges that tag nothing.
        var quiet: Counter
        var trouble: [Int] = []
        var gathered = Gathered()
        /// Edge ids of this band are `idBase + ` the path's numbering.
        let idBase: UInt32
        /// The id after the path's last edge.
        var nextId: UInt32 { idBase &+ UInt32(edgeCount) }
        /// The path's edges plus one (ids are numbered from 1).
        private let edgeCount: Int
        private var id: UInt32 = 0, first: UInt32 = 0, last: UInt32 = 0
        /// The first edge (band id) of the longest chain ending at the current edge.
        private var chainStart: UInt32 = 0

        init(tags: UnsafeMutablePointer<UInt64>, crossings: UnsafeMutablePointer<Float>,
             reach: UnsafeMutablePointer<UInt32>, turning: UnsafePointer<Double>, closing: UnsafePointer<Double>,
             tagged: UnsafePointer<Bool>, idBase: UInt32, stride: Int, width: Double, height: Double,
             blocks: TouchedBlocks.Marker, edges: Int) {
            self.idBase = idBase
            self.tagged = tagged
            quiet = Counter(tags: tags, crossings: crossings, stride: stride, idBase: idBase)
            self.turning = turning
            self.closing = closing
            edgeCount = edges + 1
            self.tags = tags
            self.reach = reach
            self.crossings = crossings
            self.stride = stride
            self.width = width
            self.height = height
            self.blocks = blocks
        }

        static var deposits: Bool { true }

        /// Tags the cells of the edges ``MeetingPieces`` chose; the others go to ``quiet``.
        @inline(__always)
        mutating func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                           _ bx: Double, _ by: Double) -> Bool {
            guard tagged[Int(id)] else { return false }
            start(id, first: first, last: last)
            return true
        }

        /// Edge `id` of the contour of edges `first...last` is walked next, tagging its cells.
        @inline(__always)
        mutating func start(_ id: UInt32, first: UInt32, last: UInt32) {
            self.id = idBase &+ id
            self.first = idBase &+ first
            self.last = idBase &+ last
            chainStart = idBase &+ reach[Int(id)]
        }

        /// The packed cell word of tag `id << 2 | state` and chain start `chain`.
        @inline(__always)
        private static func word(_ id: UInt32, _ state: UInt32, _ chain: UInt32) -> UInt64 {
            UInt64(chain) << 32 | UInt64(id << 2 | state)
        }

        /// Records that the current edge crosses cell `k` and returns the cell's trouble
        /// number, or -1 when it is not trouble. Tag: edge id << 2 | state, state 1 (crossed by
        /// edges of one chain: consecutive edges from the chain start in the word's high half,
        /// each crossing the cell or not, turning by less than `chainTurnLimit` in all), 2 (the
        /// same for a chain through the contour's closing vertex: edges from the chain start
        /// on, then edges up to the contour's last), 3 (trouble: then the high half is the
        /// cell's trouble number).
        @inline(__always)
        private mutating func touch(_ k: Int) -> Int32 {
            let v = tags[k]
            let t = UInt32(truncatingIfNeeded: v)
            let state = t & 3, previous = t >> 2
            if previous < idBase || state == 0 {
                if previous < idBase { crossings[k] = 0 }  // stale: no crossing yet
                tags[k] = Self.word(id, 1, id)
                return -1
            }
            let chain = UInt32(truncatingIfNeeded: v >> 32)
            if state == 3 { return Int32(truncatingIfNeeded: chain) }
            if state == 1 && chain >= chainStart {
                tags[k] = Self.word(id, 1, chain)
                return -1
            }
            return join(k, chain: chain, previous: previous, state: state)
        }

        /// The current edge crosses cell `k`, crossed before by the chain from `chain` to
        /// `previous` (`state` 1 or 2, see ``touch(_:)``) that it does not continue: the cell
        /// stays one chain's when the edge comes back to it (`previous` is the current edge),
        /// when the chain runs through the contour's closing vertex (from the current edge to
        /// the contour's last, then from its first to `previous`, turning by less than the
        /// limit in all, or just its last and first edges), else it is made trouble. Out of
        /// line, like the other steps of the rare trouble cells, so the walk's common path
        /// stays small.
        @inline(never)
        private mutating func join(_ k: Int, chain: UInt32, previous: UInt32, state: UInt32) -> Int32 {
            if previous == id { return -1 }
            if chain >= first {
                if state == 2 {
                    tags[k] = Self.word(id, 2, chain)
                    return -1
                }
                let f = Int(first &- idBase)
                let round = closing[f] - turning[Int(id &- idBase)] + turning[Int(previous &- idBase)] - turning[f]
                if round < OverlapCells.chainTurnLimit || (previous == first && id == last && chain == previous) {
                    tags[k] = Self.word(id, 2, chain)
                    return -1
                }
            }
            let number = UInt32(trouble.count)
            gathered.chains.append(.init(from: chain, to: previous))
            tags[k] = Self.word(id, 3, number)
            trouble.append(k)
            return Int32(truncatingIfNeeded: number)
        }

        /// Keeps the current slice's piece in trouble cell `number` (column `c`).
        @inline(never)
        private mutating func keep(_ number: Int32, column c: Int, xa: Double, ya: Double, xb: Double,
                                   yb: Double, dir: Double) {
            gathered.slice(number, column: c, xa: xa, ya: ya, xb: xb, yb: yb, dir: dir)
        }

        /// Keeps a top-line crossing in trouble cell `number`.
        @inline(never)
        private mutating func keepCrossing(_ number: Int32, x: Double, dir: Double) {
            gathered.crossing(number, x: x, dir: dir)
        }

        @inline(__always)
        mutating func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                            xb: Double, yb: Double, dir: Double) {
            blocks.mark(row: row, first: first, last: last)
            let base = row &* stride
            var c = first
            while c <= last {
                let number = touch(base &+ c)
                if number >= 0 { keep(number, column: c, xa: xa, ya: ya, xb: xb, yb: yb, dir: dir) }
                c &+= 1
            }
            if ya == Double(row) {
                // A stale cell gets a fresh tag with state 0 (crossed at the top only).
                let k = base &+ CoverageAccumulator.floor(xa)
                let v = tags[k]
                let t = UInt32(truncatingIfNeeded: v)
                if t >> 2 < idBase {
                    tags[k] = UInt64(id << 2)
                    crossings[k] = Float(dir)
                } else {
                    crossings[k] += Float(dir)
                    if t & 3 == 3 { keepCrossing(Int32(truncatingIfNeeded: v >> 32), x: xa, dir: dir) }
                }
            }
        }

        @inline(__always)
        mutating func horizontal(xa: Double, xb: Double, y: Double) {
            guard let (row, lo, hi) = OverlapCells.horizontalCells(xa, xb, y, width, height) else { return }
            for c in lo...hi {
                let number = touch(row &* stride &+ c)
                if number >= 0 {
                    gathered.horizontal(number, column: c, xa: xa, xb: xb, y: y, width: width)
                }
            }
        }
    }

    /// Pass 1's observer when no search ran (``MeetingPieces/tagAll(edges:)``): ``Tracker``
    /// tagging every edge, without its test per edge.
    struct EveryEdge: CellObserver {
        /// The tracker (owned by the caller for the walk).
        let tracker: UnsafeMutablePointer<Tracker>

        static var deposits: Bool { true }

        @inline(__always)
        mutating func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                           _ bx: Double, _ by: Double) -> Bool {
            tracker.pointee.start(id, first: first, last: last)
            return true
        }

        typealias Quiet = NoCellObserver

        @inline(__always)
        func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                   xb: Double, yb: Double, dir: Double) {
            tracker.pointee.slice(row: row, first: first, last: last, xa: xa, ya: ya, xb: xb, yb: yb, dir: dir)
        }

        @inline(__always)
        func horizontal(xa: Double, xb: Double, y: Double) {
            tracker.pointee.horizontal(xa: xa, xb: xb, y: y)
        }
    }

    /// Pass 1's observer of the edges whose cells no other part of the outline can share
    /// (``MeetingPieces``): it sums the top-line crossings, as ``Tracker`` does, and tags
    /// nothing (their blocks are marked per piece: ``MeetingPieces/markUntagged(top:rows:originX:marker:)``). (A crossing it counts in a trouble cell is at the
    /// cell's top-left corner, the edge not crossing the cell itself: counted, not kept, it
    /// winds the whole cell, as a kept one at the corner does.)
    struct Counter: CellObserver {
        let tags: UnsafeMutablePointer<UInt64>
        let crossings: UnsafeMutablePointer<Float>
        let stride: Int
        /// A fresh tag in state 0 (crossed at the top only) for a stale cell.
        let fresh: UInt64
        let idBase: UInt32

        init(tags: UnsafeMutablePointer<UInt64>, crossings: UnsafeMutablePointer<Float>, stride: Int,
             idBase: UInt32) {
            self.tags = tags
            self.crossings = crossings
            self.stride = stride
            self.idBase = idBase
            fresh = UInt64(idBase << 2)
        }

        static var deposits: Bool { true }

        func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                  _ bx: Double, _ by: Double) -> Bool { true }

        typealias Quiet = NoCellObserver

        @inline(__always)
        func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                   xb: Double, yb: Double, dir: Double) {
            guard ya == Double(row) else { return }
            let k = row &* stride &+ CoverageAccumulator.floor(xa)
            if UInt32(truncatingIfNeeded: tags[k]) >> 2 < idBase {
                tags[k] = fresh
                crossings[k] = Float(dir)
            } else {
                crossings[k] += Float(dir)
            }
        }

        @inline(__always)
        func horizontal(xa: Double, xb: Double, y: Double) {}
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

    /// The observer of an edge walked again for one trouble cell: deposits nothing and keeps
    /// the edge's pieces and top-line crossing inside cell (row, column) for cell `number`.
    struct OneCell: CellObserver {
        let row: Int, column: Int, number: Int32
        let width: Double, height: Double
        var gathered: Gathered

        static var deposits: Bool { false }

        func edge(_ id: UInt32, first: UInt32, last: UInt32, _ ax: Double, _ ay: Double,
                  _ bx: Double, _ by: Double) -> Bool { true }

        typealias Quiet = NoCellObserver

        mutating func slice(row: Int, first: Int, last: Int, xa: Double, ya: Double,
                            xb: Double, yb: Double, dir: Double) {
            guard row == self.row else { return }
            if first <= column && column <= last {
                gathered.slice(number, column: column, xa: xa, ya: ya, xb: xb, yb: yb, dir: dir)
            }
            if ya == Double(row) && CoverageAccumulator.floor(xa) == column {
                gathered.crossing(number, x: xa, dir: dir)
            }
        }

        mutating func horizontal(xa: Double, xb: Double, y: Double) {
            guard let (row, lo, hi) = OverlapCells.horizontalCells(xa, xb, y, width, height),
                  row == self.row, lo <= column && column <= hi else { return }
            gathered.horizontal(number, column: column, xa: xa, xb: xb, y: y, width: width)
        }
    }
}
