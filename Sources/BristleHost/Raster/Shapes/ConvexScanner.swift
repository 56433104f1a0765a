/// Fills a convex polygon (one contour of a ``ContourPath``) row by row, touching the
/// accumulator only around its two boundary chains.
///
/// The contour is split at its top and bottom vertices into two y-monotone chains. For the
/// band of row `y` (clipped to the polygon's y extent, height `hb`), each chain's x range over
/// the band gives a window of columns; between the windows every pixel's square is inside the
/// polygon for the band's whole height (convexity), so its coverage is exactly `hb`: a
/// constant run for ``CoverageSink/run(_:_:_:_:)``. Each window is accumulated and resolved
/// like the general path (``CoverageAccumulator``, ``CoverageSpans``) with only its chain's
/// edges (plus, for the right window, a vertical edge standing for the left chain, which lies
/// wholly to its left); windows that meet are done as one window with both chains. The result
/// equals the general path's exact-area coverage; the work is the boundary plus the written
/// pixels, not the bounding box.
enum ConvexScanner {
    /// Fills the single contour of `path` (which must be convex) inside `clip`.
    static func fill(_ path: ContourPath, clip: PixelRect, sink: CoverageSink,
                     scratch: ShapeScratch) -> PixelRect {
        let acc = scratch.accumulator, spans = scratch.spans
        let n = path.count
        guard n >= 3 else { return .empty }
        let box = PixelRect.covering(minX: path.minX, minY: path.minY, maxX: path.maxX,
                                     maxY: path.maxY, clip: clip)
        guard !box.isEmpty else { return .empty }
        return path.withPoints { xs, ys in
            var top = 0, bottom = 0
            for i in 1..<n {
                if ys[i] < ys[top] { top = i }
                if ys[i] > ys[bottom] { bottom = i }
            }
            let lenA = (bottom - top + n) % n
            var a = Chain(xs: xs, ys: ys, n: n, start: top, length: lenA, forward: true)
            var b = Chain(xs: xs, ys: ys, n: n, start: top, length: n - lenA, forward: false)
            // Which chain is on the left: compare their x at the middle of the y extent.
            let yTop = ys[top], yBottom = ys[bottom]
            let mid = 0.5 * (yTop + yBottom)
            let aLeft = a.range(mid, mid).lo < b.range(mid, mid).lo
            let clipX0 = Int(clip.x), clipX1 = Int(clip.maxX)
            var dirty = DirtyBox()
            var touched: UInt8 = 0
            defer { scratch.touched &+= touched }
            let lastRow = Int(box.maxY) - 1, boxX0 = Int(box.x), boxX1 = Int(box.maxX) - 1
            for y in Int(box.y)..<Int(box.maxY) {
                let t = Swift.max(Double(y), yTop), bt = Swift.min(Double(y + 1), yBottom)
                guard bt > t else { continue }
                a.skip(above: t)
                b.skip(above: t)
                let ra = a.range(t, bt), rb = b.range(t, bt)
                let (l, r) = aLeft ? (ra, rb) : (rb, ra)
                // Both chains span every band inside [yTop, yBottom]; guard anyway so a
                // degenerate contour can never turn an empty range into a trap.
                guard l.lo.isFinite, l.hi.isFinite, r.lo.isFinite, r.hi.isFinite else { continue }
                let lx0 = Int(l.lo.rounded(.down)), lx1 = Int(l.hi.rounded(.up))
                let rx0 = Int(r.lo.rounded(.down)), rx1 = Int(r.hi.rounded(.up))
                let ahead = Swift.min(y + 2, lastRow)
                touched &+= sink.touch(ahead, Swift.min(Swift.max(lx0, boxX0), boxX1))
                    &+ sink.touch(ahead, Swift.min(Swift.max(rx1 - 1, boxX0), boxX1))
                var lo = Int.max, hi = Int.min
                func window(_ x0: Int, _ x1: Int, left: Bool, right: Bool) {
                    let w0 = Swift.max(x0, clipX0), w1 = Swift.min(x1, clipX1)
                    guard w1 > w0 else { return }
                    acc.begin(originX: w0, originY: y, width: w1 - w0, height: 1)
                    if left { (aLeft ? a : b).addEdges(t, bt, to: acc) }
                    if right { (aLeft ? b : a).addEdges(t, bt, to: acc) }
                    if !left {
                        // The left chain, wholly left of this window, winds it like a
                        // vertical edge on its left side (same direction as that chain).
                        let down = aLeft  // chain A runs downwards
                        acc.addEdge(Double(w0) - 1, down ? t : bt, Double(w0) - 1, down ? bt : t)
                    }
                    let span = spans.resolve(row: 0, of: acc, rule: .nonZero)
                    guard span.lo < span.hi else { return }
                    sink.row(y, w0 + span.lo, UnsafePointer(spans.coverage + span.lo), span.hi - span.lo)
                    lo = Swift.min(lo, w0 + span.lo)
                    hi = Swift.max(hi, w0 + span.hi)
                }
                if lx1 >= rx0 {
                    window(lx0, rx1, left: true, right: true)
                } else {
                    window(lx0, lx1, left: true, right: false)
                    let i0 = Swift.max(lx1, clipX0), i1 = Swift.min(rx0, clipX1)
                    let q = UInt8(Swift.min(bt - t, 1) * 255 + 0.5)
                    if i1 > i0 && q != 0 {
                        sink.run(y, i0, i1 - i0, q)
                        lo = Swift.min(lo, i0)
                        hi = Swift.max(hi, i1)
                    }
                    window(rx0, rx1, left: false, right: true)
                }
                dirty.add(row: y, lo: lo, hi: hi)
            }
            return dirty.rect
        }
    }

