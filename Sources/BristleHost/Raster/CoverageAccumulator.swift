import CBristleMath

/// Stage 3 of the pipeline (accumulate): exact-area signed cell accumulation of polygon edges,
/// as in font-rs / stb_truetype v2 / libart.
///
/// The accumulator covers a *band*: a `width x height` pixel window whose top-left pixel is
/// `(originX, originY)` in plane coordinates. For every edge crossing a row, each cell receives
/// the signed change in covered area the edge causes at that cell, so that the prefix sum of a
/// row (left to right) is, at each pixel, the signed area of that pixel's square lying to the
/// right of the edges (winding-weighted, downward edges positive). ``CoverageSpans`` performs
/// that prefix sum.
///
/// Clipping is exact for everything inside the window: edge parts above/below the window are
/// dropped, parts left of it are moved onto its left side (they still wind every pixel to their
/// right), parts right of it are dropped. Rows have `width + 2` cells because an edge on the
/// right side writes up to two cells past the last pixel.
///
/// Invariant: between `begin` and the resolution of each row by ``CoverageSpans`` the cells
/// hold sums for the current band; outside that, every cell of the buffer is zero (resolution
/// zeroes the rows it reads), so `begin` never has to clear memory.
///
/// Not thread-safe; owned by one ``Rasterizer``.
final class CoverageAccumulator {
    private(set) var cells: UnsafeMutablePointer<Float>
    /// Cells a band may use; ``padding`` more are allocated (and stay zero), which the resolves
    /// may read past the last row (``TouchedBlocks/zeroRunEnd(_:from:width:bits:shift:)``, the
    /// dense steps of ``CoverageSpans/resolveMax(rows:cells:cellStride:width:bounds:into:maskStride:room:)``).
    private var capacity: Int
    /// Cells allocated past ``capacity``: `CBRISTLE_CELL_PADDING` (CBristleResolveMax.h, which
    /// states what each C resolve reads past a band's last row).
    static let padding = Int(CBRISTLE_CELL_PADDING)
    /// Pixels per row in the current band.
    private(set) var width = 0
    /// Rows in the current band.
    private(set) var height = 0
    /// Cells per row (`width + 2`).
    private(set) var stride = 2
    private var originX = 0.0
    private var originY = 0.0
    /// The ``RowWindows`` record (four `Int`s per row) and its capacity in rows.
    private var windowBounds: UnsafeMutablePointer<Int>
    private var windowRows: Int

    init() {
        capacity = 4096
        cells = .allocate(capacity: capacity + Self.padding)
        cells.initialize(repeating: 0, count: capacity + Self.padding)
        windowRows = 64
        windowBounds = .allocate(capacity: 4 * windowRows)
    }

    deinit {
        cells.deallocate()
        windowBounds.deallocate()
    }

    /// The largest number of cells a band may use; callers split taller windows into bands.
    static let maxCells = 1 << 19

    /// Starts a band. Requires `(width + 2) * height <= maxCells` (or a single row, however
    /// wide) and a zeroed buffer.
    func begin(originX: Int, originY: Int, width: Int, height: Int) {
        let needed = (width + 2) * height
        precondition(width > 0 && height > 0 && (needed <= Self.maxCells || height == 1))
        if needed > capacity {
            cells.deallocate()
            capacity = Swift.max(needed, Swift.min(capacity * 2, Self.maxCells))  // grows once per size class
            cells = .allocate(capacity: capacity + Self.padding)
            cells.initialize(repeating: 0, count: capacity + Self.padding)
        }
        self.width = width
        self.height = height
        self.stride = width + 2
        self.originX = Double(originX)
        self.originY = Double(originY)
    }

    /// The cells of band row `y`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<Float> { cells + y &* stride }

    /// Adds every edge of the closed polygon `(xs[i], ys[i])` (plane coordinates).
    func addPolygon(xs: [Double], ys: [Double]) {
        let n = Swift.min(xs.count, ys.count)
        guard n >= 2 else { return }
        xs.withUnsafeBufferPointer { px in
            ys.withUnsafeBufferPointer { py in
                addPolygon(xs: px.baseAddress!, ys: py.baseAddress!, count: n)
            }
        }
    }

