import CBristleMath

/// The shape services' own pipeline state, owned by one ``Rasterizer`` (not thread-safe):
/// an accumulator and span resolver (stages 3 and 4), the contour path being built, and row
/// buffers. Everything grows on demand and is reused, so
/// drawing allocates nothing once the buffers have reached the largest shape drawn.
final class ShapeScratch {
    let accumulator = CoverageAccumulator()
    let spans = CoverageSpans()
    /// The exact fill's trouble cells (``fill(clip:sink:exact:)``).
    let overlaps = OverlapCells()
    /// The blocks of accumulator cells the fill wrote, row by row.
    let blocks = TouchedBlocks()
    /// The path's edges grouped by band, for a fill taller than one band.
    let bands = EdgeBands()
    var path = ContourPath()
    var ellipse = EllipseFlattener()
    /// The flattener of a stroked ring's outer contour (``ellipse`` flattens its inner one),
    /// whose quadrant ``RingRows`` reads beside the inner's.
    var outerEllipse = EllipseFlattener()
    /// The paint's source-over constants for the plain fill's solid rows.
    let overTable = OverTable()
    /// Sum of the bytes read ahead by ``CoverageSink/touch(_:_:)`` (kept only so the reads
    /// happen; never used).
    var touched: UInt8 = 0
    /// The length of the pieces the next exact fill cuts the outline into to find the parts
    /// that can meet (``MeetingPieces``; about the stroke's width): it changes the fill's
    /// speed, never its output. Infinite (the default): no search, every edge observed. The
    /// stroker sets it before each exact fill.
    var pieceLength = Double.infinity
    /// Points of the polyline or dash being stroked.
    var px: [Double] = []
    var py: [Double] = []
    /// Points of a flattened ellipse being stroked.
    var ex: [Double] = []
    var ey: [Double] = []
    private(set) var line: UnsafeMutablePointer<UInt8>
    private var lineCapacity = 256
    private var doubles: UnsafeMutablePointer<Double>
    private var doublesCapacity = 1024
    private var zeroes: UnsafeMutablePointer<Int>
    private var zeroesCapacity = 1024
    private var dashPoints: UnsafeMutablePointer<Double>
    private var dashPointsCapacity = 1024

    init() {
        line = Self.zeroed(lineCapacity)
        doubles = Self.zeroed(doublesCapacity)
        zeroes = Self.zeroed(zeroesCapacity)
        dashPoints = Self.zeroed(dashPointsCapacity)
        path.reserve(1024)
        px.reserveCapacity(256)
        py.reserveCapacity(256)
    }

    deinit {
        line.deallocate()
        doubles.deallocate()
        zeroes.deallocate()
        dashPoints.deallocate()
    }

    /// A row buffer of at least `count` bytes (contents unspecified).
    func lineBuffer(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > lineCapacity { (line, lineCapacity) = Self.grown(line, lineCapacity, to: count) }
        return line
    }

    /// A buffer of at least `count` doubles (contents unspecified).
    func doubleBuffer(_ count: Int) -> UnsafeMutablePointer<Double> {
        if count > doublesCapacity { (doubles, doublesCapacity) = Self.grown(doubles, doublesCapacity, to: count) }
        return doubles
    }

    /// A buffer of at least `count` integers, all zero: its user leaves them zero
    /// (``RingRows``' row tables).
    func zeroedInts(_ count: Int) -> UnsafeMutablePointer<Int> {
        if count > zeroesCapacity { (zeroes, zeroesCapacity) = Self.grown(zeroes, zeroesCapacity, to: count) }
        return zeroes
    }

    /// A buffer of at least `count` doubles (contents unspecified) for ``Dasher``'s points: the
    /// dash being built and a closed path's first dash, held until the last dash joins it.
    /// Separate from ``doubleBuffer(_:)``, which the stroker fills while the dasher holds this one.
    func dashBuffer(_ count: Int) -> UnsafeMutablePointer<Double> {
        if count > dashPointsCapacity { (dashPoints, dashPointsCapacity) = Self.grown(dashPoints, dashPointsCapacity, to: count) }
        return dashPoints
    }

