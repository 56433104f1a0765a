/// Which edges of a stroke's outline pass 1 of ``OverlapCells`` must tag: those of the parts
/// of the outline that can share a cell with a part that is not one chain with them (see
/// ``OverlapCells``). Every other edge's cells are crossed by one chain alone, so they are
/// exact as accumulated: its slices only deposit and count their top-line crossings
/// (``OverlapCells/Counter``), and its piece's blocks are marked once
/// (``markUntagged(top:rows:originX:marker:)``).
///
/// **Pieces.** Each contour is cut into pieces of consecutive edges whose lengths sum to
/// `pieceLength` (the last piece of a contour may be shorter, and a piece holds at least one
/// edge, however long); each piece gets its box of cells (every cell its edges can cross,
/// clamped into the fill's box, widened by a few ulps so the accumulator's clipping
/// arithmetic cannot leave it). With pieces two pixels shorter than the stroke's width, a
/// piece of one side of a straight stroke misses the other side's cells, even at 45 degrees
/// (the sides `w / √2` apart on both axes, a piece's box `(w - 2) / √2` plus a cell).
///
/// **Whole dashes.** Strokes narrower than ``Rasterizer/meetingSearchWidth`` have sides too
/// close for pieces of one side to miss the other's cells; a dashed one is searched with each
/// contour (dash) one piece (``wholeContours``, ``WholeContours``), rule 1 replaced by the
/// contour rule (``WholeContours/endContour(path:s:e:reach:turning:closing:)``: no cell crossed
/// by the contour alone is trouble), and rule 2 comparing whole contours; rule 3 has no
/// neighbours to compare.
///
/// **Which pieces stay tagged.** Piece `p` is tagged when
/// 1. it is not itself a chain (it turns by ``OverlapCells/chainTurnLimit`` or more), or
///    it and a piece next to it in its contour are not one chain together;
/// 2. its box meets the box of a piece that is not next to it in its contour (another
///    contour's, or its own contour's further along: the first and last pieces of a closed
///    contour are not next to each other here);
/// 3. the boxes of the pieces on either side of it, `p - 1` and `p + 1`, meet.
///
/// Then a cell crossed by an untagged piece `U` is crossed by no piece but `U - 1`, `U` and
/// `U + 1` (any other would meet `U`'s box), and not by both of `U - 1` and `U + 1` (rule 3),
/// so by one chain (rule 1): it is exact, and the tracker, which sees at most one chain's
/// tagged edges there, never makes it trouble. A cell crossed only by tagged pieces sees the
/// same tags as when every edge is tagged, so the trouble cells, their pieces and the output
/// are those of the all-tagged fill, bit for bit.
///
/// Rule 3 is kept although no stroke tried so far needs it (``MeetingPiecesTests``: with it
/// disabled, 441 strokes, among them 400 sharp zigzags, still fill bit for bit as all-tagged;
/// it tags 5 more pieces of them). Without it, a cell crossed by `U - 1`, `U` and `U + 1`
/// whose three pieces together turn by the limit or more would become trouble when `U + 1`
/// reaches it, and its gathered chain would stop at `U - 1`'s last crossing, leaving out
/// `U`'s untagged pieces. Nothing in the cutting excludes that for a path in general: the
/// limit lets two neighbouring pieces turn by up to 143 degrees together, enough for a
/// piece of `w - 2` to fold back into a cell its neighbours cross.
///
/// **The search** sweeps the pieces in order of their boxes' top rows (a counting sort) over
/// vertical stripes of `1 << stripeShift` cells: each stripe keeps a list of the pieces whose
/// boxes reach it and still reach the current row (the others are unlinked as the list is
/// scanned), and a piece is compared only with the lists of the stripes its box spans. All
/// storage is unsafe buffers reused from fill to fill. Not thread-safe; owned by one
/// ``OverlapCells``.
final class MeetingPieces {
    /// A box of cells, inclusive, in plane coordinates.
    fileprivate struct Box {
        var x0: Int32, y0: Int32, x1: Int32, y1: Int32
    }

