/// A stroked ring's rows resolved only where its contours are: the fill of a flattened ring
/// (an outer contour and, when there is a hole, an inner one, each convex and symmetric about
/// both axes through the centre, as ``EllipseFlattener`` makes them) whose cells are
/// accumulated as ``ShapeScratch/fill(clip:sink:exact:hole:)`` accumulates them, with each row
/// read only in the windows of cells its edges can have written.
///
/// Per row and contour, the quadrant's vertices bracketing the row's distances from the
/// centre's horizontal give the contour's x range over the row: on each side, between the
/// vertex just inside the row's far side (the narrowest) and the one just outside its near side
/// (the widest); one range across the centre when the row reaches the contour's top or bottom.
/// Every edge slice of the row lies in those ranges, and writes the cells from its left
/// column to the one after its right column. So the cells outside the (up to four, merged)
/// windows are zero: between two windows the prefix sum, hence the coverage, is the one at the
/// first window's end (the ring's wall covered for the row's whole height, a constant run),
/// and the hole between the inner windows and the row outside the outer ones are neither read
/// nor written. The prefix sums are the same `Float` additions in the same order as reading
/// the whole row, so the coverage is byte for byte the general fill's.
///
/// A ring crossing the target's sides is accumulated with the general fill's clipping (its
/// culled vertices, the chords replacing them, lie beyond a side, within the quadrant's
/// bounds), and its windows are clipped the way the accumulator clips edges. Used for a solid
/// source-over paint at full opacity and a ring in one band (coordinates below 2^24);
/// otherwise the general fill draws it.
enum RingRows {
    /// Row distances are widened by this before choosing the bracketing vertices (the
    /// vertices' plane coordinates and the row's distance from the centre round apart by a few
    /// ulps).
    static let slack = 1e-7

    /// Fills the ring whose contours ``ShapeScratch/path`` holds, flattened by `outer` and
    /// (when there is a hole) `inner` around `(cx, cy)`, into the solid `sink`; nil when the
    /// ring is not one this path draws (see the type's summary), the sink untouched.
    static func fill(scratch s: ShapeScratch, outer: EllipseFlattener, inner: EllipseFlattener?,
                     cx: Double, cy: Double, clip: PixelRect, sink: CoverageSink) -> PixelRect? {
        guard case .solid(let plane, let source) = sink, source.blend == .sourceOver,
              source.opacity == 65536 else { return nil }
        let path = s.path
        // Vertices (culled ones too) below 2^24 in magnitude: their rounding stays far below
        // the slack.
        let extent = outer.withQuadrant { ox, oy in
            ox.isEmpty ? .infinity : Swift.max(abs(cx) + ox[0], abs(cy) + oy[oy.count &- 1])
        }
        guard path.count >= 3, extent < 0x1p24 else { return nil }
        let box = PixelRect.covering(minX: path.minX, minY: path.minY, maxX: path.maxX,
                                     maxY: path.maxY, clip: clip)
        guard !box.isEmpty else { return .empty }
        let x0 = Int(box.x), w = Int(box.width), top = Int(box.y), h = Int(box.height)
        guard (w &+ 2) &* h <= CoverageAccumulator.maxCells else { return nil }
        let acc = s.accumulator
        acc.begin(originX: x0, originY: top, width: w, height: h)
        accumulate(path, outer: outer, inner: inner, to: acc, originX: x0, originY: top)
        let quads = s.overTable.prepareQuads(source)
        let cov = s.lineBuffer(w &+ 32)
        // Four tables of h + 2 counts (``Contour``): the outer's and the inner's, zero again
        // once the rows are drawn.
        let slots = h &+ 2, counts = s.zeroedInts(4 &* slots)
        let rows = Rows(top: top, height: h, cy: cy)
        return outer.withQuadrant { ox, oy in
            let outside = Contour(ox, oy, cx: cx, originX: x0, rows: rows, counts: counts)
            guard let inner else {
                let empty = UnsafeBufferPointer<Double>(start: nil, count: 0)
                let none = Contour(empty, empty, cx: cx, originX: x0, rows: rows, counts: counts + 2 &* slots)
                return fillRows(acc, top: top, outside, none, plane: plane, coverage: cov,
                                quads: quads, sink: sink)
            }
            return inner.withQuadrant { ix, iy in
                let hole = Contour(ix, iy, cx: cx, originX: x0, rows: rows, counts: counts + 2 &* slots)
                return fillRows(acc, top: top, outside, hole, plane: plane, coverage: cov,
                                quads: quads, sink: sink)
            }
        }
    }

