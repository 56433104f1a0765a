/// Exact, analytic coverage of an axis-aligned rectangle, or of a rectangular ring (an outer
/// rectangle minus a hole inside it: a mitered rectangle stroke).
///
/// The coverage of pixel `(i, j)` is `ox(i) oy(j) - hx(i) hy(j)`, where `ox(i)` is the length
/// of `[i, i + 1] ∩ [x0, x1]` (and so on): the exact area, quantised to 8 bits rounding to
/// nearest like ``CoverageSpans``. Along a row the value only changes in the columns that
/// contain one of the four x edges, so each row is a few single pixels and constant runs, and
/// likewise down the rows: the rows between y edges repeat the same runs (neighbouring
/// segments of equal coverage merged into one). A solid paint prepares each group's runs once
/// (``SolidRun``), a ring's two sides as ``SolidStrip``s blended down the group's rows; other
/// sinks get ``CoverageSink/run(_:_:_:_:)`` per run; the hole is skipped. No accumulator, no
/// allocation, work proportional to the clipped rows plus the written pixels.
enum AxisRectCoverage {
    /// A rectangle `[x0, x1] x [y0, y1]` (x0 <= x1, y0 <= y1).
    struct Box {
        var x0: Double, y0: Double, x1: Double, y1: Double
    }

    @inline(__always)
    private static func overlap(_ i: Double, _ lo: Double, _ hi: Double) -> Double {
        Swift.max(0, Swift.min(i + 1, hi) - Swift.max(i, lo))
    }

    @inline(__always)
    private static func quantise(_ c: Double) -> UInt8 {
        UInt8(Swift.min(Swift.max(c, 0), 1) * 255 + 0.5)
    }

