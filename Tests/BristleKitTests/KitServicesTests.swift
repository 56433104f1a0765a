@testable import BristleKit
import BristleHost
import BristleTestSupport
import CBristle
import Testing

/// BristleKit's drawing calls against the host's C services: every kit call draws exactly what
/// the C call with the same arguments draws (pixels, stride padding, mask cells and returned
/// rectangle), records it as dirty, and changes something (so the comparison is not of two
/// no-ops).
@Suite struct KitServicesTests {
    /// One kit call and the C call that must give the same result, on two identical surfaces.
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var kit: @Sendable (Canvas, CoverageMask, Services) -> Rect
        var c: @Sendable (UnsafePointer<bristle_services_t>, UnsafePointer<bristle_target_t>,
                          UnsafePointer<bristle_mask_t>) -> bristle_rect_t
    }

    static let red = Paint(color: Color(red: 0.9, green: 0.1, blue: 0.2, alpha: 0.8), opacity: 0.7)
    static let eraser = Paint(color: Color(red: 0, green: 0, blue: 0, alpha: 1), opacity: 0.6, blend: .erase)

    /// The C paints of `red` and `eraser`.
    static func cPaint(_ erase: Bool = false) -> bristle_paint_t {
        erase ? bristle_paint_t(struct_size: UInt32(MemoryLayout<bristle_paint_t>.size), blend: BRISTLE_BLEND_ERASE,
                                color: bristle_color_t(r: 0, g: 0, b: 0, a: 1), opacity: 0.6)
              : bristle_paint_t(struct_size: UInt32(MemoryLayout<bristle_paint_t>.size), blend: BRISTLE_BLEND_SRC_OVER,
                                color: bristle_color_t(r: 0.9, g: 0.1, b: 0.2, a: 0.8), opacity: 0.7)
    }

    /// A 3 x 2 tile with every kind of alpha, premultiplied, as pixels and as C bytes.
    static let tilePixels = [Pixel(r: 200, g: 0, b: 0, a: 200), Pixel(r: 0, g: 90, b: 0, a: 128), .clear,
                             Pixel(r: 10, g: 20, b: 255, a: 255), Pixel(r: 0, g: 0, b: 0, a: 255),
                             Pixel(r: 30, g: 30, b: 30, a: 60)]
    static let tileBytes: [UInt8] = tilePixels.flatMap { [$0.r, $0.g, $0.b, $0.a] }
    static func tile(_ offsetX: Int, _ offsetY: Int) -> Pattern {
        Pattern(width: 3, height: 2, pixels: tilePixels, offsetX: offsetX, offsetY: offsetY)!
    }

    /// Calls `body` with the C tile at the given offsets.
    static func withCTile<R>(_ offsetX: Int32, _ offsetY: Int32, _ body: (UnsafePointer<bristle_pattern_t>) -> R) -> R {
        tileBytes.withUnsafeBufferPointer { bytes in
            var p = bristle_pattern_t()
            p.struct_size = UInt32(MemoryLayout<bristle_pattern_t>.size)
            p.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED
            p.pixels = bytes.baseAddress
            p.width = 3
            p.height = 2
            p.stride_bytes = 12
            p.offset_x = offsetX
            p.offset_y = offsetY
            return withUnsafePointer(to: p) { body($0) }
        }
    }

    /// Calls `body` with a C stroke style.
    static func withCStyle<R>(width: Double, cap: UInt32, join: UInt32, miterLimit: Double = 4, dashes: [Double] = [],
                              phase: Double = 0, closed: Bool = false,
                              _ body: (UnsafePointer<bristle_stroke_style_t>) -> R) -> R {
        dashes.withUnsafeBufferPointer { d in
            var s = bristle_stroke_style_t()
            s.struct_size = UInt32(MemoryLayout<bristle_stroke_style_t>.size)
            s.cap = cap
            s.join = join
            s.flags = closed ? BRISTLE_STROKE_CLOSED : 0
            s.width = width
            s.miter_limit = miterLimit
            s.dashes = d.baseAddress
            s.dash_count = UInt32(d.count)
            s.dash_phase = phase
            return withUnsafePointer(to: s) { body($0) }
        }
    }

    static let zigzag: [(x: Double, y: Double)] = [(4.5, 40), (15.2, 8.3), (27, 38.9), (41.7, 6), (58.1, 30.4)]
    static let zigzagXY: [Double] = zigzag.flatMap { [$0.x, $0.y] }
    static let star: [(x: Double, y: Double)] = [(32, 2), (44, 44), (6, 16), (58, 16), (20, 44)]
    static let starXY: [Double] = star.flatMap { [$0.x, $0.y] }

    static let cases: [Case] = [
        Case(description: "fill_segment, butt caps",
             kit: { canvas, _, _ in canvas.fillSegment(from: (5.3, 7.1), to: (50.2, 30.7), startWidth: 6, endWidth: 11, cap: .butt, paint: red) },
             c: { sv, t, _ in
                 var s = bristle_segment_t(struct_size: UInt32(MemoryLayout<bristle_segment_t>.size), cap: BRISTLE_CAP_BUTT,
                                           x0: 5.3, y0: 7.1, x1: 50.2, y1: 30.7, width0: 6, width1: 11)
                 var p = cPaint()
                 return sv.pointee.fill_segment!(sv, t, &s, &p)
             }),
        Case(description: "fill_segment, square caps, erase",
             kit: { canvas, _, _ in canvas.fillSegment(from: (10, 40), to: (52, 9.5), startWidth: 9, endWidth: 3, cap: .square, paint: eraser) },
             c: { sv, t, _ in
                 var s = bristle_segment_t(struct_size: UInt32(MemoryLayout<bristle_segment_t>.size), cap: BRISTLE_CAP_SQUARE,
                                           x0: 10, y0: 40, x1: 52, y1: 9.5, width0: 9, width1: 3)
                 var p = cPaint(true)
                 return sv.pointee.fill_segment!(sv, t, &s, &p)
             }),
        Case(description: "draw_rect, filled, dragged up and left",
             kit: { canvas, _, _ in canvas.drawRect(x: 50.5, y: 40.25, width: -37.3, height: -22.6, paint: red) },
             c: { sv, t, _ in
                 var p = cPaint()
                 return sv.pointee.draw_rect!(sv, t, 50.5, 40.25, -37.3, -22.6, nil, &p, nil)
             }),
        Case(description: "draw_rect, stroked, miter, dashed, pattern",
             kit: { canvas, _, _ in
                 canvas.drawRect(x: 8.5, y: 6, width: 44, height: 30.5,
                                 style: StrokeStyle(width: 5, join: .miter, dashes: [9, 4], dashPhase: 2),
                                 paint: red, pattern: tile(1, 2))
             },
             c: { sv, t, _ in
                 var p = cPaint()
                 return withCStyle(width: 5, cap: BRISTLE_CAP_ROUND, join: BRISTLE_JOIN_MITER, dashes: [9, 4], phase: 2) { s in
                     withCTile(1, 2) { tile in sv.pointee.draw_rect!(sv, t, 8.5, 6, 44, 30.5, s, &p, tile) }
                 }
             }),
        Case(description: "draw_ellipse, filled, pattern, erase",
             kit: { canvas, _, _ in
                 canvas.drawEllipse(x: 30.3, y: 22.8, radiusX: 25, radiusY: 14.5, paint: eraser, pattern: tile(-7, 5))
             },
             c: { sv, t, _ in
                 var p = cPaint(true)
                 return withCTile(-7, 5) { tile in sv.pointee.draw_ellipse!(sv, t, 30.3, 22.8, 25, 14.5, nil, &p, tile) }
             }),
        Case(description: "draw_ellipse, stroked, dashed with a negative phase",
             kit: { canvas, _, _ in
                 canvas.drawEllipse(x: 33, y: 25, radiusX: 20.5, radiusY: 17,
                                    style: StrokeStyle(width: 3.5, cap: .butt, dashes: [6, 2, 1], dashPhase: -5), paint: red)
             },
             c: { sv, t, _ in
                 var p = cPaint()
                 return withCStyle(width: 3.5, cap: BRISTLE_CAP_BUTT, join: BRISTLE_JOIN_ROUND, dashes: [6, 2, 1], phase: -5) { s in
                     sv.pointee.draw_ellipse!(sv, t, 33, 25, 20.5, 17, s, &p, nil)
                 }
             }),
        Case(description: "draw_polyline, open, square caps, bevel joins, dashed",
             kit: { canvas, _, _ in
                 canvas.drawPolyline(zigzag, style: StrokeStyle(width: 4, cap: .square, join: .bevel, dashes: [10, 3]), paint: red)
             },
             c: { sv, t, _ in
                 var p = cPaint()
                 return withCStyle(width: 4, cap: BRISTLE_CAP_SQUARE, join: BRISTLE_JOIN_BEVEL, dashes: [10, 3]) { s in
                     zigzagXY.withUnsafeBufferPointer { sv.pointee.draw_polyline!(sv, t, $0.baseAddress, 5, s, &p, nil) }
                 }
             }),
        Case(description: "draw_polyline, closed, miter limit 2, pattern",
             kit: { canvas, _, _ in
                 canvas.drawPolyline(zigzag, style: StrokeStyle(width: 6, join: .miter, miterLimit: 2, closed: true),
                                     paint: red, pattern: tile(0, 0))
             },
             c: { sv, t, _ in
                 var p = cPaint()
                 return withCStyle(width: 6, cap: BRISTLE_CAP_ROUND, join: BRISTLE_JOIN_MITER, miterLimit: 2, closed: true) { s in
                     withCTile(0, 0) { tile in
                         zigzagXY.withUnsafeBufferPointer { sv.pointee.draw_polyline!(sv, t, $0.baseAddress, 5, s, &p, tile) }
                     }
                 }
             }),
        Case(description: "draw_polyline, filled polygon, far pattern offsets",
             kit: { canvas, _, _ in canvas.drawPolyline(star, paint: red, pattern: tile(-1_000_003, 2_000_000_001)) },
             c: { sv, t, _ in
                 var p = cPaint()
                 return withCTile(-1_000_003, 2_000_000_001) { tile in
                     starXY.withUnsafeBufferPointer { sv.pointee.draw_polyline!(sv, t, $0.baseAddress, 5, nil, &p, tile) }
                 }
             }),
        Case(description: "draw_dab, soft",
             kit: { canvas, _, _ in canvas.drawDab(x: 31.6, y: 20.2, radius: 17, hardness: 0.3, paint: red) },
             c: { sv, t, _ in
                 var p = cPaint()
                 return sv.pointee.draw_dab!(sv, t, 31.6, 20.2, 17, 0.3, &p, nil)
             }),
        Case(description: "draw_dab, NaN hardness, pattern",
             kit: { canvas, _, _ in canvas.drawDab(x: 20, y: 30, radius: 12.5, hardness: .nan, paint: red, pattern: tile(2, 1)) },
             c: { sv, t, _ in
                 var p = cPaint()
                 return withCTile(2, 1) { tile in sv.pointee.draw_dab!(sv, t, 20, 30, 12.5, .nan, &p, tile) }
             }),
        Case(description: "mask_segment, square caps",
             kit: { _, mask, sv in mask.addSegment(from: (3, 3), to: (60, 44), startWidth: 2, endWidth: 8, cap: .square, using: sv) },
             c: { sv, _, m in
                 var s = bristle_segment_t(struct_size: UInt32(MemoryLayout<bristle_segment_t>.size), cap: BRISTLE_CAP_SQUARE,
                                           x0: 3, y0: 3, x1: 60, y1: 44, width0: 2, width1: 8)
                 return sv.pointee.mask_segment!(sv, m, &s)
             }),
        Case(description: "mask_rect, stroked, bevel",
             kit: { _, mask, sv in mask.addRect(x: 5.5, y: 4.5, width: 50, height: 36, style: StrokeStyle(width: 7, join: .bevel), using: sv) },
             c: { sv, _, m in
                 withCStyle(width: 7, cap: BRISTLE_CAP_ROUND, join: BRISTLE_JOIN_BEVEL) { s in sv.pointee.mask_rect!(sv, m, 5.5, 4.5, 50, 36, s) }
             }),
        Case(description: "mask_ellipse, filled",
             kit: { _, mask, sv in mask.addEllipse(x: 40, y: 20, radiusX: 30, radiusY: 11.2, using: sv) },
             c: { sv, _, m in sv.pointee.mask_ellipse!(sv, m, 40, 20, 30, 11.2, nil) }),
        Case(description: "mask_polyline, dashed, butt",
             kit: { _, mask, sv in mask.addPolyline(zigzag, style: StrokeStyle(width: 3, cap: .butt, dashes: [5, 5]), using: sv) },
             c: { sv, _, m in
                 withCStyle(width: 3, cap: BRISTLE_CAP_BUTT, join: BRISTLE_JOIN_ROUND, dashes: [5, 5]) { s in
                     zigzagXY.withUnsafeBufferPointer { sv.pointee.mask_polyline!(sv, m, $0.baseAddress, 5, s) }
                 }
             }),
        Case(description: "mask_dab",
             kit: { _, mask, sv in mask.addDab(x: 25, y: 25, radius: 20, hardness: 0.5, using: sv) },
             c: { sv, _, m in sv.pointee.mask_dab!(sv, m, 25, 25, 20, 0.5) }),
        Case(description: "composite_mask_pattern over base",
             kit: { canvas, mask, sv in
                 mask.addEllipse(x: 30, y: 24, radiusX: 26, radiusY: 19, using: sv)
                 return canvas.composite(mask, in: Rect(x: -5, y: 3, width: 100, height: 30), paint: red, pattern: tile(1, 1),
                                         overBase: true)
             },
             c: { sv, t, m in
                 _ = sv.pointee.mask_ellipse!(sv, m, 30, 24, 26, 19, nil)
                 var p = cPaint()
                 return withCTile(1, 1) { tile in
                     sv.pointee.composite_mask_pattern!(sv, t, m, bristle_rect_t(x: 0, y: 3, width: 64, height: 30), &p, tile,
                                                        BRISTLE_COMPOSITE_OVER_BASE)
                 }
             }),
    ]

    /// The host converts a brush's paint once while its bytes stay the same (PaintCache): a
    /// paint changed in place between calls paints with its new colour, and one made invalid
    /// (NaN opacity) after a valid one draws nothing.
    @Test func aPaintChangedInPlaceBetweenCallsIsSeen() {
        var s = bristle_segment_t(struct_size: UInt32(MemoryLayout<bristle_segment_t>.size), cap: BRISTLE_CAP_ROUND,
                                  x0: 10, y0: 10, x1: 40, y1: 10, width0: 9, width1: 9)
        let green = bristle_color_t(r: 0.1, g: 0.9, b: 0.2, a: 1)
        func centre(_ surface: KitSurface) -> [UInt8] {
            let p = surface.pixels + 10 * surface.stride + 25 * 4
            return [p[0], p[1], p[2], p[3]]
        }
        let host = BrushHost(), sv = host.cServices
        let surface = KitSurface(services: sv, background: .clear)
        var p = Self.cPaint()
        _ = sv.pointee.fill_segment!(sv, surface.target, &s, &p)
        let red = centre(surface)
        p.color = green
        p.opacity = 1
        _ = sv.pointee.fill_segment!(sv, surface.target, &s, &p)

        let fresh = BrushHost()
        let only = KitSurface(services: fresh.cServices, background: .clear)
        var q = p
        _ = fresh.cServices.pointee.fill_segment!(fresh.cServices, only.target, &s, &q)
        #expect(centre(only) != red, "green and red differ at the centre")
        #expect(centre(surface) == centre(only), "the changed paint is the one drawn")

        p.opacity = .nan
        let r = sv.pointee.fill_segment!(sv, surface.target, &s, &p)
        #expect(r.width == 0 || r.height == 0, "an invalid paint after a valid one draws nothing")
    }

    @Test(arguments: cases)
    func kitCallDrawsWhatTheCServiceDraws(_ c: Case) throws {
        let host = BrushHost()
        let kitSurface = KitSurface(services: host.cServices), cSurface = KitSurface(services: host.cServices)
        let before = cSurface.bytes
        let canvas = kitSurface.canvas()
        let mask = CoverageMask(width: kitSurface.width, height: kitSurface.height)
        let kitRect = c.kit(canvas, mask, canvas.services)
        var cMask = cSurface.mask
        let cRect = Rect(c.c(host.cServices, cSurface.target, &cMask))

        #expect(!cRect.isEmpty, "the C call draws something")
        #expect(kitRect == cRect)
        #expect(differingBytes(kitSurface.bytes, cSurface.bytes) == 0, "pixel bytes differ")
        let kitCells = (0..<mask.height).flatMap { y in (0..<mask.width).map { x in mask[x, y] } }
        #expect(differingBytes(kitCells, cSurface.cells) == 0, "mask cells differ")
        #expect(cSurface.bytes != before || cSurface.cells.contains { $0 != 0 }, "the case changes something")
        if cSurface.bytes != before {
            #expect(canvas.dirty == cRect, "the canvas records what it changed")
        } else {
            #expect(canvas.dirty.isEmpty && mask.touched == cRect, "the mask records what it raised")
        }
    }
}