    /// Adds every edge of the closed polygon of `count` vertices `(xs[i], ys[i])`.
    func addPolygon(xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, count n: Int) {
        var none = NoCellObserver()
        addPolygon(xs: xs, ys: ys, count: n, observer: &none)
    }

    /// ``addPolygon(xs:ys:count:)`` reporting the walk to `o` (``RowWindows``).
    @inline(__always)
    func addPolygon<O: CellObserver>(xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, count n: Int,
                                     observer o: inout O) {
        guard n >= 2 else { return }
        var ax = xs[n - 1], ay = ys[n - 1]
        var i = 0
        while i < n {
            let bx = xs[i], by = ys[i]
            addEdge(ax, ay, bx, by, observer: &o)
            ax = bx
            ay = by
            i &+= 1
        }
    }

    /// Empty ``RowWindows`` for the current band's rows (its record grown to exactly them,
    /// never shrunk: 32 bytes per row of the tallest band; nothing is copied, since the record
    /// is reset here), valid until the next `begin`.
    func rowWindows() -> RowWindows {
        if height > windowRows {
            windowBounds.deallocate()
            windowRows = height
            windowBounds = .allocate(capacity: 4 * windowRows)
        }
        let windows = RowWindows(bounds: windowBounds)
        windows.reset(rows: height)
        return windows
    }

    /// Adds the closed polygon of `count` vertices like ``addPolygon(xs:ys:count:)``, for a
    /// polygon that lies inside the window up to its flattening error: every vertex is clamped
    /// into `[0, width] x [0, height]` and no other clipping is done. Exact when the vertices
    /// are inside the window; a vertex a hair outside (a balanced arc vertex beyond the shape's
    /// bounding box) moves onto the window's side, a change no larger than that hair.
    func addInteriorPolygon(xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, count n: Int) {
        var none = NoCellObserver()
        addInteriorPolygon(xs: xs, ys: ys, count: n, observer: &none)
    }

    /// ``addInteriorPolygon(xs:ys:count:)`` reporting the walk to `o` (``RowWindows``).
    ///
    /// The edges are walked in runs of one direction (``downRun(_:_:_:_:)``, ``upRun(_:_:_:_:)``),
    /// each leaving when an edge turns the other way. Each run knows its edges' upper end and
    /// direction, so neither is chosen per edge (a convex polygon, a capsule, has two runs); the
    /// edges, their slices and their deposits are the same, in the same order, as one loop
    /// choosing per edge.
    @inline(__always)
    func addInteriorPolygon<O: CellObserver>(xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, count n: Int,
                                             observer o: inout O) {
        guard n >= 2 else { return }
        let clamp = InteriorClamp(w: Double(width), h: Double(height), ox: originX, oy: originY)
        var at = (px: xs, py: ys, ax: clamp.x(xs[n - 1]), ay: clamp.y(ys[n - 1]))
        let end = xs + n
        while at.px < end {
            at = downRun(at, end, clamp, &o)
            at = upRun(at, end, clamp, &o)
        }
    }

    /// Where the interior walk stands between its runs: the next vertex (two pointers rather than
    /// two bases and an index: one register fewer) and the last one (band coordinates, clamped).
    typealias InteriorAt = (px: UnsafePointer<Double>, py: UnsafePointer<Double>, ax: Double, ay: Double)

    /// The interior walk's clamp of a vertex into the band.
    struct InteriorClamp {
        let w: Double, h: Double, ox: Double, oy: Double

        // Written as plain comparisons so they compile to branch-free min/max instructions.
        @inline(__always) static func clamp(_ v: Double, _ hi: Double) -> Double {
            let lo = v > 0 ? v : 0
            return lo < hi ? lo : hi
        }
        @inline(__always) func x(_ v: Double) -> Double { Self.clamp(v - ox, w) }
        @inline(__always) func y(_ v: Double) -> Double { Self.clamp(v - oy, h) }
    }