    /// Draws `outer` minus `hole` (which must lie inside `outer`) into `sink`, clipped to
    /// `clip`. Returns the rectangle of pixels given non-zero coverage.
    static func draw(_ outer: Box, hole: Box?, clip: PixelRect, sink: CoverageSink,
                     scratch: ShapeScratch) -> PixelRect {
        let box = PixelRect.covering(minX: outer.x0, minY: outer.y0, maxX: outer.x1,
                                     maxY: outer.y1, clip: clip)
        guard !box.isEmpty, outer.x1 > outer.x0, outer.y1 > outer.y0 else { return .empty }
        let cx0 = Int(box.x), cx1 = Int(box.maxX)
        let h = hole ?? Box(x0: 0, y0: 0, x1: 0, y1: 0)
        // Column segments over which the horizontal overlaps are constant: the columns holding
        // an x edge are single segments, the ranges between them runs (at most 9 segments).
        var breaks = (Int(outer.x0.rounded(.down)), Int(outer.x1.rounded(.down)), Int.max, Int.max)
        if hole != nil { breaks.2 = Int(h.x0.rounded(.down)); breaks.3 = Int(h.x1.rounded(.down)) }
        var segX = InlineArray<9, Int>(repeating: 0), segN = InlineArray<9, Int>(repeating: 0)
        var segO = InlineArray<9, Double>(repeating: 0), segH = InlineArray<9, Double>(repeating: 0)
        var count = 0
        var x = cx0
        while x < cx1 && count < 9 {
            var next = cx1
            if breaks.0 >= x && breaks.0 < next { next = breaks.0 }
            if breaks.1 >= x && breaks.1 < next { next = breaks.1 }
            if breaks.2 >= x && breaks.2 < next { next = breaks.2 }
            if breaks.3 >= x && breaks.3 < next { next = breaks.3 }
            let end = next == x ? x + 1 : next
            let fx = Double(x)
            segX[count] = x
            segN[count] = end - x
            segO[count] = overlap(fx, outer.x0, outer.x1)
            segH[count] = hole == nil ? 0 : overlap(fx, h.x0, h.x1)
            count += 1
            x = end
        }
        // Row groups work the same way: the rows holding a y edge are single groups, the rows
        // between them share one vertical overlap, so each group's runs are prepared once.
        let rowBreaks = (Int(outer.y0.rounded(.down)), Int(outer.y1.rounded(.down)),
                         hole == nil ? Int.max : Int(h.y0.rounded(.down)),
                         hole == nil ? Int.max : Int(h.y1.rounded(.down)))
        let solid: (plane: RGBAPlane, source: SpanCompositor.Source)?
        if case .solid(let plane, let source) = sink { solid = (plane, source) } else { solid = nil }
        let noRun = SolidRun(source: solid?.source ?? .init(.init(color: .white)), c: 0)
        var dirty = DirtyBox()
        var touched: UInt8 = 0
        let lastRow = Int(box.maxY) - 1
        defer { scratch.touched &+= touched }
        var y = Int(box.y)
        while y < Int(box.maxY) {
            var next = Int(box.maxY)
            if rowBreaks.0 >= y && rowBreaks.0 < next { next = rowBreaks.0 }
            if rowBreaks.1 >= y && rowBreaks.1 < next { next = rowBreaks.1 }
            if rowBreaks.2 >= y && rowBreaks.2 < next { next = rowBreaks.2 }
            if rowBreaks.3 >= y && rowBreaks.3 < next { next = rowBreaks.3 }
            let end = next == y ? y + 1 : next
            let fy = Double(y)
            let vo = overlap(fy, outer.y0, outer.y1)
            let vh = hole == nil ? 0 : overlap(fy, h.y0, h.y1)
            // The group's runs: neighbouring segments of equal coverage merged (a row above the
            // hole is one run between its two edge pixels), then the painted ones (coverage > 0).
            var runX = InlineArray<9, Int>(repeating: 0), runN = InlineArray<9, Int>(repeating: 0)
            var runQ = InlineArray<9, UInt8>(repeating: 0)
            var runCount = 0
            for k in 0..<count {
                let q = quantise(vo * segO[k] - vh * segH[k])
                if runCount > 0 && runQ[runCount - 1] == q {
                    runN[runCount - 1] += segN[k]
                    continue
                }
                runX[runCount] = segX[k]
                runN[runCount] = segN[k]
                runQ[runCount] = q
                runCount += 1
            }
            // The painted runs' byte offsets, lengths and coverages (unused ones paint nothing).
            var painted = InlineArray<9, Int>(repeating: 0), paintedCount = 0
            var o = InlineArray<9, Int>(repeating: 0), n = InlineArray<9, Int>(repeating: 0)
            var q = InlineArray<9, UInt8>(repeating: 0)
            for k in 0..<runCount where runQ[k] != 0 {
                painted[paintedCount] = k
                o[paintedCount] = 4 &* runX[k]
                n[paintedCount] = runN[k]
                q[paintedCount] = runQ[k]
                paintedCount += 1
            }
            guard paintedCount > 0 else {
                y = end
                continue
            }
            let lo = o[0] / 4, hi = o[paintedCount - 1] / 4 + n[paintedCount - 1]
            if let solid {
                let plane = solid.plane, source = solid.source
                if paintedCount <= 3 {
                    // A filled rectangle's rows, or a ring's rows above and below its hole: an
                    // edge column, a run and an edge column.
                    let r0 = SolidRun(source: source, c: source.effective(q[0]))
                    let r1 = SolidRun(source: source, c: source.effective(q[1]))
                    let r2 = SolidRun(source: source, c: source.effective(q[2]))
                    let o0 = o[0], o1 = o[1], o2 = o[2], n0 = n[0], n1 = n[1], n2 = n[2]
                    prefetchFirstRows(y, plane, cx0, cx1)
                    for row in y..<end {
                        let p = plane.row(row)
                        plane.prefetchForWrite(row: row &+ 2, from: 4 &* cx0, through: 4 &* cx1 &- 1)
                        r0.apply(p + o0, count: n0)
                        r1.apply(p + o1, count: n1)
                        r2.apply(p + o2, count: n2)
                    }
                } else if let (left, right) = strips(painted, paintedCount, runX, runN, runQ, source) {
                    // A ring's sides: each a few pixels, one strip of vectors per side, each
                    // side down the group's rows in one loop.
                    left.strip.apply(rows: y..<end, of: plane, offset: 4 &* left.x)
                    right.strip.apply(rows: y..<end, of: plane, offset: 4 &* right.x)
                } else {
                    var runs = InlineArray<9, SolidRun>(repeating: noRun)
                    for i in 0..<paintedCount { runs[i] = SolidRun(source: source, c: source.effective(q[i])) }
                    prefetchFirstRows(y, plane, cx0, cx1)
                    for row in y..<end {
                        let p = plane.row(row)
                        plane.prefetchForWrite(row: row &+ 2, from: 4 &* cx0, through: 4 &* cx1 &- 1)
                        for i in 0..<paintedCount { runs[i].apply(p + o[i], count: n[i]) }
                    }
                }
            } else {
                for row in y..<end {
                    let ahead = Swift.min(row + 2, lastRow)
                    touched &+= sink.touch(ahead, cx0) &+ sink.touch(ahead, cx1 - 1)
                    for i in 0..<paintedCount { sink.run(row, o[i] / 4, n[i], q[i]) }
                }
            }
            dirty.add(row: y, lo: lo, hi: hi)
            dirty.add(row: end - 1, lo: lo, hi: hi)
            y = end
        }
        return dirty.rect
    }

