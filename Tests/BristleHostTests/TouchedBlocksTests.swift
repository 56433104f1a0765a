@testable import BristleHost
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
}