    /// The edges from `at` on while they go down (a level edge adds nothing), up to `end`.
    @inline(never)
    private func downRun<O: CellObserver>(_ at: InteriorAt, _ end: UnsafePointer<Double>, _ clamp: InteriorClamp,
                                          _ o: inout O) -> InteriorAt {
        run(down: true, at, end, clamp, &o)
    }

    /// The edges from `at` on while they go up (a level edge adds nothing), up to `end`.
    @inline(never)
    private func upRun<O: CellObserver>(_ at: InteriorAt, _ end: UnsafePointer<Double>, _ clamp: InteriorClamp,
                                        _ o: inout O) -> InteriorAt {
        run(down: false, at, end, clamp, &o)
    }

    /// ``downRun(_:_:_:_:)`` and ``upRun(_:_:_:_:)``: `down` is a constant in each, so each holds
    /// one copy of the cell walk with its edges' upper end and direction known.
    @inline(__always)
    private func run<O: CellObserver>(down: Bool, _ at: InteriorAt, _ end: UnsafePointer<Double>,
                                      _ clamp: InteriorClamp, _ o: inout O) -> InteriorAt {
        var (px, py, ax, ay) = at
        let base = cells, stride = self.stride
        while px < end {
            let bx = clamp.x(px.pointee), by = clamp.y(py.pointee)
            if down ? by < ay : by > ay { break }
            if by != ay {
                Self.accumulate(down ? ax : bx, down ? ay : by, down ? bx : ax, down ? by : ay, down ? 1 : -1,
                                cells: base, stride: stride, height: height, &o)
            }
            ax = bx
            ay = by
            px += 1
            py += 1
        }
        return (px, py, ax, ay)
    }