    /// Per edge (path numbering, from 1), whether pass 1 tags it (after
    /// ``find(_:edges:columns:rows:)`` or ``tagAll(edges:)``).
    private(set) var tagged: UnsafeMutablePointer<Bool>
    private var edgeCapacity = 0
    /// Per piece: its first edge (one more entry: the edge after the last piece), its box, the
    /// index of its contour's first piece, whether it is tagged.
    private var firstEdge: UnsafeMutablePointer<Int32>
    private var boxes: UnsafeMutablePointer<Box>
    private var contourOf: UnsafeMutablePointer<Int32>
    private var marks: UnsafeMutablePointer<Bool>
    /// The pieces in order of their boxes' top rows, and per row where its pieces start.
    private var order: UnsafeMutablePointer<Int32>
    private var rowStart: UnsafeMutablePointer<Int32>
    private var rowCapacity = 0
    /// Per stripe the first entry of its list (-1: empty); per entry its piece and the next.
    private var heads: UnsafeMutablePointer<Int32>
    private var stripeCapacity = 0
    private var entryPiece: UnsafeMutablePointer<Int32>
    private var entryNext: UnsafeMutablePointer<Int32>
    private var entryCapacity = 0
    /// log2 of a stripe's width in cells.
    static let stripeShift = 5
    /// Whether the last path was searched (else every edge is tagged).
    private(set) var searched = false
    /// Pieces of the last search, and how many of them are tagged.
    private(set) var pieceCount = 0
    private(set) var taggedCount = 0

    init() {
        tagged = .allocate(capacity: 0)
        firstEdge = .allocate(capacity: 0)
        boxes = .allocate(capacity: 0)
        contourOf = .allocate(capacity: 0)
        marks = .allocate(capacity: 0)
        order = .allocate(capacity: 0)
        rowStart = .allocate(capacity: 0)
        heads = .allocate(capacity: 0)
        entryPiece = .allocate(capacity: 0)
        entryNext = .allocate(capacity: 0)
    }

    deinit {
        deallocateEdgeBuffers()
        rowStart.deallocate()
        heads.deallocate()
        entryPiece.deallocate()
        entryNext.deallocate()
    }

    /// Starts cutting `path` (``OverlapCells/prepare(path:pieceLength:columns:rows:)`` feeds
    /// the cutter its edges) into pieces of about `pieceLength`, for a fill of the cells
    /// `columns` x `rows` (plane coordinates, inclusive; the accumulator's cells: one column
    /// past the box on the right). (With an infinite `pieceLength` each contour would be one
    /// piece, never a chain since a closed contour turns by 2π: every edge tagged, as
    /// ``tagAll(edges:)`` does without the search.)
    func cutter(path: ContourPath, pieceLength: Double, columns: ClosedRange<Int>,
                rows: ClosedRange<Int>) -> Cutter {
        ensureCapacity(edges: path.count)
        // The accumulator's clipping interpolates (a few ulps of the coordinates' magnitude):
        // widened by far more, a box still holds every cell the edges' slices can cross.
        let magnitude = Swift.max(Swift.max(-path.minX, path.maxX), Swift.max(-path.minY, path.maxY), 1)
        return Cutter(firstEdge: firstEdge, boxes: boxes, contourOf: contourOf, marks: marks,
                      pieceLength: pieceLength, margin: magnitude * 0x1p-40,
                      left: Double(columns.lowerBound), right: Double(columns.upperBound),
                      top: Double(rows.lowerBound), bottom: Double(rows.upperBound))
    }

    /// Room for a path of `n` edges (and as many pieces).
    private func ensureCapacity(edges n: Int) {
        if n + 1 > edgeCapacity {
            edgeCapacity = Swift.max(n + 1, 2 * edgeCapacity)
            deallocateEdgeBuffers()
            // A piece holds at least one edge.
            tagged = .allocate(capacity: edgeCapacity)
            tagged.initialize(repeating: true, count: edgeCapacity)
            firstEdge = .allocate(capacity: edgeCapacity + 1)
            firstEdge.initialize(repeating: 0, count: edgeCapacity + 1)
            boxes = .allocate(capacity: edgeCapacity)
            boxes.initialize(repeating: Box(x0: 0, y0: 0, x1: 0, y1: 0), count: edgeCapacity)
            contourOf = .allocate(capacity: edgeCapacity)
            contourOf.initialize(repeating: 0, count: edgeCapacity)
            marks = .allocate(capacity: edgeCapacity)
            marks.initialize(repeating: true, count: edgeCapacity)
            order = .allocate(capacity: edgeCapacity)
            order.initialize(repeating: 0, count: edgeCapacity)
        }
    }