    /// `count` elements, all zero.
    private static func zeroed<T: Numeric>(_ count: Int) -> UnsafeMutablePointer<T> {
        let buffer = UnsafeMutablePointer<T>.allocate(capacity: count)
        buffer.initialize(repeating: 0, count: count)
        return buffer
    }

    /// Frees `buffer` (of `capacity` elements, fewer than `count`) and returns a zeroed one of
    /// at least `count` elements with its capacity, at least doubling, so growing requests
    /// reallocate once per size class; the old contents are not kept. Returned rather than
    /// passed `inout`: an `inout` access to the scratch's properties would make every read of
    /// them a run-time exclusivity check.
    private static func grown<T: Numeric>(_ buffer: UnsafeMutablePointer<T>, _ capacity: Int,
                                          to count: Int) -> (UnsafeMutablePointer<T>, Int) {
        buffer.deallocate()
        let size = Swift.max(count, 2 * capacity)
        return (zeroed(size), size)
    }

    /// The most cells a band of the exact fill holds (512 KiB): the walk writes a stroke's
    /// cells all over its band in the path's order, long before the resolve reads them, so the
    /// band is kept small enough to stay in the second-level cache.
    static let exactBandCells = 1 << 17

    /// Fills ``path`` (nonzero) inside `clip` into `sink`: exact-area coverage, banded like
    /// the rasteriser's own driver. Returns the rectangle of pixels given non-zero coverage.
    ///
    /// Rows are resolved in runs (``CoverageSpans/resolveRuns(row:of:bits:shift:minimumRun:_:)``): pixels
    /// of varying coverage go to the sink as coverage rows, a long stretch of one coverage (a
    /// run of zero cells) as one constant run, and stretches of zero coverage are skipped, so
    /// a large outline costs its edges, its interior runs and one read of each empty cell.
    ///
    /// `exact`: the pixels where pieces of the outline overlap (where the clamped sum of
    /// areas over-covers) get the exact area of the union instead (``OverlapCells``): the
    /// fill of a stroke's outline, whose pieces overlap wherever the path does.
    /// The exact fill looks for the parts of the outline that can meet in pieces of
    /// ``pieceLength``.
    ///
    /// Into a mask that records raised cells, rows without such pixels are resolved and
    /// max-combined in one pass (``RaisedCells/resolveMax(row:of:bits:shift:into:y:x0:)``);
    /// a solid source-over paint at full opacity is composited as the rows are resolved
    /// (``CoverageSpans/resolveOverRuns(row:of:bits:shift:minimumRun:onto:over:run:)``; the
    /// exact fill's other rows by ``CoverageSpans/resolveOverBlocks(row:of:bits:shift:onto:paint:)``,
    /// which reads each marked block's non-zero cells as bits, when its blocks have at most 64
    /// cells; its rows with trouble cells through a coverage row, ``patchedRow(_:y:x0:bits:shift:sink:)``),
    /// the exact fill prefetching the pixels and cells of the blocks marked two rows below.
    ///
    /// `hole`: the centre of the last contour ``ellipse`` flattened, when that contour is a
    /// hole with no other edge inside it (a stroked ring's inner side): each row skips the
    /// blocks of cells wholly inside it (``EllipseFlattener/halfWidth(atDistance:)``) unread.
    func fill(clip: PixelRect, sink: CoverageSink, exact: Bool = false,
              hole: (x: Double, y: Double)? = nil) -> PixelRect {
        guard path.count >= 3 else { return .empty }
        let box = PixelRect.covering(minX: path.minX, minY: path.minY, maxX: path.maxX,
                                     maxY: path.maxY, clip: clip)
        guard !box.isEmpty else { return .empty }
        let x0 = Int(box.x), w = Int(box.width)
        let bandRows = Swift.max(1, (exact ? Self.exactBandCells : CoverageAccumulator.maxCells) / (w + 2))
        var dirty = DirtyBox()
        var top = Int(box.y)
        let bottom = Int(box.maxY)
        // Taller than one band: each band walks only the edges that reach it.
        let banded = bottom - top > bandRows
        if banded { bands.build(path: path, top: top, rows: bottom - top, bandRows: bandRows) }
        var band = 0
        while top < bottom {
            let h = Swift.min(bandRows, bottom - top)
            accumulator.begin(originX: x0, originY: top, width: w, height: h)
            blocks.begin(width: w, height: h)
            if exact {
                addExactEdges(originX: x0, originY: top, width: w, height: h, band: banded ? band : nil)
            } else if banded {
                addPlainEdges(band: band)
            } else if path.minX >= Double(x0), path.maxX <= Double(x0 + w), path.minY >= Double(top),
                      path.maxY <= Double(top + h) {
                // Wholly inside the band (a ring on the canvas): no clipping, the same deposits.
                path.addInteriorEdges(to: accumulator)
            } else {
                path.addEdges(to: accumulator)
            }
            band += 1
            // The plain fill marks no blocks (on a ring's hole the marking costs what the
            // skipping saves): its rows are one block, read whole, but for a known hole.
            if !exact, let hole { markHole(center: hole, top: top, rows: h, originX: x0, width: w) }
            let marked = exact || hole != nil
            let shift = marked ? blocks.shift : TouchedBlocks.wholeRow.shift
            if case .solid(let plane, let source) = sink, source.blend == .sourceOver,
               source.opacity == 65536 {
                let over = SpanCompositor.OverPixel(source, table: overTable.prepare(source))
                // Most constant runs are the stroke's inside: prepared once.
                let full = SolidRun(source: source, c: 255)
                let paint = CBristleOverBlocks_Paint(colour: source.channelLanes)
                var ahead: UInt8 = 0
                // The exact fill's blocks of at most 64 cells: read as bits of non-zero cells.
                let masked = exact && shift <= TouchedBlocks.maskShift
                for r in 0..<h {
                    let y = top + r
                    if exact && r &+ 2 < h {
                        prefetch(row: r &+ 2, plane: plane, y: y &+ 2, x0: x0, width: w, shift: shift)
                    }
                    let bits = marked ? blocks.take(row: r) : TouchedBlocks.wholeRow.bits
                    let run = { (lo: Int, hi: Int, m: UInt8) in
                        if m == 255 {
                            full.apply(plane.row(y) + 4 &* (x0 &+ lo), count: hi &- lo)
                        } else {
                            sink.run(y, x0 + lo, hi - lo, m)
                        }
                    }
                    let span = exact && overlaps.hasTrouble(row: r)
                        ? patchedRow(r, y: y, x0: x0, bits: bits, shift: shift, sink: sink)
                        : masked
                        ? spans.resolveOverBlocks(row: r, of: accumulator, bits: bits, shift: shift,
                                                  onto: plane.row(y) + 4 &* x0, paint: paint)
                        : spans.resolveOverRuns(row: r, of: accumulator, bits: bits, shift: shift,
                                                minimumRun: 8, onto: plane.row(y) + 4 &* x0,
                                                over: over, run: run)
                    guard span.lo < span.hi else { continue }
                    dirty.add(row: y, lo: x0 + span.lo, hi: x0 + span.hi)
                    // The row two below likely starts and ends near this one's span: read one
                    // pixel at each end so its cache lines are on their way (as the shapes'
                    // analytic paths do; the hardware prefetches only within a row).
                    let next = Swift.min(y + 2, bottom - 1)
                    ahead &+= sink.touch(next, x0 + span.lo) &+ sink.touch(next, x0 + span.hi - 1)
                }
                touched &+= ahead
                top += h
                continue
            }
            for r in 0..<h {
                let y = top + r
                let bits = marked ? blocks.take(row: r) : TouchedBlocks.wholeRow.bits
                let patched = exact && overlaps.hasTrouble(row: r)
                if !patched, case .mask(let mask, let raised?) = sink {
                    let span = raised.resolveMax(row: r, of: accumulator, bits: bits, shift: shift,
                                                 into: mask.row(y) + x0, y: y, x0: x0)
                    dirty.add(row: y, lo: x0 + span.lo, hi: x0 + span.hi)
                    continue
                }
                let span = patched
                    ? patchedRow(r, y: y, x0: x0, bits: bits, shift: shift, sink: sink)
                    : spans.resolveRuns(row: r, of: accumulator, bits: bits, shift: shift,
                                        minimumRun: 8) { lo, hi, m in
                        Self.send(lo, hi, m, y: y, x0: x0, coverage: spans.coverage, to: sink)
                    }
                guard span.lo < span.hi else { continue }
                dirty.add(row: y, lo: x0 + span.lo, hi: x0 + span.hi)
            }
            top += h
        }
        return dirty.rect
    }