    /// Adds the directed edge (ax, ay) -> (bx, by) given in plane coordinates.
    @inline(__always)
    func addEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        var none = NoCellObserver()
        addEdge(ax, ay, bx, by, observer: &none)
    }

    /// ``addEdge(_:_:_:_:)`` reporting the edge's walk to `o` (and depositing its areas only
    /// when `O.deposits`).
    @inline(__always)
    func addEdge<O: CellObserver>(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                  observer o: inout O) {
        var x0 = ax - originX, y0 = ay - originY
        var x1 = bx - originX, y1 = by - originY
        if y0 == y1 {
            o.horizontal(xa: x0, xb: x1, y: y0)
            return
        }
        var dir = 1.0
        if y0 > y1 {
            swap(&x0, &x1)
            swap(&y0, &y1)
            dir = -1
        }
        let h = Double(height)
        if y1 <= 0 || y0 >= h { return }
        // Clip vertically (interpolating from the original end points).
        let dxdy = (x1 - x0) / (y1 - y0)
        var cx0 = x0, cy0 = y0, cx1 = x1, cy1 = y1
        if y0 < 0 { cx0 = x0 + dxdy * (0 - y0); cy0 = 0 }
        if y1 > h { cx1 = x0 + dxdy * (h - y0); cy1 = h }
        if cy0 >= cy1 { return }
        let w = Double(width)
        if cx0 >= w && cx1 >= w { return }
        if cx0 >= 0 && cx0 <= w && cx1 >= 0 && cx1 <= w {
            accumulate(cx0, cy0, cx1, cy1, dir, &o)
            return
        }
        if cx0 <= 0 && cx1 <= 0 {
            accumulate(0, cy0, 0, cy1, dir, &o)
            return
        }
        // The edge crosses x = 0 and/or x = w: split it where it does, clamp, drop right parts.
        let dydx = (cy1 - cy0) / (cx1 - cx0)
        var splitA = cy1, splitB = cy1
        let crosses0 = (cx0 < 0) != (cx1 < 0)
        let crossesW = (cx0 > w) != (cx1 > w)
        let y0Cross = crosses0 ? Swift.min(cy1, Swift.max(cy0, cy0 + dydx * (0 - cx0))) : cy1
        let yWCross = crossesW ? Swift.min(cy1, Swift.max(cy0, cy0 + dydx * (w - cx0))) : cy1
        splitA = Swift.min(y0Cross, yWCross)
        splitB = Swift.max(y0Cross, yWCross)
        piece(cy0, splitA, cx0, cy0, dxdy, dir, &o)
        piece(splitA, splitB, cx0, cy0, dxdy, dir, &o)
        piece(splitB, cy1, cx0, cy0, dxdy, dir, &o)
    }

    /// The part of the line through (lx, ly) with slope `dxdy` between rows `ya` and `yb`,
    /// clamped into the band horizontally (dropped if right of it).
    @inline(__always)
    private func piece<O: CellObserver>(_ ya: Double, _ yb: Double, _ lx: Double, _ ly: Double,
                                        _ dxdy: Double, _ dir: Double, _ o: inout O) {
        guard yb > ya else { return }
        let w = Double(width)
        let xa = lx + dxdy * (ya - ly), xb = lx + dxdy * (yb - ly)
        // Classify by the midpoint; each piece lies on one side of each clip line.
        let xm = 0.5 * (xa + xb)
        if xm >= w { return }
        if xm <= 0 {
            accumulate(0, ya, 0, yb, dir, &o)
        } else {
            accumulate(Swift.min(Swift.max(xa, 0), w), ya, Swift.min(Swift.max(xb, 0), w), yb, dir, &o)
        }
    }

    /// Accumulates an edge already inside `[0, width] x [0, height]` with `y0 < y1`; `dir` is
    /// +1 for an edge going down in the original polygon, -1 for one going up.
    ///
    /// The common cases are straight-line code: an edge within one row, and an edge across
    /// exactly two rows (split once at the row line); longer edges walk row by row. Every case
    /// splits at the same points and deposits the same values as the row-by-row walk.
    @inline(__always)
    private func accumulate<O: CellObserver>(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                                             _ dir: Double, _ o: inout O) {
        Self.accumulate(x0, y0, x1, y1, dir, cells: cells, stride: stride, height: height, &o)
    }

    /// ``accumulate(_:_:_:_:_:_:)`` into `base` (``cells``) with rows `stride` (``stride``) apart
    /// in a band of `height` rows, read once by a caller walking many edges (the interior walk,
    /// ``RingCellWalk``).
    @inline(__always)
    static func accumulate<O: CellObserver>(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                                            _ dir: Double, cells base: UnsafeMutablePointer<Float>,
                                            stride: Int, height: Int, _ o: inout O) {
        let row0 = Self.truncated(y0)
        let next = Double(row0 &+ 1)
        var p = base + row0 &* stride
        // Within one row exactly when ceil(y1) <= row0 + 1.
        if y1 <= next {
            Self.cellsForRow(p, row0, x0, x1, (y1 - y0) * dir, y0, y1, dir, &o)
            return
        }
        let dxdy = (x1 - x0) / (y1 - y0)
        let lo = Swift.min(x0, x1), hi = Self.larger(x0, x1)
        // Across two rows exactly when ceil(y1) == row0 + 2 (y1 <= height, so ceil(y1) <= height).
        if y1 <= next + 1 {
            let xSplit = Swift.min(Self.larger(x0 + dxdy * (next - y0), lo), hi)
            Self.cellsForRow(p, row0, x0, xSplit, (next - y0) * dir, y0, next, dir, &o)
            Self.cellsForRow(p + stride, row0 &+ 1, xSplit, x1, (y1 - next) * dir, next, y1, dir, &o)
            return
        }
        let last = Swift.min(height, Self.ceiling(y1)) &- 1
        var x = x0, top = y0
        var row = row0
        while row < last {
            let bottom = Double(row &+ 1)
            let xNext = Swift.min(Self.larger(x0 + dxdy * (bottom - y0), lo), hi)
            Self.cellsForRow(p, row, x, xNext, (bottom - top) * dir, top, bottom, dir, &o)
            x = xNext
            top = bottom
            row &+= 1
            p += stride
        }
        Self.cellsForRow(p, last, x, x1, (y1 - top) * dir, top, y1, dir, &o)
    }

    /// `Swift.max(a, b)` for non-NaN values (`b` when they are equal, as `Swift.max` returns),
    /// written so that it compiles to one MAXSD: `Swift.max`'s NaN rule takes four instructions.
    @inline(__always)
    static func larger(_ a: Double, _ b: Double) -> Double {
        a > b ? a : b
    }

    /// `ceil(v)` for finite `|v| < 2^63` without a libm call: truncation rounds toward zero,
    /// so only a positive non-integer needs one more.
    @inline(__always)
    static func ceiling(_ v: Double) -> Int {
        let i = truncated(v)
        return Double(i) < v ? i &+ 1 : i
    }

    /// `floor(v)` for finite `|v| < 2^63` without a libm call: truncation rounds toward zero,
    /// so only a negative non-integer needs one less.
    @inline(__always)
    static func floor(_ v: Double) -> Int {
        let i = truncated(v)
        return Double(i) > v ? i &- 1 : i
    }

    /// `v` truncated toward zero for finite `|v| < 2^63`: one conversion instruction, without
    /// the range checks of `Int(_:)`. The cell walk's coordinates are clipped into the band,
    /// never negative, so there it is `floor(v)`.
    @inline(__always)
    static func truncated(_ v: Double) -> Int {
        Int(CBristleMath_truncate(v))
    }

    /// Deposits one row's slice of an edge running from (xa, ya) to (xb, yb) (x in
    /// `[0, width]`) with signed height `d` (`(yb - ya) * dir`) into the cells `p` of band row
    /// `row`, and reports it to `o`. One cell and two cells are straight-line code; wider
    /// slices add the constant middle cells in a loop.
    @inline(__always)
    private static func cellsForRow<O: CellObserver>(_ p: UnsafeMutablePointer<Float>, _ row: Int,
                                                     _ xa: Double, _ xb: Double,
                                                     _ d: Double, _ ya: Double, _ yb: Double,
                                                     _ dir: Double, _ o: inout O) {
        let xl = Swift.min(xa, xb), xr = larger(xa, xb)
        let il = truncated(xl)
        let xlFloor = Double(il)
        // Within one cell exactly when ceil(xr) <= il + 1.
        if xr <= xlFloor + 1 {
            o.slice(row: row, first: il, last: il, xa: xa, ya: ya, xb: xb, yb: yb, dir: dir)
            guard O.deposits else { return }
            // Within one cell: the area right of the edge is (1 - mean x) per unit height.
            let xm = 0.5 * (xa + xb) - xlFloor
            p[il] += Float(d - d * xm)
            p[il &+ 1] += Float(d * xm)
            return
        }
        // Across two cells exactly when ceil(xr) == il + 2.
        let two = xr <= xlFloor + 2
        let ir = two ? il &+ 2 : ceiling(xr)
        o.slice(row: row, first: il, last: ir &- 1, xa: xa, ya: ya, xb: xb, yb: yb, dir: dir)
        guard O.deposits else { return }
        let xrCeil = Double(ir)
        let s = 1 / (xr - xl)
        let fl = xl - xlFloor
        let a0 = 0.5 * s * (1 - fl) * (1 - fl)
        let fr = xr - xrCeil + 1
        let am = 0.5 * s * fr * fr
        p[il] += Float(d * a0)
        if two {
            p[il &+ 1] += Float(d * (1 - a0 - am))
        } else {
            let a1 = s * (1.5 - fl)
            p[il &+ 1] += Float(d * (a1 - a0))
            let ds = Float(d * s)
            var i = il &+ 2
            while i < ir &- 1 {
                p[i] += ds
                i &+= 1
            }
            let a2 = a1 + Double(ir &- il &- 3) * s
            p[ir &- 1] += Float(d * (1 - a2 - am))
        }
        p[ir] += Float(d * am)
    }
}
