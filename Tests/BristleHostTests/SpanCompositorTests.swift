import Testing
@testable import BristleHost

// The compositor's and the resolve's shortcuts against their plain per-pixel definitions, bit
// for bit: the over-base composite's eight-at-a-time runs of 0 and 255 mask values, the
// four-lane table blend, the over-base composite's two-pixel SIMD blend, and the mask resolve that
// skips runs of zero cells.

/// `round(v / 255)` written out, independent of the compositor's helpers.
private func roundDiv255(_ v: Int) -> Int { (v * 2 + 255) / 510 }

/// Source-over at full opacity of premultiplied `src` with coverage `m` on `dst`, per channel.
private func over(_ src: [Int], _ m: Int, _ dst: [UInt8]) -> [UInt8] {
    if m == 0 { return dst }
    let inv = 255 - roundDiv255(src[3] * m)
    return (0..<4).map { UInt8(truncatingIfNeeded: roundDiv255(src[$0] * m) + roundDiv255(Int(dst[$0]) * inv)) }
}

@Suite("SpanCompositor fast paths") struct SpanCompositorTests {
    /// Mask rows made of runs of 0, 255 and partial values, of every length up to 19, starting
    /// at every offset up to 8: the eight-byte tests see every alignment and run end.
    private static func maskRows() -> [[UInt8]] {
        var rows: [[UInt8]] = []
        for length in 0..<20 {
            for offset in 0..<9 {
                for fill: UInt8 in [0, 255] {
                    var row = [UInt8](repeating: fill == 0 ? 255 : 0, count: 40)
                    for i in offset..<(offset + length) { row[i] = fill }
                    row[39] = 128
                    rows.append(row)
                }
            }
        }
        rows.append((0..<40).map { UInt8(truncatingIfNeeded: $0 * 37) })
        return rows
    }

    /// Runs `body` for each paint colour with its compositor source, an ``OverTable`` and the
    /// source's premultiplied channels.
    private static func forEachPaint(_ paints: [RGBAColor],
                                     _ body: (SpanCompositor.Source, OverTable, [Int]) -> Void) {
        for colour in paints {
            let source = SpanCompositor.Source(Paint(color: colour))
            let tables = OverTable()
            body(source, tables, [Int(source.r), Int(source.g), Int(source.b), Int(source.a)])
            withExtendedLifetime(tables) {}
        }
    }