    /// Asks, without waiting, for the cells of band row `r` in the blocks ``blocks`` marks and
    /// for the pixels under them (plane row `y`, band column 0 at plane column `x0`), with the
    /// intent to write (``CBristleOverBlocks_prefetch``): a long thin stroke's rows touch a few
    /// scattered blocks each, which the hardware's prefetchers (within a row, in order) do not
    /// foresee. Called two rows ahead.
    @inline(__always)
    private func prefetch(row r: Int, plane: RGBAPlane, y: Int, x0: Int, width w: Int, shift: Int) {
        CBristleOverBlocks_prefetch(accumulator.row(r), blocks.bits(row: r), shift, w, plane.row(y) + 4 &* x0)
    }

    /// Hands the run `lo..<hi` of band columns (row `y`, band column 0 at plane column `x0`)
    /// that ``CoverageSpans/resolveRuns(row:of:bits:shift:minimumRun:_:)`` emitted to `sink`:
    /// `m == 0`, the coverages in `coverage`; else the constant coverage `m`.
    @inline(__always)
    private static func send(_ lo: Int, _ hi: Int, _ m: UInt8, y: Int, x0: Int,
                             coverage: UnsafeMutablePointer<UInt8>, to sink: CoverageSink) {
        if m == 0 {
            sink.row(y, x0 + lo, UnsafePointer(coverage + lo), hi - lo)
        } else {
            sink.run(y, x0 + lo, hi - lo, m)
        }
    }