    /// Prefetches for write the lines of columns `cx0 ..< cx1` of rows `y` and `y + 1`, which
    /// the row loops' prefetches two rows ahead do not reach when the group is the rectangle's
    /// first, or follows the sides' strips (whose prefetches reach only the sides' columns).
    @inline(__always)
    private static func prefetchFirstRows(_ y: Int, _ plane: RGBAPlane, _ cx0: Int, _ cx1: Int) {
        plane.prefetchForWrite(row: y, from: 4 &* cx0, through: 4 &* cx1 &- 1)
        plane.prefetchForWrite(row: y &+ 1, from: 4 &* cx0, through: 4 &* cx1 &- 1)
    }

    /// The painted runs `painted[0..<count]` as two strips of consecutive columns (each at
    /// most ``SolidStrip/capacity`` pixels: a ring's left and right sides) of paint `source`,
    /// with their first columns, or nil when they are not.
    private static func strips(_ painted: InlineArray<9, Int>, _ count: Int, _ runX: InlineArray<9, Int>,
                               _ runN: InlineArray<9, Int>, _ runQ: InlineArray<9, UInt8>,
                               _ source: SpanCompositor.Source)
        -> (left: (strip: SolidStrip, x: Int), right: (strip: SolidStrip, x: Int))? {
        // The split: the first painted run not adjacent to the one before it.
        var split = 1
        while split < count && painted[split] == painted[split - 1] + 1 { split += 1 }
        guard split < count else { return nil }
        for k in (split + 1)..<count where painted[k] != painted[k - 1] + 1 { return nil }
        // A side of two or three pixels is widened to four over the hole (zero coverage: those
        // pixels are rewritten unchanged), so it is one vector per row instead of two halves.
        let gap = runX[painted[split]] - (runX[painted[split - 1]] + runN[painted[split - 1]])
        func strip(_ a: Int, _ b: Int, holeOnRight: Bool) -> (strip: SolidStrip, x: Int)? {
            var x0 = runX[painted[a]], x1 = runX[painted[b - 1]] + runN[painted[b - 1]]
            guard x1 - x0 <= SolidStrip.capacity else { return nil }
            if x1 - x0 >= 2 && x1 - x0 < 4 && gap >= 4 - (x1 - x0) {
                if holeOnRight { x1 = x0 + 4 } else { x0 = x1 - 4 }
            }
            var coverage = InlineArray<16, UInt8>(repeating: 0)
            for k in a..<b {
                for x in runX[painted[k]]..<(runX[painted[k]] + runN[painted[k]]) { coverage[x - x0] = runQ[painted[k]] }
            }
            return (SolidStrip(count: x1 - x0, source: source, coverage: coverage), x0)
        }
        guard let left = strip(0, split, holeOnRight: true),
              let right = strip(split, count, holeOnRight: false) else { return nil }
        return (left, right)
    }
}