    /// Accumulates the ring's contours (`path`, flattened by `outer` and `inner`) into the
    /// band just begun in `acc`, whose plane origin is `(originX, originY)`: the general
    /// fill's deposits, bit for bit, through ``RingCellWalk``: inside the band unclipped (as
    /// ``ContourPath/addInteriorEdges(to:)``), else clipped to it (as
    /// ``ContourPath/addEdges(to:)``). Returns the walk taken (for tests; callers ignore it).
    @discardableResult
    static func accumulate(_ path: ContourPath, outer: EllipseFlattener, inner: EllipseFlattener?,
                           to acc: CoverageAccumulator, originX x0: Int, originY top: Int) -> Walk {
        // The safety net the general walk's clamps into the band used to give (a NaN or huge
        // vertex could not index outside it): ``RingCellWalk``'s interior walk has no clamps,
        // and relies on the caller's checked input, finite vertices below 2^24 in magnitude
        // (``fill``'s extent guard). The box ignores a NaN vertex (min and max skip it), hence
        // the vertices' own test. Debug builds only (`assert`).
        assert(Swift.max(-path.minX, path.maxX, -path.minY, path.maxY) < 0x1p24
                   && path.minX.isFinite && path.minY.isFinite
                   && !path.xs.contains(where: \.isNaN) && !path.ys.contains(where: \.isNaN),
               "RingRows.accumulate: ring box \(path.minX)...\(path.maxX) x \(path.minY)...\(path.maxY) not finite, past 2^24 or with a NaN vertex")
        if path.minX >= Double(x0), path.maxX <= Double(x0 &+ acc.width), path.minY >= Double(top),
           path.maxY <= Double(top &+ acc.height) {
            return addInterior(path, outer: outer, inner: inner, to: acc, originX: x0, originY: top)
        } else {
            RingCellWalk.addClipped(path, to: acc, originX: x0, originY: top)
            return .clipped
        }
    }

    /// The cell walk ``accumulate(_:outer:inner:to:originX:originY:)`` took for a ring.
    enum Walk {
        /// Inside the band, its contours whole: ``RingCellWalk/addContour(xs:ys:count:top:bottom:to:originX:originY:)``.
        case contours
        /// Inside the band, contours not as flattened: ``ContourPath/addInteriorEdges(to:)``.
        case interiorEdges
        /// Crossing the band's sides: ``RingCellWalk/addClipped(_:to:originX:originY:)``.
        case clipped
    }

    /// Adds the ring's contours, which lie inside the band of `acc`, to it: through
    /// ``RingCellWalk`` when the path holds the two flattened contours whole (the outer one,
    /// then the inner one reversed), else as ``ContourPath/addInteriorEdges(to:)``.
    private static func addInterior(_ path: ContourPath, outer: EllipseFlattener, inner: EllipseFlattener?,
                                    to acc: CoverageAccumulator, originX: Int, originY: Int) -> Walk {
        let mo = outer.quadrantSteps &- 1, mi = (inner?.quadrantSteps ?? 1) &- 1
        let starts = path.starts
        let whole = inner == nil ? starts.count == 1 : starts.count == 2 && starts[1] == 4 &* mo
        guard whole, mo >= 1, starts[0] == 0, path.count == 4 &* (mo &+ mi),
              let xs = path.xs.baseAddress, let ys = path.ys.baseAddress else {
            path.addInteriorEdges(to: acc)
            return .interiorEdges
        }
        let o = EllipseFlattener.extremes(quadrantVertices: mo, reversed: false)
        RingCellWalk.addContour(xs: xs, ys: ys, count: 4 &* mo, top: o.top, bottom: o.bottom, to: acc,
                                originX: originX, originY: originY)
        guard mi >= 1 else { return .contours }
        let i = EllipseFlattener.extremes(quadrantVertices: mi, reversed: true)
        RingCellWalk.addContour(xs: xs + 4 &* mo, ys: ys + 4 &* mo, count: 4 &* mi, top: i.top,
                                bottom: i.bottom, to: acc, originX: originX, originY: originY)
        return .contours
    }

    /// The band's rows by where they lie against the centre's horizontal `cy`: rows
    /// `0 ..< upperEnd` above it (their distances from it are `cy - y - 1 ... cy - y`), rows
    /// `lowerStart ..< height` below it (`y - cy ... y + 1 - cy`), and between them the row
    /// holding it, if any (`upperEnd + 1 == lowerStart`).
    private struct Rows {
        let top: Int, height: Int, cy: Double
        let upperEnd: Int, lowerStart: Int