    /// Resolves band row `r` (plane row `y`) of an exact fill that holds trouble cells into
    /// `sink`, their exact areas in place of the accumulated ones (``OverlapCells/emit(row:_:_:_:coverage:_:)``);
    /// returns the columns `lo..<hi` with non-zero accumulated coverage. Kept out of line: few
    /// rows hold trouble cells.
    @inline(never)
    private func patchedRow(_ r: Int, y: Int, x0: Int, bits: UInt64, shift: Int,
                            sink: CoverageSink) -> (lo: Int, hi: Int) {
        spans.resolveRuns(row: r, of: accumulator, bits: bits, shift: shift, minimumRun: 8) { lo, hi, m in
            overlaps.emit(row: r, lo, hi, m, coverage: spans.coverage) { lo, hi, m in
                Self.send(lo, hi, m, y: y, x0: x0, coverage: spans.coverage, to: sink)
            }
        }
    }

    /// Adds the edges ``bands`` holds for `band` to the accumulator (kept out of ``fill(clip:sink:exact:)``,
    /// whose row loop compiles as without it).
    @inline(never)
    private func addPlainEdges(band: Int) {
        bands.withRuns(band: band) { runs in
            var none = NoCellObserver()
            path.addEdges(runs, to: accumulator, observer: &none)
        }
    }

