@testable import BristleHost
import CBristleMath
import Testing

/// ``TouchedBlocks/zeroRunEnd(_:from:width:bits:shift:)`` against a cell-by-cell search: rows
/// of seeded random widths, block sizes and patterns of zero and non-zero cells (negative
/// zeros count as written, as in the resolves), marked blocks a superset of those holding
/// non-zero cells, and the row's two spare cells past `width` written or not (they must never
/// end a run before `width`: the result is at most `width`).
@Suite struct TouchedBlocksTests {
    @Test func zeroRunEndIsTheFirstNonZeroCell() {
        var rng = SplitMix64(seed: 13)
        var checked = 0
        for trial in 0..<400 {
            let shift = 3 + Int(rng.next() % 3)
            let w = 1 + Int(rng.next() % UInt64(63 << shift))
            let density = 1 + rng.next() % 40  // non-zero cells per hundred
            var cells = [Float](repeating: 0, count: w + 2 + 1)
            var bits: UInt64 = 0
            for x in 0..<w where rng.next() % 100 < density {
                cells[x] = rng.next() % 7 == 0 ? -0.0 : Float(rng.next() % 1000) / 997 + 0.001
                bits |= 1 << UInt64(x >> shift)
            }
            // The row's two spare cells past `width`, and the cell after the row, written or not.
            cells[w] = rng.next() % 2 == 0 ? 0.5 : 0
            cells[w + 1] = rng.next() % 2 == 0 ? -0.25 : 0
            cells[w + 2] = rng.next() % 2 == 0 ? 1 : 0
            // Some blocks marked that hold only zeros.
            bits |= rng.next() & rng.next() & rng.next()
            cells.withUnsafeMutableBufferPointer { buffer in
                let p = buffer.baseAddress!
                for x in 0...w {
                    var expected = x
                    while expected < w && p[expected].bitPattern == 0 { expected += 1 }
                    let got = TouchedBlocks.zeroRunEnd(p, from: x, width: w, bits: bits, shift: shift)
                    if got != expected {
                        Issue.record("trial \(trial) (width \(w), shift \(shift)) from \(x): \(got), expected \(expected)")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }

    /// ``CoverageSpans/resolveOverBlocks(row:of:bits:shift:onto:paint:)`` (the exact fill's rows
    /// read as bits of non-zero cells and composited in C, SSE2 steps per cluster of pixels) and its
    /// plain-C path (``CBristleOverBlocks_rowPlain``, pixel by pixel) against
    /// ``CoverageSpans/resolveOverRuns(row:of:bits:shift:minimumRun:onto:over:run:)`` on the same
    /// rows, its constant runs applied as ``ShapeScratch/fill(clip:sink:exact:hole:)`` applies
    /// them (``SolidRun``): the same pixels byte for byte, the same `lo..<hi`, and every cell of
    /// the row zero afterwards. Seeded random rows of every block size the exact fill reads as
    /// bits (8 to 64 cells), widths that end blocks anywhere, stretches of zero cells of every
    /// length from 1 up (every tail of the four-pixel steps, constant runs), stretches ending at
    /// the row's last pixels, negative zeros, the two spare cells past `width` written, marked
    /// blocks a superset of the written ones, opaque and translucent paint over random pixels.
    @Test func resolveOverBlocksMatchesResolveOverRuns() {
        var rng = SplitMix64(seed: 71)
        let acc = CoverageAccumulator(), spans = CoverageSpans(), table = OverTable()
        var blended = 0, shifts = Set<Int>(), tails = Set<Int>()
        for trial in 0..<600 {
            let shift = 3 + Int(rng.next() % UInt64(TouchedBlocks.maskShift - 2))
            shifts.insert(shift)
            // Up to the widest band of this shift (`(width + 1) >> shift <= 63`, as
            // TouchedBlocks.begin picks it: 4,094 at maskShift), every eighth trial that widest.
            let widest = (64 << shift) - 2
            let w = trial % 8 == 0 ? widest : 1 + Int(rng.next() % UInt64(widest))
            let gap = 1 + Int(rng.next() % 40)  // mean cells between written ones
            var cells = [Float](repeating: 0, count: w + 2)
            var bits: UInt64 = 0
            var x = Int(rng.next() % UInt64(gap))
            while x < w + 2 {
                cells[x] = rng.next() % 9 == 0 ? -0.0 : Float(Int(rng.next() % 2001) - 1000) / 700
                bits |= 1 << UInt64(x >> shift)
                x += 1 + Int(rng.next() % UInt64(2 * gap))
            }
            // A written cell among the row's last five pixels: a stretch ending at the row's end
            // shorter than a four-pixel step's reach.
            if w >= 5 && trial % 3 == 0 {
                let last = w - 1 - Int(rng.next() % 5)
                cells[last] = 0.25
                bits |= 1 << UInt64(last >> shift)
            }
            bits |= rng.next() & rng.next() & rng.next()
            let alpha = rng.next() % 2 == 0 ? 255 : UInt8(rng.next() % 255)
            let source = SpanCompositor.Source(Paint(color: RGBAColor(red8: 200, green8: 30, blue8: 90,
                                                                      alpha8: alpha)))
            let over = SpanCompositor.OverPixel(source, table: table.prepare(source))
            let full = SolidRun(source: source, c: 255)
            let paint = CBristleOverBlocks_Paint(colour: source.channelLanes)
            let background = (0..<(4 * w)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var results: [([UInt8], Int, Int)] = []
            var scratch = [UInt8](repeating: 0, count: w + 8)
            for path in 0..<3 {
                acc.begin(originX: 0, originY: 0, width: w, height: 1)
                let row = acc.row(0)
                for i in 0..<(w + 2) { row[i] = cells[i] }
                var pixels = background
                let span = pixels.withUnsafeMutableBufferPointer { p -> (lo: Int, hi: Int) in
                    let base = p.baseAddress!
                    switch path {
                    case 0:
                        return spans.resolveOverRuns(row: 0, of: acc, bits: bits, shift: shift, minimumRun: 8,
                                                     onto: base, over: over) { lo, hi, m in
                            let run = m == 255 ? full : SolidRun(source: source, c: source.effective(m))
                            run.apply(base + 4 * lo, count: hi - lo)
                            tails.insert((hi - lo) % 4)
                        }
                    case 1:
                        return spans.resolveOverBlocks(row: 0, of: acc, bits: bits, shift: shift,
                                                       onto: base, paint: paint)
                    default:
                        let s = scratch.withUnsafeMutableBufferPointer {
                            CBristleOverBlocks_rowPlain(row, w, bits, shift, base, $0.baseAddress!, paint)
                        }
                        return (s.lo, s.hi)
                    }
                }
                let left = (0..<(w + 2)).filter { row[$0].bitPattern != 0 }
                if !left.isEmpty {
                    Issue.record("trial \(trial) (width \(w), shift \(shift), path \(path)): cells \(left.prefix(4)) not cleared")
                    for i in 0..<(w + 2) { row[i] = 0 }
                }
                results.append((pixels, span.lo, span.hi))
            }
            for path in 1..<3 {
                let (a, b) = (results[0], results[path])
                if a.0 != b.0 || a.1 != b.1 || a.2 != b.2 {
                    let pixel = zip(a.0, b.0).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    Issue.record("trial \(trial) (width \(w), shift \(shift), path \(path)): first byte differing \(pixel.map(String.init) ?? "none"), span \(a.1)..<\(a.2) against \(b.1)..<\(b.2)")
                    return
                }
            }
            // The paths agree: count the trials where they blended something (not all a no-op).
            if results[0].0 != background && results[0].1 < results[0].2 { blended += 1 }
        }
        #expect(blended >= 550 && shifts == Set(3...TouchedBlocks.maskShift),
                "\(blended) of 600 trials blended some pixel, shifts \(shifts.sorted())")
        #expect(tails == [0, 1, 2, 3], "constant runs' lengths modulo 4: \(tails)")
    }
}
