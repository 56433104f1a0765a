@testable import BristleHost
import Testing

/// ``TouchedBlocks/zeroRunEnd(_:from:width:bits:shift:)`` against a cell-by-cell search: rows
/// of seeded random widths, block sizes and patterns of zero and non-zero cells (negative
/// zeros count as written, as in the resolves), marked blocks a superset of those holding
/// non-zero cells, and the row's two spare cells past `width` written (they must never end a
/// run: the result is at most `width`).
@Suite struct TouchedBlocksTests {
    @Test func zeroRunEndIsTheFirstNonZeroCell() {
        var rng = SplitMix(seed: 13)
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
            // The row's two spare cells past `width`, and the cell after the row, hold values.
            cells[w] = 0.5
            cells[w + 1] = -0.25
            cells[w + 2] = 1
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

/// A small seeded generator (SplitMix64) for reproducible cases.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