    /// Marks in ``blocks`` the blocks of band rows `0..<rows` (plane rows `top...`) to read
    /// when the last contour of ``ellipse``, centred at `center`, is a hole: every block but
    /// those wholly inside the hole's part of the row, with a margin of one cell past the cells
    /// its edges' slices write (each slice writes the cells it crosses and the one after).
    ///
    /// The hole's part of a row: the contour is convex (no cusps; a trimmed inner body's
    /// corners lie on an axis) and symmetric, so within the row it lies at least as far from
    /// the centre's vertical as it does at the row's side farther from the centre, at height
    /// `d`, where its chord between the quadrant's vertices
    /// k and k + 1 (`qy[k] < d <= qy[k + 1]`) lies at least `qx[k + 1]` from it. (The vertices
    /// the culling leapt over lie outside the cull rectangle, where the real chord is inside
    /// the curve: the width is only smaller there, and those rows are outside the band.)
    private func markHole(center: (x: Double, y: Double), top: Int, rows: Int, originX: Int,
                          width w: Int) {
        let shift = blocks.shift
        let blockCount = ((w &+ 1) >> shift) &+ 1
        let all: UInt64 = blockCount >= 64 ? .max : (1 << UInt64(blockCount)) &- 1
        let marker = blocks.marker
        let cx = center.x - Double(originX), cy = center.y
        ellipse.withQuadrant { qx, qy in
            let m = qy.count &- 1
            var k = 0  // the chord from vertex k to k + 1 reaches height d (k < m)
            for r in 0..<rows {
                let y = Double(top &+ r)
                let d = Swift.max(cy - y, y + 1 - cy)
                var bits = all
                if m >= 1 && d < qy[m] {
                    while k > 0 && qy[k] >= d { k &-= 1 }
                    while qy[k &+ 1] < d { k &+= 1 }
                    let half = qx[k &+ 1]
                    // Truncation is the floor wherever it matters (end >= 8 below); cells 0
                    // and 1 may hold the edges left of the band, moved onto its left side.
                    let first = Swift.max(CoverageAccumulator.truncated(cx - half) &+ 3, 2)
                    let end = Swift.min(CoverageAccumulator.truncated(cx + half) &- 1, w)
                    let a = (first &+ (1 << shift) &- 1) >> shift, b = end >> shift
                    if b > a && a < 64 {
                        let below: UInt64 = b >= 64 ? .max : (1 << UInt64(b)) &- 1
                        bits &= ~(below & ~((1 << UInt64(a)) &- 1))
                    }
                }
                marker.set(row: r, bits)
            }
        }
    }

    /// Adds ``path``'s edges to the accumulator's band (pass 1 of ``OverlapCells``) and
    /// computes the exact areas of the pixels where pieces of it overlap; `band`: only the
    /// edges ``bands`` holds for that band (nil: every edge, the fill's one band).
    private func addExactEdges(originX: Int, originY: Int, width w: Int, height h: Int, band: Int?) {
        if (band ?? 0) == 0 {  // the first band: once per fill, for all its rows
            let bottom = band == nil ? originY + h : bands.bottom
            overlaps.prepare(path: path, pieceLength: pieceLength, columns: originX...(originX + w),
                             rows: originY...(bottom - 1))
        }
        overlaps.begin(originX: originX, originY: originY, width: w, height: h)
        var tracker = overlaps.tracker(edges: path.count, blocks: blocks.marker)
        if let band {
            bands.withRuns(band: band) { overlaps.addEdges(of: path, $0, to: accumulator, &tracker) }
        } else {
            overlaps.addEdges(of: path, nil, to: accumulator, &tracker)
        }
        overlaps.finish(path: path, accumulator: accumulator, blocks: blocks, &tracker)
    }
}