    /// Frees the buffers sized by the edges (``ensureCapacity(edges:)`` reallocates them).
    private func deallocateEdgeBuffers() {
        tagged.deallocate()
        firstEdge.deallocate()
        boxes.deallocate()
        contourOf.deallocate()
        marks.deallocate()
        order.deallocate()
    }

    /// What cuts a path into pieces, fed edge by edge, contour by contour, as
    /// ``OverlapCells/prepare(path:pieceLength:columns:rows:)`` measures the edges.
    protocol Cutting {
        /// Starts a contour whose first edge is `edge` (path numbering).
        mutating func startContour(edge: Int)
        /// Adds edge `edge`, `l` long, turning by `turn` from the previous one (the bound
        /// ``OverlapCells`` sums; 4 at the contour's first edge), of the contour of vertices
        /// `s..<e` of `path`; `last`: the contour's last edge. `reach`: the chains' starts (set
        /// up to `edge`).
        mutating func add(edge: Int, length l: Double, turn: Double, last: Bool, path: ContourPath, s: Int,
                          e: Int, reach: UnsafePointer<UInt32>)
        /// Ends the contour of vertices `s..<e`, whose chains' starts (`reach`), turnings
        /// (`turning`) and turning round its closing vertex (`closing`) are all set.
        mutating func endContour(path: ContourPath, s: Int, e: Int, reach: UnsafePointer<UInt32>,
                                 turning: UnsafePointer<Double>, closing: Double)
    }

    /// The cutter of a fill without a search (every edge tagged): does nothing.
    struct NoCutter: Cutting {
        @inline(__always) func startContour(edge: Int) {}
        @inline(__always) func add(edge: Int, length l: Double, turn: Double, last: Bool, path: ContourPath,
                                   s: Int, e: Int, reach: UnsafePointer<UInt32>) {}
        @inline(__always) func endContour(path: ContourPath, s: Int, e: Int, reach: UnsafePointer<UInt32>,
                                          turning: UnsafePointer<Double>, closing: Double) {}
    }

    /// Tags every edge of a path of `edges` edges (no search).
    func tagAll(edges n: Int) {
        ensureCapacity(edges: n)
        tagged.update(repeating: true, count: n &+ 1)
        searched = false
        pieceCount = 0
        taggedCount = 0
    }

    /// Cuts a path into pieces, fed edge by edge, contour by contour: a piece ends when its
    /// edges' lengths sum to ``pieceLength`` or at its contour's end (rule 1 is applied as
    /// each piece ends).
    struct Cutter: Cutting {
        fileprivate let firstEdge: UnsafeMutablePointer<Int32>
        fileprivate let boxes: UnsafeMutablePointer<Box>
        fileprivate let contourOf: UnsafeMutablePointer<Int32>
        fileprivate let marks: UnsafeMutablePointer<Bool>
        let pieceLength: Double, margin: Double
        let left: Double, right: Double, top: Double, bottom: Double
        /// Pieces so far.
        fileprivate(set) var count = 0
        private var contourFirst: Int32 = 0
        /// The current piece's first edge and its length so far.
        private var first = 0
        private var length = 0.0

        fileprivate init(firstEdge: UnsafeMutablePointer<Int32>, boxes: UnsafeMutablePointer<Box>,
                         contourOf: UnsafeMutablePointer<Int32>, marks: UnsafeMutablePointer<Bool>,
                         pieceLength: Double, margin: Double, left: Double, right: Double, top: Double,
                         bottom: Double) {
            self.firstEdge = firstEdge
            self.boxes = boxes
            self.contourOf = contourOf
            self.marks = marks
            self.pieceLength = pieceLength
            self.margin = margin
            self.left = left
            self.right = right
            self.top = top
            self.bottom = bottom
        }

        /// Starts a contour whose first edge is `edge` (path numbering).
        @inline(__always)
        mutating func startContour(edge: Int) {
            contourFirst = Int32(truncatingIfNeeded: count)
            first = edge
            length = 0
        }