    /// One y-monotone chain of the contour, walked top to bottom: vertex k is
    /// `start ± k (mod n)` for k in `0...length`.
    private struct Chain {
        let xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>
        let n: Int, start: Int, length: Int, forward: Bool
        /// First edge that may still reach the current band.
        var first = 0

        init(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>, n: Int, start: Int,
             length: Int, forward: Bool) {
            self.xs = xs; self.ys = ys; self.n = n; self.start = start; self.length = length
            self.forward = forward
        }

        @inline(__always) func index(_ k: Int) -> Int {
            if forward {
                let i = start + k
                return i >= n ? i - n : i
            }
            let i = start - k
            return i < 0 ? i + n : i
        }

        /// Skips edges lying wholly above `t`.
        mutating func skip(above t: Double) {
            while first < length && Swift.max(ys[index(first)], ys[index(first + 1)]) <= t { first += 1 }
        }

        /// The chain's x range over `[t, b]` (edges from ``first`` on).
        func range(_ t: Double, _ b: Double) -> (lo: Double, hi: Double) {
            var lo = Double.infinity, hi = -Double.infinity
            var k = first
            while k < length {
                let i = index(k), j = index(k + 1)
                let ya = ys[i], yb = ys[j]
                if Swift.min(ya, yb) > b { break }
                if Swift.max(ya, yb) >= t {
                    let xa = xs[i], xb = xs[j]
                    if ya == yb {
                        lo = Swift.min(lo, xa, xb); hi = Swift.max(hi, xa, xb)
                    } else {
                        let s = (xb - xa) / (yb - ya)
                        let y0 = Swift.min(Swift.max(t, Swift.min(ya, yb)), Swift.max(ya, yb))
                        let y1 = Swift.min(Swift.max(b, Swift.min(ya, yb)), Swift.max(ya, yb))
                        let x0 = xa + (y0 - ya) * s, x1 = xa + (y1 - ya) * s
                        lo = Swift.min(lo, x0, x1); hi = Swift.max(hi, x0, x1)
                    }
                }
                k += 1
            }
            return (lo, hi)
        }

        /// Adds the chain's edges reaching `[t, b]`, in contour order, to the accumulator
        /// (which clips them to its band).
        func addEdges(_ t: Double, _ b: Double, to acc: CoverageAccumulator) {
            var k = first
            while k < length {
                let i = index(k), j = index(k + 1)
                if Swift.min(ys[i], ys[j]) > b { break }
                if forward { acc.addEdge(xs[i], ys[i], xs[j], ys[j]) } else { acc.addEdge(xs[j], ys[j], xs[i], ys[i]) }
                k += 1
            }
        }
    }
}
