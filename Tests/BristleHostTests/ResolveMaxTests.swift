@testable import BristleHost
import CBristleMath
import Testing

/// The mask resolve's dense rows (``CBristleResolveMax_rows``, inline C): its SSE2 steps (four rows
/// at a time up to 48 pixels wide, row by row beyond) and its plain path against a cell-by-cell
/// Swift reference (sum in order, ``CoverageSpans/quantize(_:)``, max), for random windows of
/// random cells at every width up to 80 (every tail of the steps, bands of 1, 2, 3 and 6 rows so
/// that lanes repeat the last row, gaps above and below the split), masks with and without room
/// past the band, with mask rows as long as their room or longer.
@Suite struct ResolveMaxTests {
    /// A band's cells, windows and mask, random, with garbage past each row's last window in the
    /// buffer's padding (which the SSE2 steps read and must not use).
    private struct Band {
        var cells: [Float]
        var bounds: [Int]
        var mask: [UInt8]
        let width: Int, rows: Int, maskStride: Int, room: Int
    }

    private struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        /// A cell value: mostly small signed areas, some whole crossings and exact zeros.
        mutating func cell() -> Float {
            switch next(8) {
            case 0: return 0
            case 1: return next(2) == 0 ? 1 : -1
            default: return Float(next(2_000_001) - 1_000_000) / 800_000
            }
        }
    }

    /// `extraRoom` bytes of room past the band in each mask row, and `extraStride` more bytes
    /// past the room (random, which the resolve must leave as they are) before the next row.
    private static func band(width w: Int, rows h: Int, extraRoom: Int, extraStride: Int,
                             _ g: inout Generator) -> Band {
        let stride = w + 2
        var cells = [Float](repeating: 0, count: stride * h + CoverageAccumulator.padding)
        var bounds = [Int](repeating: 0, count: 4 * h)
        for r in 0..<h {
            var windows: [(Int, Int)] = []
            for _ in 0..<2 {
                if g.next(5) == 0 {
                    windows.append((.max, -1))
                    continue
                }
                let lo = g.next(stride), hi = lo + g.next(Swift.min(6, stride - lo))
                windows.append((lo, hi))
                for x in lo...hi { cells[r * stride + x] = g.cell() }
            }
            bounds[4 * r] = windows[0].0
            bounds[4 * r + 1] = windows[0].1
            bounds[4 * r + 2] = windows[1].0
            bounds[4 * r + 3] = windows[1].1
        }
        for i in (stride * h)..<cells.count { cells[i] = Float(i % 7) - 3.5 }
        let room = w + extraRoom, maskStride = room + extraStride
        let mask = (0..<(maskStride * h)).map { _ in UInt8(g.next(256)) }
        return Band(cells: cells, bounds: bounds, mask: mask, width: w, rows: h, maskStride: maskStride, room: room)
    }

    /// Cell by cell, summed from column 0 (the cells left of the windows are zero).
    private static func reference(_ b: Band) -> (mask: [UInt8], lo: Int, hi: Int, first: Int, last: Int) {
        var mask = b.mask
        var lo = b.width, hi = 0, first = b.rows, last = -1
        for r in 0..<b.rows {
            var sum: Float = 0
            for x in 0..<b.width {
                sum += b.cells[r * (b.width + 2) + x]
                let m = CoverageSpans.quantize(Swift.min(abs(sum), 1))
                let i = r * b.maskStride + x
                mask[i] = Swift.max(mask[i], m)
                if m != 0 {
                    lo = Swift.min(lo, x)
                    hi = Swift.max(hi, x + 1)
                    first = Swift.min(first, r)
                    last = r
                }
            }
        }
        return (mask, lo, hi, first, last)
    }

    @Test("the SSE2 steps and the plain path equal the cell-by-cell resolve at every width and tail, and zero the band")
    func denseRowsMatchTheReference() {
        var g = Generator(state: 29)
        var failures = 0, split = 0, heights = Set<Int>(), strideBeyondRoom = 0
        for w in 1...80 {
            for trial in 0..<12 where failures < 5 {
                // Bands of 1, 2 and 3 rows (the four-row steps repeat the last row in 3, 2 and 1
                // lanes) and 6 (a second group of four); every other band's mask rows longer than
                // their room (bytes the resolve must not touch).
                let h = [6, 1, 2, 3][trial % 4], extraStride = trial % 2 == 1 ? 7 : 0
                let b = Self.band(width: w, rows: h, extraRoom: trial % 3 == 0 ? 0 : 16, extraStride: extraStride, &g)
                heights.insert(h)
                if b.maskStride > b.room { strideBeyondRoom += 1 }
                let want = Self.reference(b)
                // Bands up to the dense width also without records (as the rasteriser calls them).
                let records = w <= Int(CBRISTLE_RESOLVE_MAX_DENSE_WIDTH) ? [true, false] : [true]
                for simd: Int32 in [1, 0] {
                    for recorded in records {
                        var cells = b.cells, bounds = b.bounds, mask = b.mask
                        let e = cells.withUnsafeMutableBufferPointer { c in
                            bounds.withUnsafeMutableBufferPointer { bo in
                                mask.withUnsafeMutableBufferPointer { m in
                                    CBristleResolveMax_rowsAs(c.baseAddress!, w + 2, w, recorded ? bo.baseAddress! : nil,
                                                              b.rows, m.baseAddress!, b.maskStride, b.room, simd)
                                }
                            }
                        }
                        let got = (e.first <= e.last) ? (e.lo, e.hi, e.first, e.last) : (w, 0, b.rows, -1)
                        let zeroed = cells[..<((w + 2) * b.rows)].allSatisfy { $0 == 0 }
                        let padding = cells[((w + 2) * b.rows)...] == b.cells[((w + 2) * b.rows)...]
                        if mask != want.mask || got != (want.lo, want.hi, want.first, want.last) || !zeroed || !padding {
                            failures += 1
                            let wanted = (want.lo, want.hi, want.first, want.last)
                            let same = mask == want.mask
                            Issue.record("width \(w), trial \(trial), simd \(simd), records \(recorded): extent \(got) against \(wanted), mask equal \(same), zeroed \(zeroed), padding kept \(padding)")
                        }
                    }
                }
                for r in 0..<b.rows {
                    let (a0, a1) = (b.bounds[4 * r], b.bounds[4 * r + 1])
                    let (b0, b1) = (b.bounds[4 * r + 2], b.bounds[4 * r + 3])
                    if a1 >= 0 && b1 >= 0 && Swift.max(a0, b0) - (a0 < b0 ? a1 : b1) > 32 { split += 1 }
                }
            }
        }
        #expect(split > 0, "no row had two windows far enough apart to be resolved apart")
        #expect(heights == [1, 2, 3, 6] && strideBeyondRoom > 400, "heights \(heights.sorted()), \(strideBeyondRoom) bands with mask rows longer than their room")
    }

    @Test("the C quantisation equals CoverageSpans.quantize(min(abs(s), 1)) for ties, limits, infinities and NaNs")
    func quantizeMatchesSwift() {
        var values: [Float] = [0, -0, 1, -1, 2, .infinity, -.infinity, .nan, -.nan,
                               Float(bitPattern: 0x7FC0_00FF), Float(bitPattern: 0xFFC0_1234), .leastNonzeroMagnitude]
        for k in 0...510 {
            let t = Float(k) / 510
            values += [t, -t, t.nextUp, t.nextDown]
        }
        for v in values {
            let want = CoverageSpans.quantize(Swift.min(abs(v), 1))
            let got = UInt8(CBristleComposite_quantize(v))
            #expect(got == want, "\(v) (bits \(String(v.bitPattern, radix: 16))): \(got) against \(want)")
        }
    }
}