        /// Adds the contour's edge `edge`, `l` long; `last`: the contour's last edge.
        @inline(__always)
        mutating func add(edge: Int, length l: Double, turn: Double, last: Bool, path: ContourPath, s: Int,
                          e: Int, reach: UnsafePointer<UInt32>) {
            length += l
            guard length >= pieceLength || last else { return }
            close(edge, path, s, e, reach)
            first = edge &+ 1
            length = 0
        }

        @inline(__always)
        func endContour(path: ContourPath, s: Int, e: Int, reach: UnsafePointer<UInt32>,
                        turning: UnsafePointer<Double>, closing: Double) {}

        /// Ends the current piece at edge `last` of the contour of vertices `s..<e`: its box
        /// (of its edges' end points) and rule 1.
        @inline(never)
        private mutating func close(_ last: Int, _ path: ContourPath, _ s: Int, _ e: Int,
                                    _ reach: UnsafePointer<UInt32>) {
            @inline(__always) func cell(_ v: Double, _ lo: Double, _ hi: Double) -> Int32 {
                Int32(truncatingIfNeeded: CoverageAccumulator.floor(v > lo ? (v < hi ? v : hi) : lo))
            }
            let xs = path.xs, ys = path.ys
            // The edge ending at vertex v is v + 1; the contour's first starts at its last vertex.
            let start = first == s &+ 1 ? e &- 1 : first &- 2
            var minX = xs[start], maxX = minX, minY = ys[start], maxY = minY
            var v = first &- 1
            while v < last {
                let x = xs[v], y = ys[v]
                minX = Swift.min(minX, x); maxX = CoverageAccumulator.larger(x, maxX)
                minY = Swift.min(minY, y); maxY = CoverageAccumulator.larger(y, maxY)
                v &+= 1
            }
            let p = count
            firstEdge[p] = Int32(truncatingIfNeeded: first)
            boxes[p] = Box(x0: cell(minX - margin, left, right), y0: cell(minY - margin, top, bottom),
                           x1: cell(maxX + margin, left, right), y1: cell(maxY + margin, top, bottom))
            contourOf[p] = contourFirst
            let r = Int(reach[last])
            var mark = r > first
            if p > Int(contourFirst) && r > Int(firstEdge[p &- 1]) {
                marks[p &- 1] = true
                mark = true
            }
            marks[p] = mark
            count = p &+ 1
        }
    }

    /// A piece length that makes every contour one piece: the search compares whole contours
    /// (a dashed stroke's dashes; ``contours(path:columns:rows:)``), each tagged unless the
    /// contour rule clears it and its box meets no other contour's.
    static let wholeContours = Double.greatestFiniteMagnitude

    /// Starts cutting `path` into whole contours (``wholeContours``), for a fill of the cells
    /// `columns` x `rows`, as ``cutter(path:pieceLength:columns:rows:)`` does into pieces.
    func contours(path: ContourPath, columns: ClosedRange<Int>, rows: ClosedRange<Int>) -> WholeContours {
        let c = cutter(path: path, pieceLength: Self.wholeContours, columns: columns, rows: rows)
        return WholeContours(firstEdge: firstEdge, boxes: boxes, contourOf: contourOf, marks: marks,
                             margin: c.margin, left: c.left, right: c.right, top: c.top, bottom: c.bottom)
    }

    /// Cuts a path into whole contours, each one piece with its box (as ``Cutter``'s) and,
    /// instead of rule 1 (a whole contour is never a chain), the contour rule
    /// (``WholeContours/endContour(path:s:e:reach:turning:closing:)``).
    struct WholeContours: Cutting {
        fileprivate let firstEdge: UnsafeMutablePointer<Int32>
        fileprivate let boxes: UnsafeMutablePointer<Box>
        fileprivate let contourOf: UnsafeMutablePointer<Int32>
        fileprivate let marks: UnsafeMutablePointer<Bool>
        let margin: Double
        let left: Double, right: Double, top: Double, bottom: Double
        /// Pieces (contours) so far.
        fileprivate(set) var count = 0

