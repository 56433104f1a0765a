import CBristleMath
import Testing
@testable import BristleHost

// The dense C resolve of the segment (`CBristleResolveOver_rows`, SSE2, and
// `CBristleResolveOver_rowsPlain`) against the Swift windowed resolve it replaced
// (``CoverageSpans/resolveWindows(_:width:bounds:pixel:run:)``, kept in ResolveWindowsReference.swift, blending each pixel and run with
// ``SpanCompositor/OverPixel``), byte for byte: random cells inside random windows at every band
// width from 1 to 64 (every tail length of the four-pixel steps, every start within a step, the
// covered-pixel bitmap up to its bit 63) and from 65 to 154 (the first and last covered steps
// instead), with short windows far apart (the run between them stored at once) and long ones,
// over random pixels, with opaque and translucent paints, through the rows' windows and over
// whole rows; and rows built so that the run between two windows is stored as the colour.

@Suite("CBristleResolveOver: the dense resolve and composite") struct ResolveOverTests {
    /// A cell value: an ordinary area, a tiny one, or one of a pair of large opposite deposits
    /// whose sum rounds differently if the prefix sum's order changes (1e8 + 1 - 1e8 is 0 in
    /// `Float`, 1 + (1e8 - 1e8) is 1).
    static func cell(_ rng: inout SplitMix64, large: inout Float) -> Float {
        switch rng.next() % 7 {
        case 0: return Float(rng.unit() * 2 - 1)
        case 1: return Float(rng.unit() - 0.5) * 0x1p-9
        case 2:
            large = Float(1 + rng.next() % 3) * 1e8 * (rng.next() & 1 == 0 ? 1 : -1)
            return large
        case 3:
            defer { large = 0 }
            return -large
        case 4: return Float(Int(rng.next() % 511)) / 510  // near a rounding tie of the 8-bit levels
        case 5: return rng.next() & 1 == 0 ? 1 : -1  // a covered run follows
        default: return 0
        }
    }

    /// A random window `[lo, hi]` within the row's `w + 2` cells, or an empty one; in a band
    /// wider than 24 pixels, half the time at most four cells long (two windows far apart).
    static func window(_ rng: inout SplitMix64, w: Int) -> (Int, Int) {
        if rng.next() % 5 == 0 { return (Int.max, -1) }
        let a = Int(rng.next() % UInt64(w + 2)), b = Int(rng.next() % UInt64(w + 2))
        if w > 24 && rng.next() & 1 == 0 { return (a, Swift.min(a + Int(rng.next() % 4), w + 1)) }
        return (Swift.min(a, b), Swift.max(a, b))
    }

