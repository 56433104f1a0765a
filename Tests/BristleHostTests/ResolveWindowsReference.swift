@testable import BristleHost

// The Swift windowed resolve the segment used before CBristleResolveOver_rows replaced it: kept
// as the reference ResolveOverTests compares the C resolve with, byte for byte.
extension CoverageSpans {
    /// Resolves the band row whose cells start at `cells` (`w + 2` of them, `w` the band's width;
    /// nonzero rule) reading only the cells of its two ``RowWindows`` windows, whose record starts
    /// at `bounds` (every other cell must be zero): `pixel(x, m)` for each pixel inside a window
    /// but its last cell (coverage `m`, 0 included), `run(lo, hi, m)` from a window's last cell up
    /// to the next window or the row's end (the coverage there is the prefix sum just after that
    /// cell, which the zero cells keep: no cell of it is read; called only when `m > 0`). The
    /// pixels left of the first window have coverage 0 and are not visited. The same coverage,
    /// pixel for pixel, as ``resolve(row:of:rule:)``. Zeroes the cells read and the row's two
    /// cells past its last pixel. Returns the columns `lo..<hi` holding every non-zero coverage,
    /// exactly (`lo >= hi` when there is none).
    static func resolveWindows(_ cells: UnsafeMutablePointer<Float>, width w: Int, bounds: UnsafeMutablePointer<Int>,
                               pixel: (Int, UInt8) -> Void, run: (Int, Int, UInt8) -> Void) -> (lo: Int, hi: Int) {
        // The windows in order (an empty one, lowest `Int.max`, sorts last).
        var a0 = bounds[0], a1 = bounds[1], b0 = bounds[2], b1 = bounds[3]
        if b0 < a0 {
            swap(&a0, &b0)
            swap(&a1, &b1)
        }
        var lo = w, hi = 0
        guard a1 >= 0 else { return (lo, hi) }  // no cell written: all zero already
        // Overlapping or touching windows, or a single one: one window up to the row's end.
        let single = b1 < 0 || b0 <= a1 &+ 1
        if single && b1 > a1 { a1 = b1 }
        var sum: Float = 0
        var x = a0, last = a1
        var next = single ? w : b0
        var second = !single
        while true {
            let stop = last < w ? last : w
            while x < stop {
                sum += cells[x]
                cells[x] = 0
                let m = Self.quantize(Swift.min(abs(sum), 1))
                pixel(x, m)
                // Branch-free: whether a pixel is covered is the data's, not predictable. `lo` moves
                // to `x` only when `x` is below it (`lo` starts at `w`), written without `w`: one
                // register fewer in the loop.
                let least = lo < x ? lo : x
                lo = m != 0 ? least : lo
                hi = m != 0 ? x &+ 1 : hi
                x &+= 1
            }
            // `last` is at most w + 1, inside the row's cells.
            sum += cells[last]
            cells[last] = 0
            let m = Self.quantize(Swift.min(abs(sum), 1))
            let to = next < w ? next : w
            if m != 0 && last < to {
                if lo > last { lo = last }
                hi = to
                run(last, to, m)
            }
            guard second else { break }
            second = false
            x = b0
            last = b1
            next = w
        }
        cells[w] = 0
        cells[w &+ 1] = 0
        return (lo, hi)
    }
}