        /// The contour's edges after its first that turn by ``cornerTurn`` or more: how many,
        /// and the first three (the runs' first edges).
        fileprivate var corners = 0
        fileprivate var g1 = 0, g2 = 0, g3 = 0

        @inline(__always) mutating func startContour(edge: Int) { corners = 0 }

        /// Notes the edges that start a run (the contour's first edge turns by 4: not counted).
        @inline(__always)
        mutating func add(edge: Int, length l: Double, turn: Double, last: Bool, path: ContourPath, s: Int,
                          e: Int, reach: UnsafePointer<UInt32>) {
            guard turn >= Self.cornerTurn && edge != s &+ 1 else { return }
            corners &+= 1
            if corners == 1 { g1 = edge } else if corners == 2 { g2 = edge } else if corners == 3 { g3 = edge }
        }

        /// A turn between consecutive edges (`|u - v|` of their unit directions) from which the
        /// contour rule starts a new run: 1 is 60 degrees (a butt cap's corners turn by 90, a
        /// dash's sides by a few at each vertex).
        static let cornerTurn = 1.0

        /// Ends the closed contour of vertices `s..<e` of `path` (edges `f = s + 1` to `l = e`,
        /// path numbering: edge `i` runs from vertex `i - 2` to `i - 1`, edge `f` from vertex
        /// `e - 1` to `s`): one piece, its box, tagged unless the contour rule holds: that the
        /// contour, alone, can cross no cell with edges pass 1's tracker does not take for one
        /// chain; then, when its box meets no other contour's, it needs no tags. `reach`,
        /// `turning` and `closing` are ``OverlapCells``' for this contour, so the rule is the
        /// tracker's own arithmetic; distances are widened by `margin` against the
        /// accumulator's clipping arithmetic, as the boxes are.
        ///
        /// The contour is cut into four runs of consecutive edges: `R0` from `f`, and `R1`,
        /// `R2`, `R3` each starting at an edge that turns from the previous one by
        /// ``cornerTurn`` or more (exactly three such edges after `f`; a dash with butt caps:
        /// the start cap, the left side, the end cap, the right side). It holds when
        /// 1. `R0` and `R2`, and `R1` and `R3`, are more than a cell's diagonal (√2, here 1.5
        ///    plus the margins) apart along the normal to `d` (from the middle of the runs' first
        ///    vertices `P0`, `P1` to that of `P2`, `P3`: along a dash; a dash's sides) or along
        ///    `d` (its caps) (projections of the vertices: an edge's points project between its
        ///    ends'), so no cell meets both;
        /// 2. each run with the next is one chain as the tracker tests it: `reach` of the last
        ///    edge of `R0 ∪ R1`, `R1 ∪ R2` and `R2 ∪ R3` is at most their first; `R3 ∪ R0`,
        ///    round the closing vertex, turns by less than ``OverlapCells/chainTurnLimit`` in
        ///    the tracker's expression (from `R3`'s first edge to `R0`'s last), and no edge of
        ///    `R3` is one chain with an edge of `R0` forwards (`reach` of `R3`'s first edge is
        ///    past `R0`).
        ///
        /// Then the edges crossing a cell meet at most two neighbouring runs (1), so they lie
        /// in one of the four chains of (2), and the tracker, taking them in order, keeps the
        /// cell one chain's: within `R0 ∪ R1`, `R1 ∪ R2`, `R2 ∪ R3` every edge's reach is at
        /// most the cell's first edge; in `R3 ∪ R0`, the edges of `R0` come first (one chain),
        /// the first edge of `R3` after them fails the forward test and passes the test round
        /// the closing vertex (its expression is monotone in both turnings, so the test from
        /// `R3`'s first edge to `R0`'s last bounds it), and the cell keeps that state for every
        /// later edge of the contour. So the all-tagged fill makes none of the contour's cells
        /// trouble unless another contour crosses them, and those cells are exact as
        /// accumulated (one chain turning by less than π: see ``OverlapCells``).
        mutating func endContour(path: ContourPath, s: Int, e: Int, reach: UnsafePointer<UInt32>,
                                 turning: UnsafePointer<Double>, closing: Double) {
            @inline(__always) func cell(_ v: Double, _ lo: Double, _ hi: Double) -> Int32 {
                Int32(truncatingIfNeeded: CoverageAccumulator.floor(v > lo ? (v < hi ? v : hi) : lo))
            }
            let (box, quiet) = Self.rule(path, s: s, e: e, corners: corners == 3 ? (g1, g2, g3) : nil, reach: reach,
                                         turning: turning, closing: closing, gap: 1.5 + 4 * margin)
            let p = count
            firstEdge[p] = Int32(truncatingIfNeeded: s &+ 1)
            boxes[p] = Box(x0: cell(box.minX - margin, left, right), y0: cell(box.minY - margin, top, bottom),
                           x1: cell(box.maxX + margin, left, right), y1: cell(box.maxY + margin, top, bottom))
            contourOf[p] = Int32(truncatingIfNeeded: p)
            marks[p] = !quiet
            count = p &+ 1
        }