    @Test("overMaskRow and maskRow over a base at full opacity equal the per-channel source-over, for opaque and translucent paints")
    func maskRowOverBase() {
        Self.forEachPaint([RGBAColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1),
                           RGBAColor(red: 0.9, green: 0.1, blue: 0.4, alpha: 0.6)]) { source, _, src in
            let maskTable = MaskTable()
            for mask in Self.maskRows() {
                let count = mask.count
                // Premultiplied destination pixels that change along the row.
                let base: [UInt8] = (0..<count).flatMap { x -> [UInt8] in
                    let a = UInt8(60 + (x * 13) % 196)
                    return [a / 3, a / 2, a, a]
                }
                var target = [UInt8](repeating: 7, count: 4 * count)
                var viaTable = target
                let span = base.withUnsafeBufferPointer { b in
                    mask.withUnsafeBufferPointer { m in
                        target.withUnsafeMutableBufferPointer { t in
                            SpanCompositor.overMaskRow(t.baseAddress!, from: b.baseAddress!, mask: m.baseAddress!,
                                                       count: count, source: source)
                        }
                        return viaTable.withUnsafeMutableBufferPointer { t in
                            SpanCompositor.maskRow(t.baseAddress!, base: b.baseAddress!, mask: m.baseAddress!,
                                                   count: count, source: source, maskTable: maskTable.prepare(source))
                        }
                    }
                }
                #expect(span.lo == 0 && span.hi == count)
                for x in 0..<count {
                    let want = over(src, Int(mask[x]), Array(base[(4 * x)..<(4 * x + 4)]))
                    #expect(Array(target[(4 * x)..<(4 * x + 4)]) == want, "mask \(mask) pixel \(x)")
                    #expect(Array(viaTable[(4 * x)..<(4 * x + 4)]) == want, "mask table, mask \(mask) pixel \(x)")
                }
            }
        }
    }

    @Test("overMaskRow's four-pixel and overQuads' two-pixel SIMD blends equal the per-channel source-over for every mask value, any base bytes and every tail")
    func maskRowEveryValue() {
        // Base pixels premultiplied and not (a channel above alpha), and all 0 or all 255.
        let pixels: [UInt32] = [0x0000_0000, 0xFFFF_FFFF, 0x8040_2010, 0xC0C0_C0C0, 0x10FF_FF7F, 0x00FF_00FF]
        Self.forEachPaint([RGBAColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1),
                           RGBAColor(red: 0.9, green: 0.1, blue: 0.4, alpha: 0.6),
                           RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)]) { source, tables, src in
            let quads = tables.prepareQuads(source)
            for d in pixels {
                let dst = withUnsafeBytes(of: d.littleEndian) { Array($0) }
                // 256 mask values then up to three more: every tail of the four-pixel steps.
                for count in 256...259 {
                    let mask = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
                    let base = [UInt32](repeating: d.littleEndian, count: count)
                    var target = [UInt32](repeating: 0x0707_0707, count: count)
                    var viaQuads = target
                    base.withUnsafeBytes { b in
                        mask.withUnsafeBufferPointer { m in
                            target.withUnsafeMutableBytes { t in
                                SpanCompositor.overMaskRow(t.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                           from: b.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                           mask: m.baseAddress!, count: count, source: source)
                            }
                            viaQuads.withUnsafeMutableBytes { t in
                                SpanCompositor.overQuads(t.baseAddress!, from: b.baseAddress!, mask: m.baseAddress!,
                                                         count: count, quads: quads)
                            }
                        }
                    }
                    for x in 0..<count {
                        let want = over(src, Int(mask[x]), dst)
                        let got = withUnsafeBytes(of: target[x]) { Array($0) }
                        #expect(got == want, "pixel \(d) mask \(mask[x]) at \(x) of \(count)")
                        let gotQuads = withUnsafeBytes(of: viaQuads[x]) { Array($0) }
                        #expect(gotQuads == want, "overQuads: pixel \(d) mask \(mask[x]) at \(x) of \(count)")
                    }
                }
            }
        }
    }

    @Test("The four-lane table blend equals the two-lane one for every coverage, and overflows the same way")
    func tableBlend() {
        let source = SpanCompositor.Source(Paint(color: RGBAColor(red: 0.7, green: 0.3, blue: 0.55, alpha: 0.75)))
        let tables = OverTable()
        defer { withExtendedLifetime(tables) {} }
        let table = tables.prepare(source)
        let withTable = SpanCompositor.OverPixel(source, table: table)
        let plain = SpanCompositor.OverPixel(source)
        // Premultiplied pixels, and ones that are not (a channel above alpha carries over).
        let pixels: [UInt32] = [0x0000_0000, 0xFFFF_FFFF, 0x8040_2010, 0xC0C0_C0C0, 0x10FF_FF7F, 0x00FF_00FF]
        for d in pixels {
            for m in UInt32(1)...255 {
                var a = d, b = d
                withUnsafeMutableBytes(of: &a) { withTable.apply($0.baseAddress!, m) }
                withUnsafeMutableBytes(of: &b) { plain.apply($0.baseAddress!, m) }
                #expect(a == b, "pixel \(d) coverage \(m)")
            }
        }
    }

    @Test("The table blend without a test of the coverage: coverage 0 copies the pixel, 255 of an opaque paint stores it")
    func tableBlendUntested() {
        for alpha: Float in [1, 0.75] {
            let source = SpanCompositor.Source(Paint(color: RGBAColor(red: 0.7, green: 0.3, blue: 0.55, alpha: alpha)))
            let tables = OverTable()
            let over = SpanCompositor.OverPixel(source, table: tables.prepare(source))
            let pixels: [UInt32] = [0x0000_0000, 0xFFFF_FFFF, 0x8040_2010, 0xC0C0_C0C0, 0x10FF_FF7F, 0x00FF_00FF]
            for d in pixels {
                for m in UInt32(0)...255 {
                    var a = d, b = d
                    withUnsafeMutableBytes(of: &a) { over.applyTable(from: $0.baseAddress!, to: $0.baseAddress!, m) }
                    if m != 0 { withUnsafeMutableBytes(of: &b) { over.apply($0.baseAddress!, m) } }
                    #expect(a == b, "alpha \(alpha) pixel \(d) coverage \(m)")
                }
            }
            withExtendedLifetime(tables) {}
        }
    }

    @Test("resolveMax equals resolve followed by a per-pixel max, and leaves the cells zeroed")
    func resolveMaxMatchesResolve() {
        let width = 37, height = 9
        let polygons: [[(Double, Double)]] = [
            [(1.3, 0.2), (30.7, 2.9), (35.2, 8.6), (3.1, 7.4)],
            [(0.5, 0.5), (36.5, 0.5), (36.5, 8.5), (0.5, 8.5)],
            [(4.25, 1.0), (5.75, 8.0), (20.1, 4.4)],
            // A short run near the row's end (columns 29 ..< 36): its 16-byte max reaches past it.
            [(28.5, 0.5), (36.5, 0.5), (36.5, 8.5), (28.5, 8.5)],
        ]
        var reached = 0
        for points in polygons {
            let acc = CoverageAccumulator(), spans = CoverageSpans()
            var expected: [[UInt8]] = []
            var spansWanted: [(lo: Int, hi: Int)] = []
            acc.begin(originX: 0, originY: 0, width: width, height: height)
            acc.addPolygon(xs: points.map { $0.0 }, ys: points.map { $0.1 })
            let before: [UInt8] = (0..<width).map { UInt8(truncatingIfNeeded: $0 * 41) }
            for y in 0..<height {
                spansWanted.append(spans.resolve(row: y, of: acc, rule: .nonZero))
                expected.append((0..<width).map { Swift.max(before[$0], spans.coverage[$0]) })
            }
            acc.begin(originX: 0, originY: 0, width: width, height: height)
            var windows = acc.rowWindows()
            let xs = points.map { $0.0 }, ys = points.map { $0.1 }
            acc.addPolygon(xs: xs, ys: ys, count: xs.count, observer: &windows)
            for y in 0..<height {
                var mask = before
                let span = mask.withUnsafeMutableBufferPointer {
                    CoverageSpans.resolveMax(rows: 1, cells: acc.row(y), cellStride: acc.stride, width: width,
                                             bounds: windows.bounds + 4 &* y, into: $0.baseAddress!,
                                             maskStride: width, room: width)
                }
                #expect(mask == expected[y], "row \(y)")
                #expect(span.lo == spansWanted[y].lo && span.hi == spansWanted[y].hi, "row \(y)")
                #expect((0..<(width + 2)).allSatisfy { acc.row(y)[$0] == 0 })
            }
            // Again with 16 bytes of room past the row (a mask row followed by others): the runs
            // ending at the row's end are then single 16-byte maxes reaching past it, which must
            // store the bytes after `width` back unchanged (sentinels, most below any coverage).
            acc.begin(originX: 0, originY: 0, width: width, height: height)
            windows = acc.rowWindows()
            acc.addPolygon(xs: xs, ys: ys, count: xs.count, observer: &windows)
            let sentinels: [UInt8] = (0..<16).map { $0 % 5 == 4 ? 0xA5 : UInt8($0 % 2) }
            for y in 0..<height {
                var mask = before + sentinels
                let span = mask.withUnsafeMutableBufferPointer {
                    CoverageSpans.resolveMax(rows: 1, cells: acc.row(y), cellStride: acc.stride, width: width,
                                             bounds: windows.bounds + 4 &* y, into: $0.baseAddress!,
                                             maskStride: width, room: width + 16)
                }
                #expect(Array(mask[..<width]) == expected[y], "row \(y), room past the row")
                #expect(Array(mask[width...]) == sentinels, "row \(y): bytes past the row changed")
                #expect(span.lo == spansWanted[y].lo && span.hi == spansWanted[y].hi, "row \(y), room past the row")
                if span.lo > width - 16 { reached += 1 }
            }
        }
        #expect(reached > 0, "no row's coverage starts within 16 bytes of the row's end")
    }
}
