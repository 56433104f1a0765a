import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Geometry of strokes (joins, miter limits, dashes and their phase, closed paths, ellipse
/// rings), soft dabs, the pattern source, and the bit-exactness of the constant-run blender.
@Suite struct StrokeGeometryTests {
    private let r = Rasterizer()

    private func stroke(_ pts: [(x: Double, y: Double)], _ style: StrokeStyle, closed: Bool = false,
                        size: (Int, Int) = (60, 50)) -> ShapeCanvas {
        let c = ShapeCanvas(size.0, size.1, padding: 4)
        let rect = Rasterizer().drawPolyline(pts, closed: closed, style: style, target: .paint(c.plane, shapeWhite))
        for y in 0..<c.height { for x in 0..<c.width where c.alpha(x, y) != 0 {
            #expect(rect.contains(PixelRect(x: Int32(x), y: Int32(y), width: 1, height: 1)), "dirty rect \(rect) misses \(x),\(y)")
        } }
        #expect(c.paddingIntact)
        return c
    }

    @Test func miterBevelRoundAndTheMiterLimit() {
        let corner: [(x: Double, y: Double)] = [(10, 30), (40, 30), (40, 5)]
        let miter = stroke(corner, StrokeStyle(width: 8, join: .miter, miterLimit: 4))
        let bevel = stroke(corner, StrokeStyle(width: 8, join: .bevel))
        let limited = stroke(corner, StrokeStyle(width: 8, join: .miter, miterLimit: 1.2))  // < sqrt 2
        let round = stroke(corner, StrokeStyle(width: 8, join: .round))
        #expect(miter.alpha(43, 33) == 255, "a miter fills the outer corner")
        #expect(bevel.alpha(43, 33) == 0, "a bevel cuts it")
        #expect(differingBytes(limited.alphas, bevel.alphas) == 0, "over the limit, a miter is a bevel")
        #expect(round.alpha(41, 31) == 255 && round.alpha(43, 33) == 0, "a round join is a disc of the width")
        #expect(miter.alpha(38, 28) == 255 && bevel.alpha(38, 28) == 255, "the inside of the turn is covered")
        // A 30 degree turn: miter ratio 1 / sin 15° = 3.86.
        let sharp: [(x: Double, y: Double)] = [(5, 40), (50, 40), (50 - 45 * cos(.pi / 6), 40 - 45 * sin(.pi / 6))]
        let long = stroke(sharp, StrokeStyle(width: 4, join: .miter, miterLimit: 4))
        let cut = stroke(sharp, StrokeStyle(width: 4, join: .miter, miterLimit: 3.8))
        // The tip lies 2 * 3.86 = 7.7 px from the vertex, at (57.5, 42); pixel (55, 41) is inside.
        #expect(long.alpha(55, 41) >= 240 && cut.alpha(55, 41) == 0, "limit 4 keeps the miter, 3.8 bevels it")
    }

    @Test func joinsLeaveNoSeams() {
        // A closed square through the stroker equals the exact analytic mitered rectangle.
        let square: [(x: Double, y: Double)] = [(10.3, 8.6), (47.2, 8.6), (47.2, 40.1), (10.3, 40.1)]
        let polyline = stroke(square, StrokeStyle(width: 5.5, join: .miter), closed: true)
        let exact = ShapeCanvas(60, 50, padding: 4)
        _ = r.strokeRect(x: 10.3, y: 8.6, width: 36.9, height: 31.5, style: StrokeStyle(width: 5.5, join: .miter),
                         paint: shapeWhite, into: exact.plane)
        let worst = zip(polyline.alphas, exact.alphas).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 2, "the union of pieces matches the exact ring (worst \(worst)/255)")
        // A zig-zag with bevel joins has full coverage on the centre line everywhere.
        let zig: [(x: Double, y: Double)] = [(5, 40), (15, 10), (25, 40), (35, 10.5), (45, 40)]
        let z = stroke(zig, StrokeStyle(width: 6, join: .bevel))
        for i in 0..<4 {
            for t in stride(from: 0.1, through: 0.9, by: 0.1) {
                let x = zig[i].x + (zig[i + 1].x - zig[i].x) * t, y = zig[i].y + (zig[i + 1].y - zig[i].y) * t
                #expect(z.alpha(Int(x), Int(y)) == 255, "centre line at \(x),\(y)")
            }
        }
    }

    /// Row 20 of a horizontal butt-capped dashed line from x = 10 to 110, as on / off per pixel.
    private func dashRow(_ dashes: [Double], phase: Double, cap: LineCap = .butt) -> [UInt8] {
        let c = stroke([(10, 20), (110, 20)], StrokeStyle(width: 4, cap: cap, dashes: dashes, dashPhase: phase), size: (120, 40))
        return (0..<120).map { c.alpha($0, 20) }
    }

    @Test func dashLengthsAndPhase() {
        func expected(_ on: Double, _ off: Double, _ phase: Double, capReach: Double = 0) -> [UInt8] {
            (0..<120).map { x in
                let d = Double(x) + 0.5 - 10
                guard d > -capReach, d < 100 + capReach else { return 0 }
                var m = (d + phase).truncatingRemainder(dividingBy: on + off)
                if m < 0 { m += on + off }
                return m < on ? 255 : 0
            }
        }
        #expect(dashRow([10, 5], phase: 0) == expected(10, 5, 0))
        #expect(dashRow([10, 5], phase: 3) == expected(10, 5, 3))
        #expect(dashRow([10, 5], phase: -3) == expected(10, 5, -3), "a negative phase counts backwards")
        #expect(dashRow([10, 5], phase: 33) == expected(10, 5, 3), "the phase wraps with the period")
        #expect(dashRow([7], phase: 0) == expected(7, 7, 0), "an odd count repeats")
        #expect(dashRow([0, 0], phase: 0) == expected(100, 0, 0), "all zero is solid")
        #expect(dashRow([], phase: 0) == expected(100, 0, 0))
        // Zero-length dashes with round caps are dots of the width.
        let dots = dashRow([0, 10], phase: 0, cap: .round)
        #expect(dots[20] == 255 && dots[30] == 255 && dots[25] == 0 && dots[15] == 0)
        // Square caps lengthen every dash by the width (up to the last dash, which ends at 90).
        #expect(Array(dashRow([10, 10], phase: 0, cap: .square)[..<104]) == Array(expected(14, 6, 2, capReach: 2)[..<104]))
    }

    @Test func dashesAcrossVerticesKeepTheirJoinsAndHugeLinesStayCheap() {
        // One dash turning a corner is joined (mitered), not two capped pieces.
        let c = stroke([(10, 30), (30, 30), (30, 10)], StrokeStyle(width: 6, join: .miter, dashes: [40, 10]))
        #expect(c.alpha(32, 32) == 255, "the miter corner is part of the dash")
        // Dashing the whole 2e8-pixel line would take 33 million dashes, past
        // StrokeStyle.maxDashPieces, and draw nothing; a drawn row shows only the visible part
        // was dashed (the pattern is advanced arithmetically elsewhere).
        #expect(2e8 / 6 > Double(StrokeStyle.maxDashPieces))
        let far = stroke([(-1e8, 20), (1e8, 20)], StrokeStyle(width: 4, dashes: [3, 3]), size: (120, 40))
        let row = (0..<120).map { far.alpha($0, 20) }
        #expect(row.filter { $0 == 255 }.count >= 55 && row.filter { $0 == 0 }.count >= 55, "half on, half off")
        // A pattern needing more than maxDashPieces dashes draws nothing.
        let tooMany = stroke([(0, 20), (120, 20)], StrokeStyle(width: 4, dashes: [1e-4, 1e-4]), size: (120, 40))
        #expect(tooMany.alphas.allSatisfy { $0 == 0 })
    }

    /// Distance from (x, y) to the ellipse curve, by dense sampling.
    private func distanceToEllipse(_ x: Double, _ y: Double, _ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> Double {
        var best = Double.infinity
        for i in 0..<4000 {
            let t = Double(i) / 4000 * 2 * .pi
            let dx = cx + rx * cos(t) - x, dy = cy + ry * sin(t) - y
            best = min(best, (dx * dx + dy * dy).squareRoot())
        }
        return best
    }

    @Test func ellipseStrokesCoverPointsWithinHalfTheWidth() {
        // A ring, a ring with its inner side trimmed of swallowtails, one wider than the smaller radius.
        for (rx, ry, w) in [(22.0, 14.0, 4.0), (24.0, 6.0, 6.0), (24.0, 6.0, 14.0)] {
            let c = ShapeCanvas(60, 40)
            _ = r.strokeEllipse(centerX: 30.2, centerY: 19.7, radiusX: rx, radiusY: ry, style: StrokeStyle(width: w, join: .round),
                                paint: shapeWhite, into: c.plane)
            for y in 0..<40 {
                for x in 0..<60 {
                    let d = distanceToEllipse(Double(x) + 0.5, Double(y) + 0.5, 30.2, 19.7, rx, ry)
                    if d < w / 2 - 0.75 { #expect(c.alpha(x, y) == 255, "\(rx)x\(ry) w=\(w) inside at \(x),\(y)") }
                    if d > w / 2 + 0.75 { #expect(c.alpha(x, y) == 0, "\(rx)x\(ry) w=\(w) outside at \(x),\(y)") }
                }
            }
        }
    }

    @Test func softDabsFallOffAndHardOnesAreDiscs() {
        let hard = ShapeCanvas(40, 40), disc = ShapeCanvas(40, 40), soft = ShapeCanvas(40, 40)
        _ = r.drawDab(centerX: 20.3, centerY: 19.6, radius: 9.5, hardness: 1, target: .paint(hard.plane, shapeWhite))
        _ = r.fillEllipse(centerX: 20.3, centerY: 19.6, radiusX: 9.5, radiusY: 9.5, paint: shapeWhite, into: disc.plane)
        #expect(differingBytes(hard.alphas, disc.alphas) == 0, "hardness 1 is the exact disc")
        _ = r.drawDab(centerX: 20, centerY: 20.5, radius: 10, hardness: 0.5, target: .paint(soft.plane, shapeWhite))
        let ray = (20..<32).map { soft.alpha($0, 20) }
        #expect(ray[0] == 255 && ray[4] == 255, "full inside hardness * radius")
        #expect(zip(ray, ray.dropFirst()).allSatisfy { $0 >= $1 }, "monotone falloff \(ray)")
        #expect(ray[8] > 0 && ray[8] < 128 && ray[10] == 0, "smooth down to the rim \(ray)")
        // profile at t = 0.75: u = 0.5, s = 0.5 -> 128 at the pixel whose centre is 7.5 px out.
        #expect(abs(Int(soft.alpha(27, 20)) - 128) <= 1)
    }

    @Test func patternSourceTilesWithItsOffsetAndErases() {
        // A 2x2 tile: red, green / blue, transparent (premultiplied).
        let tile: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0]
        tile.withUnsafeBufferPointer { t in
            let pattern = PatternTile(base: t.baseAddress!, width: 2, height: 2, strideBytes: 8, offsetX: 1, offsetY: 0)
            let c = ShapeCanvas(8, 6, fill: [10, 10, 10, 255])
            let rect = r.drawRect(x: 0, y: 0, width: 8, height: 6, style: nil,
                                  target: .pattern(c.plane, pattern, opacity: 1, blend: .sourceOver))
            #expect(rect == PixelRect(x: 0, y: 0, width: 8, height: 6))
            #expect(c.pixel(0, 0) == [0, 255, 0, 255], "x 0 samples tile column (0 - 1) mod 2 = 1")
            #expect(c.pixel(1, 0) == [255, 0, 0, 255])
            #expect(c.pixel(1, 1) == [0, 0, 255, 255])
            #expect(c.pixel(0, 1) == [10, 10, 10, 255], "a transparent tile pixel leaves the destination")
            // Erase by the tile's alpha, at half opacity, through a mask with a base.
            let mask = ShapeMask(8, 6)
            _ = r.drawRect(x: 0, y: 0, width: 8, height: 6, style: nil, target: .mask(mask.plane))
            let base = ShapeCanvas(8, 6, fill: [200, 100, 50, 255])
            let out = ShapeCanvas(8, 6)
            let written = r.compositeMask(mask.plane, rect: PixelRect(x: 0, y: 0, width: 8, height: 6), pattern: pattern,
                                          opacity: 0.5, blend: .erase, onto: out.plane, base: base.plane)
            #expect(written == PixelRect(x: 0, y: 0, width: 8, height: 6))
            // Coverage 255 * 0.5 -> 128: alpha 255 * (255 - 128) / 255 = 127.
            #expect(out.pixel(1, 0) == [100, 50, 25, 127], "half erased where the tile is opaque")
            #expect(out.pixel(0, 1) == [200, 100, 50, 255], "a copy of the base where it is transparent")
        }
    }

    @Test func constantRunsAreBitIdenticalToThePixelCompositor() {
        // Rectangles use SolidRun's vector runs; the polygon path uses SpanCompositor per pixel.
        // Runs of 1 to 19 pixels reach the single-pixel, overlapping-pair and overlapping-tail
        // paths at every start column modulo 4.
        var seed: UInt32 = 12345
        func next() -> UInt8 { seed = seed &* 1_103_515_245 &+ 12345; return UInt8(truncatingIfNeeded: seed >> 16) }
        let paints = [Paint(color: RGBAColor(red: 0.3, green: 0.7, blue: 0.1, alpha: 0.6), opacity: 0.8),
                      Paint(color: .black, opacity: 0.37, blend: .erase),
                      Paint(color: RGBAColor(red8: 9, green8: 200, blue8: 77, alpha8: 255))]
        // A padding of 3 leaves rows that are not 4-byte aligned (the unaligned path).
        for paint in paints {
            for padding in [0, 3] {
                let a = ShapeCanvas(41, 23, padding: padding), b = ShapeCanvas(41, 23, padding: padding)
                for y in 0..<23 { for x in 0..<41 {
                    let alpha = next(), px = [UInt8(Int(next()) * Int(alpha) / 255), UInt8(Int(next()) * Int(alpha) / 255), UInt8(Int(next()) * Int(alpha) / 255), alpha]
                    for k in 0..<4 { a.bytes[y * a.stride + 4 * x + k] = px[k]; b.bytes[y * b.stride + 4 * x + k] = px[k] }
                } }
                var rects: [(Double, Double, Double, Double)] = [(3.0, 2.0, 30.0, 15.0), (1.25, 4.5, 37.7, 17.3)]
                for n in 1...19 {
                    let d = Double(n)
                    rects.append((Double(1 + n % 4), d + 2, d, 1))
                }
                for (x, y, w, h) in rects {
                    _ = r.fillRect(x: x, y: y, width: w, height: h, paint: paint, into: a.plane)
                    _ = r.fillPolygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], paint: paint, into: b.plane)
                }
                #expect(differingBytes(a.snapshot(), b.snapshot()) == 0, "\(paint), padding \(padding)")
            }
        }
    }

    @Test func roundCappedSegmentsAreTheCapsuleAndSquareCapsExtend() {
        let seg = TaperedSegment(x0: 10.3, y0: 12.2, x1: 40.6, y1: 30.9, width0: 6, width1: 3)
        let viaCap = ShapeCanvas(50, 40), viaCapsule = ShapeCanvas(50, 40)
        _ = r.drawSegment(seg, cap: .round, target: .paint(viaCap.plane, shapeWhite))
        _ = r.fillSegment(seg, paint: shapeWhite, into: viaCapsule.plane)
        #expect(differingBytes(viaCap.alphas, viaCapsule.alphas) == 0)
        let flat = TaperedSegment(x0: 10, y0: 20, x1: 30, y1: 20, width0: 4, width1: 4)
        let butt = ShapeCanvas(50, 40), square = ShapeCanvas(50, 40)
        _ = r.drawSegment(flat, cap: .butt, target: .paint(butt.plane, shapeWhite))
        _ = r.drawSegment(flat, cap: .square, target: .paint(square.plane, shapeWhite))
        #expect(butt.alpha(9, 20) == 0 && butt.alpha(10, 20) == 255 && butt.alpha(30, 20) == 0)
        #expect(square.alpha(8, 20) == 255 && square.alpha(31, 20) == 255 && square.alpha(32, 20) == 0)
    }

    /// A closed dashed path that is on at its start: the last dash and the first are one dash
    /// joined at the start point (as cairo and AGG draw it), so the start corner is mitered
    /// like the other three (each corner lies mid-dash), not two butt ends.
    @Test func closedDashesJoinAtTheStart() {
        let mask = ShapeMask(40, 40)
        _ = r.drawRect(x: 10, y: 10, width: 20, height: 20,
                       style: StrokeStyle(width: 4, join: .miter, dashes: [6, 4], dashPhase: 3),
                       target: .mask(mask.plane))
        let v = mask.values
        let corners = [(8, 8), (31, 8), (31, 31), (8, 31)].map { v[$0.1 * 40 + $0.0] }
        #expect(corners == [255, 255, 255, 255], "outer corner pixels \(corners)")
        // The whole picture has the square's symmetry: a quarter turn maps it onto itself.
        var symmetric = true
        for y in 0..<40 { for x in 0..<40 where v[y * 40 + x] != v[x * 40 + (39 - y)] { symmetric = false } }
        #expect(symmetric, "the start corner differs from the others")
        // An open path keeps its own dashes: the same square as an open polyline back to the
        // start leaves that corner to two butt ends.
        let open = ShapeMask(40, 40)
        _ = r.drawPolyline([(10, 10), (30, 10), (30, 30), (10, 30), (10, 10)],
                           style: StrokeStyle(width: 4, join: .miter, dashes: [6, 4], dashPhase: 3),
                           target: .mask(open.plane))
        #expect(open.values[8 * 40 + 8] == 0, "an open path's start was joined to its end")
    }
}
