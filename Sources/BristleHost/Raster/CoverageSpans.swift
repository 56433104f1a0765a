import CBristleMath

/// Stage 4 of the pipeline (spans): resolves one accumulated row into 8-bit coverage.
///
/// For each pixel the prefix sum of the row's cells is the signed covered area; the fill rule
/// maps it to coverage in `[0, 1]`, which is quantised to `0...255` rounding to nearest (ties to
/// even). The row's cells are zeroed as they are read (keeping ``CoverageAccumulator``'s
/// invariant).
/// The result lives in ``coverage`` (reused scratch, valid until the next `resolve`) together
/// with the half-open range of pixels with non-zero coverage, so later stages skip empty runs.
///
/// Not thread-safe; owned by one ``Rasterizer``.
final class CoverageSpans {
    /// How winding numbers (signed accumulated area) map to coverage.
    enum FillRule {
        /// `min(1, |area|)`: exact for simple polygons and for pixels where winding is constant.
        case nonZero
        /// `|area|` folded with period 2 (0 -> 0, 1 -> 1, 2 -> 0).
        case evenOdd
    }

    /// Coverage of the last resolved row, index = band column.
    private(set) var coverage: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init() {
        capacity = 1024
        coverage = .allocate(capacity: capacity)
        coverage.initialize(repeating: 0, count: capacity)
    }

    deinit {
        coverage.deallocate()
    }