        /// The contour's box (of its vertices) and whether the contour rule holds (runs more
        /// than `gap` apart); `corners`: the first edges of `R1`, `R2`, `R3` (nil: not three).
        @inline(never)
        private static func rule(_ path: ContourPath, s: Int, e: Int, corners: (Int, Int, Int)?,
                                 reach: UnsafePointer<UInt32>, turning: UnsafePointer<Double>, closing: Double,
                                 gap: Double) -> (box: Extent, quiet: Bool) {
            let xs = path.xs, ys = path.ys
            let f = s &+ 1, l = e, last = e &- 1
            var whole = Extent(xs[last], ys[last], 1, 0)
            let (g1, g2, g3) = corners ?? (0, 0, 0)
            let limit = OverlapCells.chainTurnLimit
            guard corners != nil, Int(reach[g2 &- 1]) <= f, Int(reach[g3 &- 1]) <= g1, Int(reach[l]) <= g2,
                  Int(reach[g3]) >= g1, closing - turning[g3] + turning[g1 &- 1] - turning[f] < limit
            else {
                whole.scan(xs, ys, s, last)
                return (whole, false)
            }
            var dx = (xs[g2 &- 2] + xs[g3 &- 2]) - (xs[last] + xs[g1 &- 2])
            var dy = (ys[g2 &- 2] + ys[g3 &- 2]) - (ys[last] + ys[g1 &- 2])
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 && length.isFinite else {
                whole.scan(xs, ys, s, last)
                return (whole, false)
            }
            dx /= length
            dy /= length
            var r0 = Extent(xs[last], ys[last], dx, dy)
            r0.scan(xs, ys, s, g1 &- 2)
            var r1 = Extent(xs[g1 &- 2], ys[g1 &- 2], dx, dy)
            r1.scan(xs, ys, g1 &- 1, g2 &- 2)
            var r2 = Extent(xs[g2 &- 2], ys[g2 &- 2], dx, dy)
            r2.scan(xs, ys, g2 &- 1, g3 &- 2)
            var r3 = Extent(xs[g3 &- 2], ys[g3 &- 2], dx, dy)
            r3.scan(xs, ys, g3 &- 1, last)
            whole = r0
            whole.minX = Swift.min(Swift.min(r0.minX, r1.minX), Swift.min(r2.minX, r3.minX))
            whole.minY = Swift.min(Swift.min(r0.minY, r1.minY), Swift.min(r2.minY, r3.minY))
            whole.maxX = CoverageAccumulator.larger(CoverageAccumulator.larger(r0.maxX, r1.maxX),
                                                    CoverageAccumulator.larger(r2.maxX, r3.maxX))
            whole.maxY = CoverageAccumulator.larger(CoverageAccumulator.larger(r0.maxY, r1.maxY),
                                                    CoverageAccumulator.larger(r2.maxY, r3.maxY))
            // Apart along the normal (a dash's sides), else along d (its caps: few vertices).
            @inline(__always) func along(_ from: Int, _ to: Int, _ first: Int) -> (Double, Double) {
                var lo = xs[first] * dx + ys[first] * dy, hi = lo
                var v = from
                while v <= to {
                    let d = xs[v] * dx + ys[v] * dy
                    lo = lo < d ? lo : d; hi = hi > d ? hi : d
                    v &+= 1
                }
                return (lo, hi)
            }
            @inline(__always) func apart(_ a: (Double, Double), _ b: (Double, Double)) -> Bool {
                a.0 - b.1 > gap || b.0 - a.1 > gap
            }
            let quiet = (apart((r0.n0, r0.n1), (r2.n0, r2.n1))
                         || apart(along(s, g1 &- 2, last), along(g2 &- 1, g3 &- 2, g2 &- 2)))
                && (apart((r1.n0, r1.n1), (r3.n0, r3.n1))
                    || apart(along(g1 &- 1, g2 &- 2, g1 &- 2), along(g3 &- 1, last, g3 &- 2)))
            return (whole, quiet)
        }
    }