    @Test("the SSE2 and plain C rows give the Swift resolve's bytes, box and zeroed cells")
    func randomRows() {
        var rng = SplitMix64(seed: 8)
        var checked = 0, tails = Set<Int>(), translucent = 0
        for trial in 0..<6000 {
            // Every fifth trial a band wider than 64 pixels (no bitmap of the covered pixels; far
            // windows resolved one after the other), the others 1 to 64 pixels wide.
            let w = trial % 5 == 3 ? 65 + Int(rng.next() % 90) : 1 + trial % 64, h = 1 + Int(rng.next() % 4)
            let stride = w + 2
            var cells = [Float](repeating: 0, count: stride * h)
            var bounds = [Int](repeating: 0, count: 4 * h)
            var large: Float = 0
            for r in 0..<h {
                let a = Self.window(&rng, w: w), b = Self.window(&rng, w: w)
                bounds[4 * r] = a.0; bounds[4 * r + 1] = a.1; bounds[4 * r + 2] = b.0; bounds[4 * r + 3] = b.1
                for (lo, hi) in [a, b] where lo <= hi {
                    for x in lo...hi { cells[r * stride + x] = Self.cell(&rng, large: &large) }
                }
            }
            let alpha = rng.next() & 1 == 0 ? 1 : Float(rng.unit())
            let source = SpanCompositor.Source(Paint(color: RGBAColor(red: Float(rng.unit()), green: Float(rng.unit()),
                                                                      blue: Float(rng.unit()), alpha: alpha)))
            if source.a != 255 { translucent += 1 }
            let pixels = (0..<(w * h)).map { _ in UInt32(truncatingIfNeeded: rng.next()) }

            // The Swift windowed resolve, row by row.
            var wantCells = cells, want = pixels, wantBox = [Int]()
            var lo = w, hi = 0, first = h, last = -1
            let over = SpanCompositor.OverPixel(source)
            wantCells.withUnsafeMutableBufferPointer { c in
                want.withUnsafeMutableBytes { p in
                    bounds.withUnsafeMutableBufferPointer { b in
                        for r in 0..<h {
                            let row = p.baseAddress! + 4 * w * r
                            let span = CoverageSpans.resolveWindows(c.baseAddress! + stride * r, width: w,
                                                                    bounds: b.baseAddress! + 4 * r) { x, m in
                                if m != 0 { over.apply(row + 4 * x, UInt32(m)) }
                            } run: { from, to, m in
                                for x in from..<to { over.apply(row + 4 * x, UInt32(m)) }
                            }
                            if span.lo < span.hi {
                                lo = Swift.min(lo, span.lo); hi = Swift.max(hi, span.hi)
                                first = Swift.min(first, r); last = r
                            }
                        }
                    }
                }
            }
            if first <= last { wantBox = [lo, hi, first, last] }

            // Every fifth trial the C resolves whole rows (no record), which must give the same.
            let whole = trial % 5 == 4
            for plain in [false, true] {
                var gotCells = cells, got = pixels
                let box = gotCells.withUnsafeMutableBufferPointer { c in
                    got.withUnsafeMutableBytes { p in
                        bounds.withUnsafeMutableBufferPointer { b in
                            let px = p.baseAddress!.assumingMemoryBound(to: UInt8.self)
                            let record = whole ? nil : UnsafePointer(b.baseAddress!)
                            return plain
                                ? CBristleResolveOver_rowsPlain(h, c.baseAddress!, stride, w, record, px, 4 * w,
                                                                source.channelLanes)
                                : CBristleResolveOver_rows(h, c.baseAddress!, stride, w, record, px, 4 * w,
                                                           source.channelLanes)
                        }
                    }
                }
                let gotBox = box.first <= box.last ? [box.lo, box.hi, box.first, box.last] : []
                let zeroed = gotCells.allSatisfy { $0 == 0 } && wantCells.allSatisfy { $0 == 0 }
                if got != want || gotBox != wantBox || !zeroed {
                    Issue.record("trial \(trial), width \(w), \(plain ? "plain C" : "SSE2")\(whole ? ", whole rows" : ""): box \(gotBox) against \(wantBox), pixels \(got == want) (first differing \(String(describing: zip(got, want).enumerated().first { $0.1.0 != $0.1.1 }))), cells zeroed \(zeroed), windows \(bounds)")
                    return
                }
                checked += 1
            }
            for r in 0..<h where w <= 24 {
                let from = Swift.min(bounds[4 * r], bounds[4 * r + 2]), to = Swift.max(bounds[4 * r + 1], bounds[4 * r + 3])
                if from <= to && from < w { tails.insert((Swift.min(to + 1, w) - from) % 4) }
            }
        }
        #expect(checked == 12000 && tails == [0, 1, 2, 3] && translucent > 2000, "\(checked) checked, tails \(tails)")
    }

    #if arch(x86_64)
    @Test("two windows far apart under an opaque paint: the covered run between them is stored as the colour")
    func solidRunBetweenWindows() {
        // The run's cells are zero by contract; here one of them is not (0.5), against it: the
        // SSE2 resolve, storing the run as the colour without reading its cells, leaves that cell
        // and stores the colour there, where a resolve of the run's cells would zero it and blend.
        let source = SpanCompositor.Source(Paint(color: RGBAColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 1)))
        let solid: [UInt8] = [UInt8(source.r), UInt8(source.g), UInt8(source.b), 255]
        var stored = 0
        for w in 25...154 {
            for a0 in [0, 1, 3] {
                let a1 = a0 + 2, b0 = w - 4, marker = a1 + 6
                guard b0 - a1 > 9 else { continue }
                var cells = [Float](repeating: 0, count: w + 2)
                cells[a0] = 1  // covered from a0 on
                cells[b0] = -1  // uncovered from b0 on
                cells[marker] = 0.5
                var bounds = [a0, a1, b0, b0 + 1]
                var pixels = [UInt8](repeating: 7, count: 4 * w)
                _ = cells.withUnsafeMutableBufferPointer { c in
                    pixels.withUnsafeMutableBufferPointer { p in
                        bounds.withUnsafeMutableBufferPointer { b in
                            CBristleResolveOver_rows(1, c.baseAddress!, w + 2, w, UnsafePointer(b.baseAddress!),
                                                     p.baseAddress!, 4 * w, source.channelLanes)
                        }
                    }
                }
                let covered = (a0..<b0).allSatisfy { Array(pixels[(4 * $0)..<(4 * $0 + 4)]) == solid }
                if cells[marker] == 0.5 && covered { stored += 1 } else {
                    Issue.record("width \(w), windows \(a0)...\(a1), \(b0)...\(b0 + 1): marker cell \(cells[marker]), run stored as the colour \(covered)")
                }
            }
        }
        #expect(stored == 130 * 3)
    }
    #endif
}
