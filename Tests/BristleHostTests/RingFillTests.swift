@testable import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The stroked rings' fast paths give the bytes of the general ones: a stroked ellipse's ring
/// skips its hole unread (``ShapeScratch/fill(clip:sink:exact:hole:)``) and composites its rows
/// as it resolves them; a mitered rectangle's sides blend as ``SolidStrip``s. Each is compared
/// with the path it replaces: the same outline filled reading every cell, and the same
/// coverage drawn into a mask then composited per pixel (``SpanCompositor``).
@Suite struct RingFillTests {
    /// A deterministic sequence in [0, 1).
    private struct Numbers {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) * 0x1p-53
        }
    }

    private let paints = [Paint(color: RGBAColor(red: 0.3, green: 0.7, blue: 0.1, alpha: 0.6)),
                          Paint(color: RGBAColor(red8: 9, green8: 200, blue8: 77, alpha8: 255)),
                          Paint(color: RGBAColor(red: 0.9, green: 0.2, blue: 0.5, alpha: 0.8), opacity: 0.7),
                          Paint(color: .black, opacity: 0.37, blend: .erase)]

    /// A canvas of varied premultiplied pixels (so blending shows every channel).
    private func canvas(_ w: Int, _ h: Int, padding: Int, seed: UInt64) -> ShapeCanvas {
        let c = ShapeCanvas(w, h, padding: padding)
        var n = Numbers(state: seed)
        for y in 0..<h { for x in 0..<w {
            let a = UInt8(n.next() * 256)
            for k in 0..<3 { c.bytes[y * c.stride + 4 * x + k] = UInt8(n.next() * (Double(a) + 1)) }
            c.bytes[y * c.stride + 4 * x + 3] = a
        } }
        return c
    }

    /// Random rings, many partly or wholly off the 64x48 canvas on every side, some far
    /// larger: two in three with the half width below the smallest radius of curvature (the
    /// inner parallel curve whole), one in three wider (the inner curve trimmed of its
    /// swallowtails; some of those past the smaller radius: no hole).
    private func rings(_ count: Int) -> [(cx: Double, cy: Double, rx: Double, ry: Double, w: Double)] {
        var n = Numbers(state: 7)
        return (0..<count).map { i in
            let big = i % 10 == 0
            let rx = big ? 40 + 200 * n.next() : 1.5 + 40 * n.next()
            let ry = big ? 40 + 200 * n.next() : 1.5 + 40 * n.next()
            let a = max(rx, ry), b = min(rx, ry)
            let curvature = b * b / a, u = n.next()
            let w = i % 3 == 2 ? 2 * (curvature + (1.25 * b - curvature) * u) : 2 * 0.99 * curvature * (0.05 + 0.95 * u)
            return (-40 + 144 * n.next(), -40 + 128 * n.next(), rx, ry, w)
        }
    }

    @Test func ringsSkippingTheirHoleGiveTheBytesOfTheWholeRowFill() {
        for paint in paints {
            for padding in [0, 3] {
                let fast = canvas(64, 48, padding: padding, seed: 1), whole = canvas(64, 48, padding: padding, seed: 1)
                let fastMask = ShapeMask(64, 48), wholeMask = ShapeMask(64, 48)
                let a = Rasterizer(), b = Rasterizer()
                for ring in rings(150) {
                    let style = StrokeStyle(width: ring.w)
                    _ = a.strokeEllipse(centerX: ring.cx, centerY: ring.cy, radiusX: ring.rx, radiusY: ring.ry,
                                        style: style, paint: paint, into: fast.plane)
                    _ = a.drawEllipse(centerX: ring.cx, centerY: ring.cy, radiusX: ring.rx, radiusY: ring.ry,
                                      style: style, target: .mask(fastMask.plane))
                    wholeRowFill(ring, into: .paint(whole.plane, paint), with: b)
                    wholeRowFill(ring, into: .mask(wholeMask.plane), with: b)
                }
                #expect(differingBytes(fast.snapshot(), whole.snapshot()) == 0, "\(paint), padding \(padding)")
                #expect(differingBytes(fastMask.values, wholeMask.values) == 0, "\(paint), padding \(padding)")
                #expect(fast.paddingIntact)
            }
        }
    }

    /// The ring's outline filled with every cell of every row read (no hole).
    @discardableResult
    private func wholeRowFill(_ ring: (cx: Double, cy: Double, rx: Double, ry: Double, w: Double),
                              into target: ShapeTarget, with r: Rasterizer) -> PixelRect {
        let s = r.shapeScratch, sink = CoverageSink(target)!
        let h = ring.w / 2
        s.path.reset(cull: sink.bounds)
        s.ellipse.append(to: &s.path, cx: ring.cx, cy: ring.cy, rx: ring.rx, ry: ring.ry, offset: h)
        if let inner = EllipseFlattener.innerQuadrant(rx: ring.rx, ry: ring.ry, halfWidth: h) {
            s.ellipse.append(to: &s.path, cx: ring.cx, cy: ring.cy, rx: ring.rx, ry: ring.ry, offset: -h,
                             reversed: true, quadrant: inner)
        }
        return s.fill(clip: sink.bounds, sink: sink)
    }

    /// The ring drawn as ``Rasterizer/drawEllipse(centerX:centerY:radiusX:radiusY:style:target:)``
    /// draws a solid ring inside the target: through ``RingRows`` (nil when it declines).
    private func windowedFill(_ ring: (cx: Double, cy: Double, rx: Double, ry: Double, w: Double),
                              into target: ShapeTarget, with r: Rasterizer) -> PixelRect? {
        let s = r.shapeScratch, sink = CoverageSink(target)!
        let h = ring.w / 2
        s.path.reset(cull: sink.bounds)
        s.outerEllipse.append(to: &s.path, cx: ring.cx, cy: ring.cy, rx: ring.rx, ry: ring.ry, offset: h)
        guard let inner = EllipseFlattener.innerQuadrant(rx: ring.rx, ry: ring.ry, halfWidth: h) else {
            return RingRows.fill(scratch: s, outer: s.outerEllipse, inner: nil, cx: ring.cx, cy: ring.cy,
                                 clip: sink.bounds, sink: sink)
        }
        s.ellipse.append(to: &s.path, cx: ring.cx, cy: ring.cy, rx: ring.rx, ry: ring.ry, offset: -h,
                         reversed: true, quadrant: inner)
        return RingRows.fill(scratch: s, outer: s.outerEllipse, inner: s.ellipse, cx: ring.cx, cy: ring.cy,
                             clip: sink.bounds, sink: sink)
    }

    @Test func ringRowsGiveTheBytesOfTheWholeRowFill() {
        // Rings inside the canvas at every quarter-pixel offset of the centre: walls from a
        // hair (the four windows merged into two) to wider than the smaller radius (no hole),
        // the inner curve whole and trimmed, radii from below a pixel to most of the canvas,
        // round and flat; each compared (pixels and changed rectangle) with the same outline
        // filled reading every cell, on a canvas of varied pixels, one ring after another
        // (a cell left unread would also spoil the rings after it).
        let radii = [0.6, 1.3, 3.2, 9.75, 27.4, 50.1]
        let widths = [0.25, 1, 2.6, 7.5, 15]
        for paint in paints.prefix(2) {
            let windowed = canvas(160, 120, padding: 3, seed: 6), whole = canvas(160, 120, padding: 3, seed: 6)
            let a = Rasterizer(), b = Rasterizer()
            var drawn = 0, holes = 0
            for q in 0..<16 {
                for rx in radii { for ry in radii { for w in widths {
                    let ring = (cx: 80 + Double(q % 4) / 4, cy: 60 + Double(q / 4) / 4, rx: rx, ry: ry, w: w)
                    let rect = windowedFill(ring, into: .paint(windowed.plane, paint), with: a)
                    let expected = wholeRowFill(ring, into: .paint(whole.plane, paint), with: b)
                    #expect(rect == expected, "\(ring)")
                    drawn += 1
                    if EllipseFlattener.innerQuadrant(rx: rx, ry: ry, halfWidth: w / 2) != nil { holes += 1 }
                } } }
                #expect(differingBytes(windowed.snapshot(), whole.snapshot()) == 0, "\(paint), offset \(q)")
            }
            #expect(drawn == 2880 && holes > 1000 && holes < 2500, "\(holes) rings with a hole")
            #expect(windowed.paddingIntact)
        }
    }

    @Test func ringRowsClippedByTheCanvasGiveTheBytesOfTheWholeRowFill() {
        // Rings across each side and corner of the canvas (their vertices beyond it culled,
        // their edges clipped: those left of it moved onto cells 0 and 1), rings around the
        // whole canvas (it lies in their hole, or in their wall), and rings wholly off it.
        var rings: [(cx: Double, cy: Double, rx: Double, ry: Double, w: Double)] = []
        for cx in [-30.25, -3.5, 2.75, 80.5, 157.5, 170.25, 190.0] {
            for cy in [-20.5, 1.25, 60.75, 118.75, 140.5] {
                for (rx, ry, w) in [(12.3, 7.6, 2.5), (40.25, 55.5, 6.0), (3.1, 9.4, 0.75), (25.0, 25.0, 30.0)] {
                    rings.append((cx, cy, rx, ry, w))
                }
            }
        }
        rings += [(80.5, 60.25, 120.3, 90.6, 4.5), (80.5, 60.25, 95.0, 70.0, 60.0), (80.25, 60.0, 400.0, 310.0, 7.0),
                  (-200.0, 60.0, 150.0, 40.0, 3.0), (80.0, 300.0, 70.0, 60.0, 9.0), (200.0, 200.0, 60.0, 50.0, 150.0)]
        for paint in paints.prefix(2) {
            let windowed = canvas(160, 120, padding: 3, seed: 10), whole = canvas(160, 120, padding: 3, seed: 10)
            let a = Rasterizer(), b = Rasterizer()
            for ring in rings {
                let rect = windowedFill(ring, into: .paint(windowed.plane, paint), with: a)
                let expected = wholeRowFill(ring, into: .paint(whole.plane, paint), with: b)
                #expect(rect == expected, "\(ring)")
            }
            #expect(differingBytes(windowed.snapshot(), whole.snapshot()) == 0, "\(paint)")
            #expect(windowed.paddingIntact)
        }
    }

    @Test func ringRowsDeclineWhatTheyDoNotDraw() {
        // Into a mask, with a translucent paint or another blend, taller than a band, and
        // with coordinates past 2^24: the general fill draws those.
        let c = canvas(64, 48, padding: 0, seed: 8), mask = ShapeMask(64, 48), tall = canvas(940, 940, padding: 0, seed: 8)
        let r = Rasterizer()
        #expect(windowedFill((30, 20, 10, 8, 2), into: .paint(c.plane, paints[0]), with: r) != nil)
        #expect(windowedFill((30, 20, 10, 8, 2), into: .mask(mask.plane), with: r) == nil)
        #expect(windowedFill((30, 20, 10, 8, 2), into: .paint(c.plane, paints[2]), with: r) == nil)
        #expect(windowedFill((30, 20, 10, 8, 2), into: .paint(c.plane, paints[3]), with: r) == nil)
        #expect(windowedFill((470, 468, 450, 440, 6.5), into: .paint(tall.plane, paints[0]), with: r) == nil)
        #expect(windowedFill((0x1p24, 20, 10, 8, 2), into: .paint(c.plane, paints[0]), with: r) == nil)
    }

    @Test func ringsTallerThanABandSkipTheirHoleBandByBand() {
        // A 900-pixel box holds 581 rows per band: the hole is marked per band.
        let paint = paints[0]
        let fast = canvas(940, 940, padding: 0, seed: 4), whole = canvas(940, 940, padding: 0, seed: 4)
        let a = Rasterizer(), b = Rasterizer()
        for ring in [(cx: 470.3, cy: 468.8, rx: 450.2, ry: 440.7, w: 6.5), (cx: 470.0, cy: 300.5, rx: 300.0, ry: 460.25, w: 3.0)] {
            _ = a.strokeEllipse(centerX: ring.cx, centerY: ring.cy, radiusX: ring.rx, radiusY: ring.ry,
                                style: StrokeStyle(width: ring.w), paint: paint, into: fast.plane)
            wholeRowFill(ring, into: .paint(whole.plane, paint), with: b)
        }
        #expect(differingBytes(fast.snapshot(), whole.snapshot()) == 0)
    }

    @Test func ringsCompositedAsResolvedGiveTheBytesOfTheirMaskComposited() {
        for paint in paints {
            let direct = canvas(64, 48, padding: 3, seed: 2), viaMask = canvas(64, 48, padding: 3, seed: 2)
            let r = Rasterizer()
            for ring in rings(60) {
                let style = StrokeStyle(width: ring.w)
                _ = r.strokeEllipse(centerX: ring.cx, centerY: ring.cy, radiusX: ring.rx, radiusY: ring.ry,
                                    style: style, paint: paint, into: direct.plane)
                let mask = ShapeMask(64, 48)
                _ = r.drawEllipse(centerX: ring.cx, centerY: ring.cy, radiusX: ring.rx, radiusY: ring.ry,
                                  style: style, target: .mask(mask.plane))
                _ = r.compositeMask(mask.plane, rect: PixelRect(x: 0, y: 0, width: 64, height: 48), paint: paint,
                                    onto: viaMask.plane, base: nil)
            }
            #expect(differingBytes(direct.snapshot(), viaMask.snapshot()) == 0, "\(paint)")
        }
    }

    @Test func mitredRectangleStripsGiveTheBytesOfTheirMaskComposited() {
        // Widths from a hair to wider than a strip holds (the per-run fallback), at fractional
        // positions, every start column modulo 4, rows aligned and not (padding 3).
        var n = Numbers(state: 11)
        var rects: [(Double, Double, Double, Double, Double)] = []
        for i in 0..<120 {
            let w = i < 40 ? 0.05 + Double(i) * 0.45 : 0.1 + 12 * n.next()
            rects.append((-6 + 60 * n.next(), -6 + 40 * n.next(), 3 + 40 * n.next(), 3 + 30 * n.next(), w))
        }
        for paint in paints {
            for padding in [0, 3] {
                let direct = canvas(64, 48, padding: padding, seed: 3), viaMask = canvas(64, 48, padding: padding, seed: 3)
                let r = Rasterizer()
                for (x, y, w, h, width) in rects {
                    let style = StrokeStyle(width: width, join: .miter)
                    _ = r.strokeRect(x: x, y: y, width: w, height: h, style: style, paint: paint, into: direct.plane)
                    let mask = ShapeMask(64, 48)
                    _ = r.drawRect(x: x, y: y, width: w, height: h, style: style, target: .mask(mask.plane))
                    _ = r.compositeMask(mask.plane, rect: PixelRect(x: 0, y: 0, width: 64, height: 48), paint: paint,
                                        onto: viaMask.plane, base: nil)
                }
                #expect(differingBytes(direct.snapshot(), viaMask.snapshot()) == 0, "\(paint), padding \(padding)")
                #expect(direct.paddingIntact)
            }
        }
    }
    @Test func solidStripRowsGiveTheBytesOfThePixelCompositor() {
        // Every strip length (the single pixel, the overlapping pairs, one to four vectors),
        // every paint alpha, coverages from 0 to 255 per pixel, rows not 4-byte aligned
        // (padding 3) and the lookahead's prefetches past the last row.
        var n = Numbers(state: 5)
        for alpha in 0...255 {
            let blend: BlendMode = alpha % 16 == 5 ? .erase : .sourceOver
            let paint = Paint(color: RGBAColor(red8: UInt8((alpha * 7) % 256), green8: 200, blue8: 31, alpha8: UInt8(alpha)),
                              opacity: alpha % 3 == 0 ? 0.73 : 1, blend: blend)
            let source = SpanCompositor.Source(paint)
            for count in 1...SolidStrip.capacity {
                let x0 = (alpha + count) % 4, rows = 1 + count % 4
                let strip = canvas(20, rows, padding: 3, seed: UInt64(alpha * 17 + count))
                let pixels = canvas(20, rows, padding: 3, seed: UInt64(alpha * 17 + count))
                var coverage = InlineArray<16, UInt8>(repeating: 0)
                for i in 0..<count {
                    let r = n.next()
                    coverage[i] = r < 0.2 ? 0 : r < 0.4 ? 255 : UInt8(r * 256)
                }
                let s = SolidStrip(count: count, source: source, coverage: coverage)
                s.apply(rows: 0..<rows, of: strip.plane, offset: 4 * x0)
                for y in 0..<rows { for i in 0..<count {
                    let c = source.effective(coverage[i])
                    guard c != 0 else { continue }
                    let d = pixels.bytes + y * pixels.stride + 4 * (x0 + i)
                    SpanCompositor.blendPixel(UnsafePointer(d), d, c, source)
                } }
                #expect(differingBytes(strip.snapshot(), pixels.snapshot()) == 0, "alpha \(alpha), count \(count)")
            }
        }
    }

    @Test func mitredRectanglesAtEveryQuarterOffsetGiveTheBytesOfTheirAnalyticCoverage() {
        // Every quarter-pixel offset of both sides and every width from a hair to 8.5 px,
        // against each pixel's exact coverage `ox oy - hx hy` (outer box minus hole, as
        // AxisRectCoverage documents) composited per pixel: the merged runs of the rows above,
        // beside and below the hole, and the sides' strips, for paints of every kind.
        func overlap(_ i: Int, _ lo: Double, _ hi: Double) -> Double {
            max(0, min(Double(i) + 1, hi) - max(Double(i), lo))
        }
        for paint in paints {
            let source = SpanCompositor.Source(paint)
            for q in 0..<16 {
                for w in stride(from: 0.25, through: 8.5, by: 0.75) {
                    let direct = canvas(40, 40, padding: 3, seed: 9), exact = canvas(40, 40, padding: 3, seed: 9)
                    let x = 4 + Double(q % 4) / 4, y = 4 + Double(q / 4) / 4
                    let width = 20 + Double(q) / 8, height = 22 - Double(q) / 4, h = w / 2
                    _ = Rasterizer().strokeRect(x: x, y: y, width: width, height: height,
                                                style: StrokeStyle(width: w, join: .miter), paint: paint, into: direct.plane)
                    let hole = width > w && height > w
                    for j in 0..<40 { for i in 0..<40 {
                        let outer = overlap(j, y - h, y + height + h) * overlap(i, x - h, x + width + h)
                        let inner = hole ? overlap(j, y + h, y + height - h) * overlap(i, x + h, x + width - h) : 0
                        let c = source.effective(UInt8(min(max(outer - inner, 0), 1) * 255 + 0.5))
                        guard c != 0 else { continue }
                        let d = exact.bytes + j * exact.stride + 4 * i
                        SpanCompositor.blendPixel(UnsafePointer(d), d, c, source)
                    } }
                    #expect(differingBytes(direct.snapshot(), exact.snapshot()) == 0, "\(paint), offset \(q), width \(w)")
                }
            }
        }
    }
}