    /// The extent of some vertices: their box, and their projections on the normal
    /// `(-dy, dx)` of a unit direction `d`.
    fileprivate struct Extent {
        var minX: Double, maxX: Double, minY: Double, maxY: Double
        var n0: Double, n1: Double
        let dx: Double, dy: Double

        /// The extent of the vertex (x, y), for the direction `(dx, dy)`.
        @inline(__always)
        init(_ x: Double, _ y: Double, _ dx: Double, _ dy: Double) {
            self.dx = dx
            self.dy = dy
            minX = x; maxX = x; minY = y; maxY = y
            n0 = y * dx - x * dy; n1 = n0
        }

        /// Adds the vertices `from...to` (none when `to < from`).
        @inline(__always)
        mutating func scan(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>, _ from: Int,
                           _ to: Int) {
            var v = from
            while v <= to {
                let x = xs[v], y = ys[v]
                // Written so that each compiles to one MINSD / MAXSD in place.
                minX = minX < x ? minX : x; maxX = maxX > x ? maxX : x
                minY = minY < y ? minY : y; maxY = maxY > y ? maxY : y
                let n = y * dx - x * dy
                n0 = n0 < n ? n0 : n; n1 = n1 > n ? n1 : n
                v &+= 1
            }
        }
    }

    /// Ends the cutting of a path of `edges` edges into `pieces` pieces (``Cutter`` or
    /// ``WholeContours``): finds the meetings (rules 2 and 3) and sets ``tagged``.
    func find(pieces: Int, edges n: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        searched = true
        pieceCount = pieces
        firstEdge[pieceCount] = Int32(truncatingIfNeeded: n &+ 1)
        sweep(columns: columns, rows: rows)
        // The pieces' marks onto their edges.
        let tagged = self.tagged, firstEdge = self.firstEdge, marks = self.marks
        var count = 0
        for p in 0..<pieceCount {
            let m = marks[p]
            count &+= m ? 1 : 0
            var id = Int(firstEdge[p])
            let end = Int(firstEdge[p &+ 1])
            while id < end {
                tagged[id] = m
                id &+= 1
            }
        }
        taggedCount = count
    }

    /// Marks in `marker` the blocks of the untagged pieces' boxes (their cells and the one
    /// after, which their slices carry into) in the band of `rows` rows from plane row `top`
    /// whose cell 0 is plane column `originX`: the blocks their walk (``OverlapCells/Counter``)
    /// writes.
    func markUntagged(top: Int, rows: Int, originX: Int, marker: TouchedBlocks.Marker) {
        let boxes = self.boxes, marks = self.marks, order = self.order
        let bandTop = Int32(truncatingIfNeeded: top), bandBottom = Int32(truncatingIfNeeded: top &+ rows)
        let x = Int32(truncatingIfNeeded: originX)
        var k = 0
        while k < pieceCount {
            let p = Int(order[k])
            let box = boxes[p]
            guard box.y0 < bandBottom else { break }  // in order of top rows
            k &+= 1
            guard !marks[p] && box.y1 >= bandTop else { continue }
            var r = Swift.max(box.y0, bandTop)
            let end = Swift.min(box.y1, bandBottom &- 1)
            let first = Int(box.x0 &- x), last = Int(box.x1 &- x)
            while r <= end {
                marker.mark(row: Int(r &- bandTop), first: first, last: last)
                r &+= 1
            }
        }
    }

