/// The edges of a ``ContourPath`` grouped by the accumulator bands they reach, so that each
/// band of a fill taller than one band walks only its own edges instead of every edge of the
/// path (on the workload's polyline, 5 visits in 6 were to edges of another band).
///
/// Built once per fill (``build(path:top:rows:bandRows:)``), one pass over the edges: each edge
/// goes to every band its vertical extent, widened by one row on each side, meets. The
/// widening makes every band's list a superset of the edges the accumulator keeps there
/// (rounding in the band's coordinates is far below a row), so the fill is unchanged; an edge
/// listed but outside the band is rejected by the accumulator as before. A band's edges are
/// stored as *runs*, consecutive edges of one contour (a stroke's outline enters and leaves a
/// band a few times), and come out in ascending edge order, the order of the walk over the
/// whole path. Storage is reused (no allocation once warm). Not thread-safe; owned by one
/// ``ShapeScratch``.
final class EdgeBands {
    /// Edges `lo..<hi` of contour `contour` (the edge ending at vertex `i`, as
    /// ``ContourPath/addEdges(to:observer:)`` numbers them: edge id `i + 1`).
    struct Run {
        var contour: Int
        var lo: Int, hi: Int
    }

    /// The runs of every band, band after band (`bandStart[b]..<bandStart[b + 1]`).
    private var sorted: [Run] = []
    private var bandStart: [Int] = []
    /// Runs as they close, with their band (not yet grouped).
    private var closed: [(band: Int, run: Run)] = []
    /// Per band, the run being extended (`hi < 0`: none).
    private var open: [Run] = []
    /// The plane row after the rows of the last ``build(path:top:rows:bandRows:)``.
    private(set) var bottom = 0

    /// Groups `path`'s edges by the bands of `bandRows` rows that split the `rows` rows from
    /// plane row `top` (the last band may be shorter).
    func build(path: ContourPath, top: Int, rows: Int, bandRows: Int) {
        let bands = (rows + bandRows - 1) / bandRows
        bottom = top + rows
        // Worked on in locals (a class's arrays would be checked for exclusive access at
        // every use).
        var closed: [(band: Int, run: Run)] = [], open: [Run] = []
        swap(&closed, &self.closed)
        swap(&open, &self.open)
        closed.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        open.append(contentsOf: repeatElement(Run(contour: 0, lo: 0, hi: -1), count: bands))
        let n = path.count, starts = path.starts
        let ys = path.ys
        // The band of plane y, for y one row beyond an edge's end: band b holds the rows
        // [b R, (b + 1) R) from `top`; one row past the end keeps the quotient's rounding
        // (relative, about 1e-16) far from a band's side, so the band found for the top
        // end - 1 is at most the first band the edge reaches and that for the bottom end + 1
        // at least the last.
        let top = Double(top), inverse = 1 / Double(bandRows), lastBand = Double(bands - 1)
        @inline(__always) func band(_ y: Double) -> Int {
            let b = (y - top) * inverse
            return CoverageAccumulator.truncated(b > 0 ? (b < lastBand ? b : lastBand) : 0)
        }
        // The band of the last edge that reached one band only, and its plane rows: an edge
        // a row or more inside them reaches no other band (most edges).
        var current = 0, currentTop = top, currentBottom = top
        open.withUnsafeMutableBufferPointer { open in
            for c in 0..<starts.count {
                let s = starts[c], e = c + 1 < starts.count ? starts[c + 1] : n
                guard e - s >= 2 else { continue }
                var lowest = bands, highest = -1
                var ay = ys[e - 1]
                var i = s
                while i < e {
                    if open[current].hi == i {
                        // The edges from i on that lie a row or more inside the current band's
                        // rows extend its run, in a loop of their own (the locals it needs stay
                        // in registers).
                        var j = i
                        while j < e {
                            let by = ys[j]
                            let yLow = Swift.min(ay, by) - 1, yHigh = CoverageAccumulator.larger(ay, by) + 1
                            guard yLow >= currentTop && yHigh < currentBottom else { break }
                            ay = by
                            j &+= 1
                        }
                        open[current].hi = j
                        i = j
                        guard i < e else { break }
                    }
                    let by = ys[i]
                    let yLow = Swift.min(ay, by) - 1, yHigh = CoverageAccumulator.larger(ay, by) + 1
                    let b0 = band(yLow), b1 = band(yHigh)
                    lowest = Swift.min(lowest, b0)
                    highest = Swift.max(highest, b1)
                    if b0 == b1 {
                        current = b0
                        currentTop = top + Double(b0 &* bandRows)
                        currentBottom = currentTop + Double(bandRows)
                    }
                    var b = b0
                    while b <= b1 {
                        if open[b].hi == i {
                            open[b].hi = i &+ 1
                        } else {
                            if open[b].hi >= 0 { closed.append((b, open[b])) }
                            open[b] = Run(contour: c, lo: i, hi: i &+ 1)
                        }
                        b &+= 1
                    }
                    ay = by
                    i &+= 1
                }
                // The contour ends: close its runs (only its bands hold any).
                if lowest <= highest {
                    for b in lowest...highest where open[b].hi >= 0 {
                        closed.append((b, open[b]))
                        open[b].hi = -1
                    }
                }
            }
        }
        // Group by band, keeping each band's runs in the order they closed (ascending).
        var start: [Int] = [], all: [Run] = []
        swap(&start, &bandStart)
        swap(&all, &sorted)
        start.removeAll(keepingCapacity: true)
        start.append(contentsOf: repeatElement(0, count: bands + 1))
        for r in closed { start[r.band + 1] += 1 }
        for b in 0..<bands { start[b + 1] += start[b] }
        all.removeAll(keepingCapacity: true)
        all.append(contentsOf: repeatElement(Run(contour: 0, lo: 0, hi: 0), count: closed.count))
        var next = start
        for r in closed {
            all[next[r.band]] = r.run
            next[r.band] += 1
        }
        swap(&closed, &self.closed)
        swap(&open, &self.open)
        swap(&start, &bandStart)
        swap(&all, &sorted)
    }

    /// Calls `body` with the runs of band `b` (after ``build(path:top:rows:bandRows:)``).
    func withRuns<R>(band b: Int, _ body: (UnsafeBufferPointer<Run>) -> R) -> R {
        sorted.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[bandStart[b]..<bandStart[b + 1]]))
        }
    }
}
