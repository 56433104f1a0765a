/// The exact nonzero-covered area of one pixel crossed by several pieces of an outline: what
/// ``OverlapCells`` puts in the pixels where the accumulator's clamped sum of signed areas is
/// not exact (two pieces overlapping inside the pixel).
///
/// The pixel is cut into vertical slabs at every piece's end x and every x where two pieces
/// cross. Inside a slab no piece ends or crosses another, so the pieces keep their vertical
/// order and the nonzero part of each vertical line is a union of intervals whose ends move
/// linearly: its length `L(x)` is linear, and the slab's area is `(L(left) + L(right)) / 2`
/// times its width, exactly. `L` is found by walking down from the pixel's top, where the
/// winding number is known, crossing the pieces in order.
///
/// Coordinates are the band's; the pixel is `[column, column + 1] x [row, row + 1]`.
enum ExactCellArea {
    /// A piece of an edge inside the pixel, `x0 <= x1` (end points in the pixel).
    struct Piece {
        var x0: Double, y0: Double, x1: Double, y1: Double
        /// The change of winding number when crossing the piece downward: `-sign(dx)` of
        /// the edge in its own direction (so 0 for a vertical piece, which is only a slab
        /// boundary).
        var delta: Int32

        /// y on the piece's line at `x` (its end points' y at and beyond them).
        @inline(__always)
        func y(at x: Double) -> Double {
            if x <= x0 { return y0 }
            if x >= x1 { return y1 }
            return y0 + (x - x0) * (y1 - y0) / (x1 - x0)
        }
    }

    /// An edge crossing the pixel's top line (just below it, under the half-open rule of
    /// ``CoverageAccumulator``: the edge continues downward from that line) at `x`, `dir`
    /// +1 for an edge going down.
    struct Crossing {
        var x: Double
        var dir: Int32
    }

    /// Reused storage of one computation.
    struct Scratch {
        var breaks: [Double] = []
        var active: [(mid: Double, left: Double, right: Double, delta: Int32)] = []
    }

    /// The area of the pixel `[column, column + 1] x [row, row + 1]` where the winding number
    /// is not zero. `winding` is the winding number just below the top line at the pixel's
    /// left side, `crossings` the edges crossing the top line inside the pixel, `pieces` every
    /// edge inside it (horizontal ones included, except those on the top or bottom line).
    static func area(column: Double, row: Double, winding: Int32,
                     crossings: UnsafeBufferPointer<Crossing>, pieces: UnsafeBufferPointer<Piece>,
                     scratch s: inout Scratch) -> Double {
        let right = column + 1, bottom = row + 1
        s.breaks.removeAll(keepingCapacity: true)
        s.breaks.append(column)
        s.breaks.append(right)
        let n = pieces.count
        for i in 0..<n {
            let a = pieces[i]
            s.breaks.append(a.x0)
            if a.x1 > a.x0 { s.breaks.append(a.x1) } else { continue }
            for j in (i + 1)..<n where pieces[j].x1 > pieces[j].x0 {
                let b = pieces[j]
                let lo = Swift.max(a.x0, b.x0), hi = Swift.min(a.x1, b.x1)
                guard lo < hi else { continue }
                let dl = a.y(at: lo) - b.y(at: lo), dh = a.y(at: hi) - b.y(at: hi)
                if (dl < 0 && dh > 0) || (dl > 0 && dh < 0) {
                    s.breaks.append(lo + (hi - lo) * (dl / (dl - dh)))
                }
            }
        }
        insertionSort(&s.breaks) { $0 < $1 }
        // Room for every piece in the active list, written through a buffer pointer (no
        // array append, no uniqueness check per piece).
        if s.active.count < n {
            s.active.append(contentsOf: repeatElement((mid: 0.0, left: 0.0, right: 0.0, delta: Int32(0)), count: n - s.active.count))
        }
        let breaks = s.breaks
        return s.active.withUnsafeMutableBufferPointer { active in
            var total = 0.0
            var k = 0
            while k + 1 < breaks.count {
                let a = Swift.max(breaks[k], column), b = Swift.min(breaks[k + 1], right)
                k += 1
                guard b > a else { continue }
                let mid = 0.5 * (a + b)
                var w = winding
                for c in crossings where c.x < mid { w += c.dir }
                var count = 0
                for p in pieces where p.x0 < mid && mid < p.x1 {
                    active[count] = (p.y(at: mid), p.y(at: a), p.y(at: b), p.delta)
                    count += 1
                }
                let slab = UnsafeMutableBufferPointer(rebasing: active[0..<count])
                insertionSort(slab) { $0.mid < $1.mid }
                // The nonzero length of the vertical line at the slab's left (or right) side.
                var lengthLeft = 0.0, lengthRight = 0.0
                var prevLeft = row, prevRight = row
                for e in slab {
                    let yl = Swift.min(Swift.max(e.left, prevLeft), bottom)
                    let yr = Swift.min(Swift.max(e.right, prevRight), bottom)
                    if w != 0 {
                        lengthLeft += yl - prevLeft
                        lengthRight += yr - prevRight
                    }
                    prevLeft = yl
                    prevRight = yr
                    w += e.delta
                }
                if w != 0 {
                    lengthLeft += bottom - prevLeft
                    lengthRight += bottom - prevRight
                }
                total += 0.5 * (lengthLeft + lengthRight) * (b - a)
            }
            return total
        }
    }

    /// Sorts `a` in place, stably (a pixel's few pieces: insertion beats the general sort).
    @inline(__always)
    private static func insertionSort<T>(_ a: inout [T], by less: (T, T) -> Bool) {
        a.withUnsafeMutableBufferPointer { insertionSort($0, by: less) }
    }

    /// ``insertionSort(_:by:)`` of the elements `p` points at.
    @inline(__always)
    private static func insertionSort<T>(_ p: UnsafeMutableBufferPointer<T>, by less: (T, T) -> Bool) {
        var i = 1
        while i < p.count {
            let v = p[i]
            var j = i
            while j > 0 && less(v, p[j - 1]) {
                p[j] = p[j - 1]
                j -= 1
            }
            p[j] = v
            i += 1
        }
    }
}