        init(top: Int, height h: Int, cy: Double) {
            self.top = top
            height = h
            self.cy = cy
            // y + 1 <= cy exactly when y < floor(cy); y >= cy when y >= ceil(cy).
            let u = Int(cy.rounded(.down)) &- top, l = Int(cy.rounded(.up)) &- top
            upperEnd = u < 0 ? 0 : u > h ? h : u
            lowerStart = l < 0 ? 0 : l > h ? h : l
        }
    }

    /// Resolves and composites every row of the accumulator's band (plane rows `top...`);
    /// `inner` has no vertices when the ring has no hole.
    private static func fillRows(_ acc: CoverageAccumulator, top: Int, _ outer: Contour,
                                 _ inner: Contour, plane: RGBAPlane, coverage cov: UnsafeMutablePointer<UInt8>,
                                 quads: UnsafePointer<UInt64>, sink: CoverageSink)
        -> PixelRect {
        let w = acc.width, h = acc.height, x0 = Int(outer.originX)
        let cellEnd = w &+ 2
        var dirty = DirtyBox()
        // The row's windows, sorted and merged: starts[i] ..< ends[i] (cells), i < count.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { buffer in
            let starts = buffer.baseAddress!, ends = starts + 4
            var count = 0
            /// Appends a window (unless empty) that starts at or after the last one's start,
            /// merging them when they overlap or touch.
            @inline(__always) func add(_ window: (Int, Int)) {
                guard window.0 < window.1 else { return }
                if count > 0 && window.0 <= ends[count &- 1] {
                    if window.1 > ends[count &- 1] { ends[count &- 1] = window.1 }
                } else {
                    starts[count] = window.0
                    ends[count] = window.1
                    count &+= 1
                }
            }
            for r in 0..<h {
                let y = top &+ r
                let o = outer.windows(row: r, cellEnd), i = inner.windows(row: r, cellEnd)
                guard let o else { continue }
                count = 0
                if let i {
                    // Left windows start left of the right ones: order each side's pair.
                    let left = i.left.0 < o.left.0 ? (i.left, o.left) : (o.left, i.left)
                    let right = o.right.0 < i.right.0 ? (o.right, i.right) : (i.right, o.right)
                    add(left.0)
                    add(left.1)
                    add(right.0)
                    add(right.1)
                } else {
                    add(o.left)
                    add(o.right)
                }
                guard count > 0 else { continue }
                let span = resolveOver(acc.row(r), width: w, starts: starts, ends: ends, count: count,
                                       coverage: cov, onto: plane.row(y) + 4 &* x0, quads: quads) { lo, hi, m in
                    sink.run(y, x0 &+ lo, hi &- lo, m)
                }
                guard span.lo < span.hi else { continue }
                dirty.add(row: y, lo: x0 &+ span.lo, hi: x0 &+ span.hi)
                // The row two below is written about where this one is: ask for its lines with
                // the intent to write (this row's windows, each side's pair as one range).
                let next = y &+ 2, last = 4 &* (x0 &+ (w &- 1))
                @inline(__always) func prefetch(_ a: Int, _ b: Int) {
                    let from = 4 &* (x0 &+ a), through = 4 &* (x0 &+ b) &- 1
                    plane.prefetchForWrite(row: next, from: from, through: through < last ? through : last)
                }
                if count == 4 {
                    prefetch(starts[0], ends[1])
                    prefetch(starts[2], ends[3])
                } else {
                    prefetch(starts[0], ends[count &- 1])
                }
            }
        }
        outer.clear()
        inner.clear()
        return dirty.rect
    }

    /// Resolves one row's cells in the windows `starts[i] ..< ends[i]` (sorted, disjoint, within
    /// the row's `width + 2` cells; every cell outside them zero) into the coverage row `cov`
    /// (at least `width + 32` bytes) and composites it onto `pixels` (band column 0),
    /// source-over at full opacity with the paint's ``OverTable/prepareQuads(_:)`` table
    /// (``SpanCompositor/overQuads(_:from:mask:count:quads:)`` over the pixels themselves,
    /// `maskRow`'s path for such a paint without its checks per call): the windows and the short gaps between them (the coverage at a
    /// window's end, which the zero cells keep) two pixels per step, gaps longer than 16 pixels as `run(lo, hi, m)`,
    /// zero coverage (the hole, the row outside the ring) skipped. The bytes of blending each
    /// pixel with ``SpanCompositor/OverPixel``. Zeroes the cells read. Returns the columns
    /// `lo..<hi` with non-zero coverage.
    @inline(__always)
    private static func resolveOver(_ cells: UnsafeMutablePointer<Float>, width w: Int,
                                    starts: UnsafePointer<Int>, ends: UnsafePointer<Int>, count: Int,
                                    coverage cov: UnsafeMutablePointer<UInt8>,
                                    onto pixels: UnsafeMutablePointer<UInt8>, quads: UnsafePointer<UInt64>,
                                    run: (Int, Int, UInt8) -> Void) -> (lo: Int, hi: Int) {
        var sum: Float = 0
        var lo = w, hi = 0
        var segment = starts[0]  // first column of the coverage not yet composited
        /// Composites the coverage of columns `segment ..< end` (clipped to the row), without
        /// its zero ends.
        @inline(__always) func flush(_ end: Int) {
            var a = segment, b = end < w ? end : w
            while a < b && cov[a] == 0 { a &+= 1 }
            while b > a && cov[b &- 1] == 0 { b &-= 1 }
            guard a < b else { return }
            if lo > a { lo = a }
            hi = b
            // Over itself as the base: two pixels per 8-lane multiply, coverage 0 a copy.
            let p = UnsafeMutableRawPointer(pixels + 4 &* a)
            SpanCompositor.overQuads(p, from: UnsafeRawPointer(p), mask: cov + a, count: b &- a, quads: quads)
        }
        var k = 0
        while true {
            var x = starts[k]
            let e = ends[k]
            while x < e {
                sum += cells[x]
                cells[x] = 0
                cov[x] = CoverageSpans.quantize(Swift.min(abs(sum), 1))
                x &+= 1
            }
            k &+= 1
            // Past the window the zero cells keep the coverage, up to the next window.
            let q = CoverageSpans.quantize(Swift.min(abs(sum), 1))
            let next = k < count ? starts[k] : w
            if q != 0 && next &- e <= 16 {
                // A short gap: part of the coverage row (16 bytes written, `cov` has room).
                let eight = UInt64(q) &* 0x0101_0101_0101_0101
                UnsafeMutableRawPointer(cov + e).storeBytes(of: eight, as: UInt64.self)
                UnsafeMutableRawPointer(cov + e).storeBytes(of: eight, toByteOffset: 8, as: UInt64.self)
                if k < count { continue }
                flush(next)
                break
            }
            flush(e)
            if q != 0 && e < w {
                let to = next < w ? next : w
                if lo > e { lo = e }
                hi = to
                run(e, to, q)
            }
            guard k < count else { break }
            segment = next
        }
        return (lo, hi)
    }

    /// One contour's quadrant with the vertices bracketing each band row: the vertices
    /// `(cx ± qx[k], cy ± qy[k])`, `qy` growing and `qx` shrinking with k
    /// (``EllipseFlattener/withQuadrant(_:)``).
    ///
    /// Per row, `near[r]` counts the vertices at or below the row's nearest distance from the
    /// centre's horizontal (less the slack; the last of them is the widest the contour gets in
    /// the row) and `far[r]` those below its farthest (plus the slack; the next one is the
    /// narrowest). Both come from one pass over the vertices (each counted from the first row
    /// below the centre, or up to the last row above it, whose distance passes it) and a
    /// running sum over the rows away from the centre: no search per row.
    private struct Contour {
        let qx: UnsafeBufferPointer<Double>
        let m: Int
        let cx: Double
        let originX: Double
        let near: UnsafeMutablePointer<Int>, far: UnsafeMutablePointer<Int>
        /// The band's row count: [-1] and [ends] take the vertices counted in no row.
        let ends: Int

        /// Fills the row tables in `counts` (2 * (rows.height + 2) words, all zero), which
        /// ``windows(row:_:)`` for every row and then ``clear()`` leave zero.
        init(_ qx: UnsafeBufferPointer<Double>, _ qy: UnsafeBufferPointer<Double>, cx: Double,
             originX: Int, rows: Rows, counts: UnsafeMutablePointer<Int>) {
            self.qx = qx
            m = qx.count &- 1
            self.cx = cx
            self.originX = Double(originX)
            let h = rows.height
            // Row r at [r]; [-1] and [h] take the vertices counted in no row of the band.
            near = counts + 1
            far = counts + (h &+ 3)
            ends = h
            guard m >= 1 else { return }
            let cy = rows.cy, top = rows.top, slack = RingRows.slack
            let lower = rows.lowerStart, upper = rows.upperEnd &- 1
            /// The row (band index) of plane row `y` clamped to the rows below the centre, or
            /// to those above.
            @inline(__always) func below(_ y: Int) -> Int {
                let r = y &- top
                return r < lower ? lower : r > h ? h : r
            }
            @inline(__always) func above(_ y: Int) -> Int {
                let r = y &- top
                return r < -1 ? -1 : r > upper ? upper : r
            }
            /// `floor(v)` and `ceil(v)` for `|v| < 2^63` (plain conversions and comparisons).
            @inline(__always) func floor(_ v: Double) -> Int {
                let t = CoverageAccumulator.truncated(v)
                return Double(t) > v ? t &- 1 : t
            }
            @inline(__always) func ceil(_ v: Double) -> Int {
                let t = CoverageAccumulator.truncated(v)
                return Double(t) < v ? t &+ 1 : t
            }
            for k in 0...m {
                let d = qy[k]
                // Below the centre, row y counts vertex k from y >= d + cy + slack (near) and
                // from y > d + cy - 1 - slack (far); above it, up to y <= cy - 1 - slack - d
                // (near) and y < cy + slack - d (far).
                near[below(ceil(d + cy + slack))] &+= 1
                far[below(floor(d + cy - slack))] &+= 1
                near[above(floor(cy - 1 - slack - d))] &+= 1
                far[above(ceil(cy + slack - d) &- 1)] &+= 1
            }
            var n = 0, f = 0
            for r in lower..<h {
                n &+= near[r]
                f &+= far[r]
                near[r] = n
                far[r] = f
            }
            n = 0
            f = 0
            var r = upper
            while r >= 0 {
                n &+= near[r]
                f &+= far[r]
                near[r] = n
                far[r] = f
                r &-= 1
            }
            // The row holding the centre's horizontal: no vertex below its nearest distance
            // (0); those below its farthest counted directly.
            if upper &+ 2 == lower {
                let y = Double(top &+ upper &+ 1)
                let limit = Swift.max(y + 1 - cy, cy - y) + slack
                var k = 0
                while k <= m && qy[k] < limit { k &+= 1 }
                near[upper &+ 1] = 0
                far[upper &+ 1] = k
            }
        }

        /// The cell windows (start, end) left and right of the centre that hold every cell the
        /// contour's edges write in band row `r` (the two overlap when the row reaches the
        /// contour's top or bottom), or nil when the contour does not reach the row. Windows
        /// lie within the row's `cellEnd` cells: one reaching left of the band also holds cells
        /// 0 and 1, where the accumulator moves the edges left of it; cells right of the band
        /// are not written.
        @inline(__always)
        func windows(row r: Int, _ cellEnd: Int) -> (left: (Int, Int), right: (Int, Int))? {
            let n = near[r], f = far[r]
            near[r] = 0
            far[r] = 0
            guard n <= m else { return nil }
            let wide = qx[n > 0 ? n &- 1 : 0]
            let narrow = f <= m ? qx[f] : 0
            // The vertices' x as stored (cx ± q), then as the accumulator takes them (- origin).
            let l0 = CoverageAccumulator.truncated((cx - wide) - originX)
            let l1 = CoverageAccumulator.truncated((cx - narrow) - originX) &+ 2
            let r0 = CoverageAccumulator.truncated((cx + narrow) - originX)
            let r1 = CoverageAccumulator.truncated((cx + wide) - originX) &+ 2
            return (Self.clamped(l0, l1, cellEnd), Self.clamped(r0, r1, cellEnd))
        }

        /// Zeroes the slots of the vertices counted in no row (every row's are zeroed as it is
        /// read).
        func clear() {
            near[-1] = 0
            near[ends] = 0
            far[-1] = 0
            far[ends] = 0
        }

        /// The window `start ..< end` within `0 ..< cellEnd`, holding cells 0 and 1 when it
        /// reaches left of cell 1 (truncation rounds a negative start up to at most 0).
        @inline(__always)
        static func clamped(_ start: Int, _ end: Int, _ cellEnd: Int) -> (Int, Int) {
            // Plain comparisons: `Swift.min` on Int may be left out of line.
            if start <= 0 { return (0, end < 2 ? 2 : end < cellEnd ? end : cellEnd) }
            return (start < cellEnd ? start : cellEnd, end < cellEnd ? end : cellEnd)
        }
    }
}