    /// Marks the pieces whose boxes meet a piece not next to them in their contour, and the
    /// piece between two that meet (rules 2 and 3).
    private func sweep(columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let count = pieceCount
        let height = rows.count
        if height + 1 > rowCapacity {
            rowStart.deallocate()
            rowCapacity = Swift.max(height + 1, 2 * rowCapacity)
            rowStart = .allocate(capacity: rowCapacity)
            rowStart.initialize(repeating: 0, count: rowCapacity)
        }
        let stripes = ((columns.upperBound &- columns.lowerBound) >> Self.stripeShift) &+ 1
        if stripes > stripeCapacity {
            heads.deallocate()
            stripeCapacity = Swift.max(stripes, 2 * stripeCapacity)
            heads = .allocate(capacity: stripeCapacity)
            heads.initialize(repeating: -1, count: stripeCapacity)
        }
        let boxes = self.boxes, contourOf = self.contourOf, marks = self.marks, order = self.order
        let rowStart = self.rowStart, heads = self.heads
        // Counting sort by the boxes' top rows.
        let top = Int32(truncatingIfNeeded: rows.lowerBound)
        rowStart.update(repeating: 0, count: height &+ 1)
        for p in 0..<count { rowStart[Int(boxes[p].y0 &- top) &+ 1] &+= 1 }
        for r in 0..<height { rowStart[r &+ 1] &+= rowStart[r] }
        for p in 0..<count {
            let r = Int(boxes[p].y0 &- top)
            order[Int(rowStart[r])] = Int32(truncatingIfNeeded: p)
            rowStart[r] &+= 1
        }
        heads.update(repeating: -1, count: stripes)
        let left = Int32(truncatingIfNeeded: columns.lowerBound)
        var used = 0
        for k in 0..<count {
            let p = order[k]
            let box = boxes[Int(p)]
            let s0 = Int(box.x0 &- left) >> Self.stripeShift, s1 = Int(box.x1 &- left) >> Self.stripeShift
            if used &+ (s1 &- s0) &+ 1 > entryCapacity { growEntries(used &+ s1 &- s0 &+ 1) }
            let entryPiece = self.entryPiece, entryNext = self.entryNext
            for s in s0...s1 {
                var previous: Int32 = -1
                var e = heads[s]
                while e >= 0 {
                    let q = entryPiece[Int(e)]
                    let next = entryNext[Int(e)]
                    let other = boxes[Int(q)]
                    if other.y1 < box.y0 {
                        // Above every piece still to come: unlinked.
                        if previous < 0 { heads[s] = next } else { entryNext[Int(previous)] = next }
                    } else {
                        if other.x0 <= box.x1 && box.x0 <= other.x1 { meet(p, q, contourOf, marks) }
                        previous = e
                    }
                    e = next
                }
                entryPiece[used] = p
                entryNext[used] = heads[s]
                heads[s] = Int32(truncatingIfNeeded: used)
                used &+= 1
            }
        }
    }

    /// Pieces `p` and `q` have meeting boxes: both are marked unless they are next to each
    /// other in one contour, and the piece between them when they are two apart.
    @inline(__always)
    private func meet(_ p: Int32, _ q: Int32, _ contourOf: UnsafeMutablePointer<Int32>,
                      _ marks: UnsafeMutablePointer<Bool>) {
        let d = p > q ? p &- q : q &- p
        let sameContour = contourOf[Int(p)] == contourOf[Int(q)]
        if d == 1 && sameContour { return }
        marks[Int(p)] = true
        marks[Int(q)] = true
        if d == 2 && sameContour { marks[Int(Swift.min(p, q)) &+ 1] = true }
    }

    /// Room for at least `needed` list entries (the entries in use are kept).
    private func growEntries(_ needed: Int) {
        let capacity = Swift.max(needed, 2 * entryCapacity, 256)
        let piece = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let next = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        piece.initialize(from: entryPiece, count: entryCapacity)
        next.initialize(from: entryNext, count: entryCapacity)
        (piece + entryCapacity).initialize(repeating: 0, count: capacity - entryCapacity)
        (next + entryCapacity).initialize(repeating: 0, count: capacity - entryCapacity)
        entryPiece.deallocate()
        entryNext.deallocate()
        entryPiece = piece
        entryNext = next
        entryCapacity = capacity
    }
}