    /// Grows ``coverage`` (zeroed, at least doubling) so it holds `count` values.
    @inline(__always)
    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        coverage.deallocate()
        capacity = Swift.max(count, capacity * 2)
        coverage = .allocate(capacity: capacity)
        coverage.initialize(repeating: 0, count: capacity)
    }

    /// Resolves band row `y` of `acc` into ``coverage`` and returns the columns `lo..<hi` that
    /// hold every non-zero value (`lo >= hi` when the row is empty).
    func resolve(row y: Int, of acc: CoverageAccumulator, rule: FillRule) -> (lo: Int, hi: Int) {
        let w = acc.width
        reserve(w)
        let cells = acc.row(y)
        let out = coverage
        var sum: Float = 0
        var lo = w, hi = 0
        var x = 0
        switch rule {
        case .nonZero:
            while x < w {
                sum += cells[x]
                cells[x] = 0
                let q = Self.quantize(Swift.min(abs(sum), 1))
                out[x] = q
                if q != 0 {
                    if lo > x { lo = x }
                    hi = x &+ 1
                }
                x &+= 1
            }
        case .evenOdd:
            while x < w {
                sum += cells[x]
                cells[x] = 0
                var c = abs(sum)
                c -= 2 * (c * 0.5).rounded(.down)
                if c > 1 { c = 2 - c }
                let q = Self.quantize(Swift.min(c, 1))
                out[x] = q
                if q != 0 {
                    if lo == w { lo = x }
                    hi = x + 1
                }
                x += 1
            }
        }
        cells[w] = 0
        cells[w &+ 1] = 0
        return (lo, hi)
    }

    /// One step of the run resolves (nonzero rule): adds cell `x` to the prefix `sum`, clears it,
    /// and returns its coverage `q` with the end of the stretch that keeps it: `x + 1` plus the
    /// zero cells that follow (read only in the blocks `bits` marks; see ``TouchedBlocks``).
    @inline(__always)
    static func stretch(at x: Int, of cells: UnsafeMutablePointer<Float>, sum: inout Float, width w: Int,
                        bits: UInt64, shift: Int) -> (q: UInt8, end: Int) {
        sum += cells[x]
        cells[x] = 0
        let q = quantize(Swift.min(abs(sum), 1))
        var end = x &+ 1
        if end < w && cells[end].bitPattern == 0 {
            end = TouchedBlocks.zeroRunEnd(cells, from: end, width: w, bits: bits, shift: shift)
        }
        return (q, end)
    }

    /// Resolves band row `y` of `acc` (nonzero rule) as runs handed to `emit(lo, hi, m)` in
    /// left-to-right order: `m == 0` for pixels `lo..<hi` whose coverage is in ``coverage``
    /// (each non-zero except possibly inside), `m > 0` for `lo..<hi` all of coverage `m` (a
    /// stretch of at least `minimumRun` zero cells after a pixel). Pixels of zero coverage
    /// followed by zero cells are skipped without a prefix sum, and only the blocks of cells
    /// `bits` marks are read (``TouchedBlocks``: bit `b` for cells `b << shift ..< (b + 1) <<
    /// shift`; a clear bit's cells must be zero). Returns the columns `lo..<hi` holding every
    /// non-zero coverage.
    @inline(__always)
    func resolveRuns(row y: Int, of acc: CoverageAccumulator, bits: UInt64, shift: Int, minimumRun: Int,
                     _ emit: (Int, Int, UInt8) -> Void) -> (lo: Int, hi: Int) {
        let w = acc.width
        // Eight bytes of slack past the row: short stretches are stored eight bytes at once.
        reserve(w &+ 8)
        let cells = acc.row(y)
        let out = coverage
        var sum: Float = 0
        var lo = w, hi = 0
        var start = -1  // first pixel of the pending coverage row, -1 when none
        var x = 0
        while x < w {
            let px = x
            let (q, end) = Self.stretch(at: px, of: cells, sum: &sum, width: w, bits: bits, shift: shift)
            if q == 0 {
                if start >= 0 { emit(start, px, 0); start = -1 }
                x = end
                continue
            }
            if lo > px { lo = px }
            hi = end
            if end &- px > minimumRun {
                if start >= 0 { emit(start, px, 0); start = -1 }
                emit(px, end, q)
            } else {
                if start < 0 { start = px }
                if end &- px <= 8 {
                    // Past `end` the bytes are rewritten by the pixels that follow (or never
                    // handed on).
                    UnsafeMutableRawPointer(out + px).storeBytes(of: UInt64(q) &* 0x0101_0101_0101_0101,
                                                                 as: UInt64.self)
                } else {
                    var i = px
                    while i < end { out[i] = q; i &+= 1 }
                }
            }
            x = end
        }
        if start >= 0 { emit(start, hi, 0) }
        cells[w] = 0
        cells[w &+ 1] = 0
        return (lo, hi)
    }

    /// ``resolveRuns(row:of:bits:shift:minimumRun:_:)`` composited at once, source-over at full
    /// opacity, onto `pixels` (the RGBA8 pixel of band column 0): the pixels a coverage row
    /// would hold are blended one by one with `over` (no coverage buffer, no call per stretch),
    /// the constant runs go to `run(lo, hi, m)`. The same bytes as handing the runs to a
    /// ``CoverageSink/solid(_:_:)`` sink. Returns the columns `lo..<hi` with non-zero coverage.
    @inline(__always)
    func resolveOverRuns(row y: Int, of acc: CoverageAccumulator, bits: UInt64, shift: Int,
                         minimumRun: Int, onto pixels: UnsafeMutablePointer<UInt8>,
                         over: SpanCompositor.OverPixel, run: (Int, Int, UInt8) -> Void) -> (lo: Int, hi: Int) {
        let w = acc.width
        let cells = acc.row(y)
        let words = UnsafeMutableRawPointer(pixels)
        var sum: Float = 0
        var lo = w, hi = 0
        var x = 0
        while x < w {
            let px = x
            let (q, end) = Self.stretch(at: px, of: cells, sum: &sum, width: w, bits: bits, shift: shift)
            x = end
            if q == 0 { continue }
            Self.composite(px, end, q, lo: &lo, hi: &hi, minimumRun: minimumRun, words: words, over: over, run: run)
        }
        cells[w] = 0
        cells[w &+ 1] = 0
        return (lo, hi)
    }

    /// ``resolveOverRuns(row:of:bits:shift:minimumRun:onto:over:run:)`` for blocks of at most
    /// 64 cells (`shift <= TouchedBlocks.maskShift`), in C (``CBristleOverBlocks_row``): each
    /// marked block's non-zero cells are found at once as bits and the row is walked from one
    /// non-zero cell to the next by bit scans, so a stretch's end costs no search and no
    /// mispredicted loop exit, only the move to the next marked block does (about once per
    /// block); the stretches only write their coverage into ``coverage``, and each cluster of
    /// covered pixels is blended at once, four pixels per SSE2 step. The same pixels, byte for
    /// byte, and the same `lo..<hi` as ``resolveOverRuns(row:of:bits:shift:minimumRun:onto:over:run:)``
    /// with its constant runs handed to a ``CoverageSink/solid(_:_:)`` sink, for a solid
    /// source-over `paint` (its ``SpanCompositor/Source/channelLanes``) at full opacity.
    @inline(__always)
    func resolveOverBlocks(row y: Int, of acc: CoverageAccumulator, bits: UInt64, shift: Int,
                           onto pixels: UnsafeMutablePointer<UInt8>,
                           paint: CBristleOverBlocks_Paint) -> (lo: Int, hi: Int) {
        let w = acc.width
        reserve(w &+ 8)
        let span = CBristleOverBlocks_row(acc.row(y), w, bits, shift, pixels, coverage, paint)
        return (span.lo, span.hi)
    }

    /// The stretch `[from, to)` of coverage `q` (not 0) of ``resolveOverRuns(row:of:bits:shift:minimumRun:onto:over:run:)``: longer than
    /// `minimumRun` pixels through `run`, otherwise blended pixel by pixel; `lo` and `hi`
    /// widened to it.
    @inline(__always)
    private static func composite(_ from: Int, _ to: Int, _ q: UInt8, lo: inout Int, hi: inout Int,
                                  minimumRun: Int, words: UnsafeMutableRawPointer,
                                  over: SpanCompositor.OverPixel, run: (Int, Int, UInt8) -> Void) {
        if lo > from { lo = from }
        hi = to
        if to &- from > minimumRun {
            run(from, to, q)
        } else {
            let m = UInt32(q)
            var i = from
            while i < to {
                over.apply(words + 4 &* i, m)
                i &+= 1
            }
        }
    }

    /// Resolves `rows` consecutive band rows (nonzero rule) through their ``RowWindows`` and
    /// composites them at once, source-over at full opacity, onto their pixels: row `r`'s cells
    /// (`w + 2` of them, `w` the band's width) at `cells + r * cellStride`, its record at
    /// `bounds + 4 * r` (`nil`: every row resolved over the band's whole width), its RGBA8 pixels (band column 0) at `pixels + r * pixelStride` (bytes);
    /// `colour` is the paint's ``SpanCompositor/Source/channelLanes``. The same pixels as
    /// ``resolve(row:of:rule:)`` followed by ``SpanCompositor/blendRow(_:coverage:count:source:)``,
    /// byte for byte, without a coverage buffer: `CBristleResolveOver_rows` (C, SSE2), dense from
    /// each row's lowest written cell to its highest (the cells between its windows are zero, so
    /// there is no stretch to find), four pixels per step with no branch on the coverage; the
    /// prefix sum added cell by cell in this type's order. Zeroes the cells read and each row's two
    /// cells past its last pixel. A function of its own, called once per band (the row loop's
    /// pointers stay in registers). Returns the columns `lo..<hi` holding every non-zero coverage
    /// of the rows and the first and last row holding any (`first > last` when none does).
    @inline(never)
    static func resolveOver(rows h: Int, cells: UnsafeMutablePointer<Float>, cellStride: Int, width w: Int,
                            bounds: UnsafeMutablePointer<Int>?, onto pixels: UnsafeMutablePointer<UInt8>,
                            pixelStride: Int, colour: UInt64)
        -> (lo: Int, hi: Int, first: Int, last: Int) {
        let box = CBristleResolveOver_rows(h, cells, cellStride, w, bounds, pixels, pixelStride, colour)
        return (box.lo, box.hi, box.first, box.last)
    }

    /// The widest band a mask resolves over its whole width, four rows at a time, with no
    /// ``RowWindows`` recorded: the cell walk then records nothing, and the rows of a capsule this
    /// narrow span most of the band anyway.
    static let maskDenseWidth = Int(CBRISTLE_RESOLVE_MAX_DENSE_WIDTH)

    /// Resolves rows `0 ..< h` of a band (nonzero rule) straight into a mask with max
    /// (`mask[x] = max(mask[x], coverage)`), then zeroes the band's cells:
    /// ``CBristleResolveMax_rows`` (inline C, SSE2). `cells` are the band's (row `r` at
    /// `cells + r * cellStride`, `width + 2` cells, with the accumulator's
    /// ``CoverageAccumulator/padding`` readable past the last row), `mask` the byte of band
    /// column 0 in row 0 (rows `maskStride` bytes apart, `room` bytes from there to a row's end, at
    /// least `width`). Every row is summed in order, so every byte is the coverage
    /// ``resolve(row:of:rule:)`` gives, and resolved densely, with no branch on the cells' values
    /// and no search for runs: a band at most ``maskDenseWidth`` pixels wide over its whole width,
    /// four rows at a time (one row per SIMD lane, four columns per step; `bounds` is not read
    /// and may be nil); a wider one row by row through its ``RowWindows`` record `bounds`
    /// (required), eight cells per step from the row's lowest window cell, a gap of more than 32
    /// cells between the two windows left to a run of one value (``CBristleComposite_maxRun``), as
    /// is the row past its last window. Returns the columns `lo ..< hi` with non-zero coverage and
    /// the first and last rows holding some (`first > last` when none).
    @inline(__always)
    static func resolveMax(rows h: Int, cells: UnsafeMutablePointer<Float>, cellStride: Int, width: Int,
                           bounds: UnsafeMutablePointer<Int>?, into mask: UnsafeMutablePointer<UInt8>,
                           maskStride: Int, room: Int) -> (lo: Int, hi: Int, first: Int, last: Int) {
        let e = CBristleResolveMax_rows(cells, cellStride, width, bounds, h, mask, maskStride, room)
        return (e.lo, e.hi, e.first, e.last)
    }

    /// `c * 255` rounded to the nearest integer (ties to even) for `c` in `[0, 1]`, without a
    /// checked float-to-integer conversion: adding 2^23 leaves the rounded value in the low
    /// mantissa bits.
    @inline(__always)
    static func quantize(_ c: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (c * 255 + 8_388_608).bitPattern)
    }
}
