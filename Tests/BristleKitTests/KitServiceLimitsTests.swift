@testable import BristleKit
import BristleHost
import BristleTestSupport
import CBristle
import Testing

/// What the kit's drawing calls do at the edges: a host whose services table is older (shorter)
/// than the kit's header, a table with a missing function, hostile values, and patterns that
/// cannot be made invalid.
@Suite struct KitServiceLimitsTests {
    static let paint = Paint(color: Color(red: 0.2, green: 0.5, blue: 0.9), opacity: 0.8)
    static let tile = Pattern(width: 2, height: 2, pixels: [Pixel(r: 255, g: 0, b: 0, a: 255), .clear, .clear,
                                                            Pixel(r: 0, g: 0, b: 90, a: 90)])!

    /// Every 1.1 call on `canvas`, each of which must draw nothing there, with its name.
    static func newerCalls(_ canvas: Canvas, _ mask: CoverageMask) -> [(String, Rect)] {
        let sv = canvas.services, style = StrokeStyle(width: 4)
        let zig: [(x: Double, y: Double)] = [(2, 2), (30, 20), (50, 4)]
        return [("fillSegment butt", canvas.fillSegment(from: (3, 3), to: (40, 30), startWidth: 5, endWidth: 5, cap: .butt, paint: paint)),
                ("fillSegment square", canvas.fillSegment(from: (3, 3), to: (40, 30), startWidth: 5, endWidth: 5, cap: .square, paint: paint)),
                ("drawRect", canvas.drawRect(x: 4, y: 4, width: 30, height: 20, paint: paint)),
                ("drawRect stroked", canvas.drawRect(x: 4, y: 4, width: 30, height: 20, style: style, paint: paint)),
                ("drawEllipse", canvas.drawEllipse(x: 30, y: 20, radiusX: 20, radiusY: 10, paint: paint)),
                ("drawPolyline", canvas.drawPolyline(zig, style: style, paint: paint)),
                ("drawPolyline filled", canvas.drawPolyline(zig, paint: paint)),
                ("drawDab", canvas.drawDab(x: 20, y: 20, radius: 10, hardness: 0.5, paint: paint)),
                ("drawDab pattern", canvas.drawDab(x: 20, y: 20, radius: 10, hardness: 1, paint: paint, pattern: tile)),
                ("mask addSegment butt", mask.addSegment(from: (3, 3), to: (40, 30), startWidth: 5, endWidth: 5, cap: .butt, using: sv)),
                ("mask addRect", mask.addRect(x: 4, y: 4, width: 30, height: 20, using: sv)),
                ("mask addEllipse", mask.addEllipse(x: 30, y: 20, radiusX: 20, radiusY: 10, style: style, using: sv)),
                ("mask addPolyline", mask.addPolyline(zig, style: style, using: sv)),
                ("mask addDab", mask.addDab(x: 20, y: 20, radius: 10, hardness: 0.2, using: sv)),
                ("composite pattern", canvas.composite(mask, in: Rect(x: 0, y: 0, width: 64, height: 48), paint: paint,
                                                       pattern: tile, overBase: false))]
    }

    @Test func aHostWithThe10TableGetsOnlyThe10CallsAndNothingIsReadBeyondIt() throws {
        let host = BrushHost()
        let older = try #require(OlderServicesTable(copying: host.cServices))
        let surface = KitSurface(services: older.table)
        let before = surface.bytes
        let canvas = surface.canvas()
        let sv = canvas.services
        for service in Services.Service.allCases {
            let old = [Services.Service.fillSegment, .fillDisc, .maskSegment, .maskDisc, .compositeMask].contains(service)
            #expect(sv.provides(service) == old, "\(service)")
        }
        let mask = CoverageMask(width: surface.width, height: surface.height)
        for (name, rect) in Self.newerCalls(canvas, mask) {
            #expect(rect.isEmpty, "\(name) drew on a 1.0 host")
        }
        #expect(surface.bytes == before && canvas.dirty.isEmpty && mask.touched.isEmpty)
        // The 1.0 calls still draw.
        #expect(!canvas.fillSegment(from: (3, 3), to: (40, 30), startWidth: 5, endWidth: 5, paint: Self.paint).isEmpty)
        #expect(!mask.addDisc(x: 20, y: 20, radius: 8, using: sv).isEmpty)
        #expect(!canvas.composite(mask, in: Rect(x: 0, y: 0, width: 64, height: 48), paint: Self.paint, overBase: true).isEmpty)
        #expect(surface.bytes != before && !canvas.dirty.isEmpty)
    }

    @Test func aMissingFunctionInAFullTableDrawsNothing() {
        let host = BrushHost()
        var table = host.cServices.pointee
        table.draw_rect = nil
        withUnsafePointer(to: table) { pointer in
            let surface = KitSurface(services: pointer)
            let before = surface.bytes
            let canvas = surface.canvas()
            #expect(!canvas.services.provides(.drawRect) && canvas.services.provides(.drawEllipse))
            #expect(canvas.drawRect(x: 4, y: 4, width: 30, height: 20, paint: Self.paint).isEmpty)
            #expect(surface.bytes == before)
            #expect(!canvas.drawEllipse(x: 30, y: 20, radiusX: 9, radiusY: 9, paint: Self.paint).isEmpty)
        }
    }

    @Test func hostileValuesDrawNothingAndNeverTrap() {
        let host = BrushHost()
        let surface = KitSurface(services: host.cServices)
        let before = surface.bytes
        let canvas = surface.canvas()
        let mask = CoverageMask(width: surface.width, height: surface.height)
        let sv = canvas.services
        let tooManyDashes = StrokeStyle(width: 2, dashes: Array(repeating: 3, count: Int(BRISTLE_MAX_DASHES) + 1))
        let tooManyPoints = Array(repeating: (x: 5.0, y: 5.0), count: Int(BRISTLE_MAX_POLYLINE_POINTS) + 1)
        let calls: [(String, Rect)] = [
            ("NaN rectangle", canvas.drawRect(x: .nan, y: 4, width: 30, height: 20, paint: Self.paint)),
            ("infinite ellipse", canvas.drawEllipse(x: 30, y: 20, radiusX: .infinity, radiusY: 10, paint: Self.paint)),
            ("absurd rectangle", canvas.drawRect(x: 0, y: 0, width: 1e300, height: 1e300, style: StrokeStyle(width: 3), paint: Self.paint)),
            ("negative width", canvas.drawRect(x: 4, y: 4, width: 30, height: 20, style: StrokeStyle(width: -1), paint: Self.paint)),
            ("NaN width", canvas.drawEllipse(x: 30, y: 20, radiusX: 9, radiusY: 9, style: StrokeStyle(width: .nan), paint: Self.paint)),
            ("too many dashes", canvas.drawRect(x: 4, y: 4, width: 30, height: 20, style: tooManyDashes, paint: Self.paint)),
            ("negative dash", canvas.drawRect(x: 4, y: 4, width: 30, height: 20, style: StrokeStyle(width: 2, dashes: [4, -1]), paint: Self.paint)),
            ("NaN phase", canvas.drawRect(x: 4, y: 4, width: 30, height: 20, style: StrokeStyle(width: 2, dashes: [4, 1], dashPhase: .nan), paint: Self.paint)),
            ("no points", canvas.drawPolyline([], style: StrokeStyle(width: 2), paint: Self.paint)),
            ("too many points", canvas.drawPolyline(tooManyPoints, style: StrokeStyle(width: 2), paint: Self.paint)),
            ("two-point polygon", canvas.drawPolyline([(1, 1), (40, 40)], paint: Self.paint)),
            ("NaN dab", canvas.drawDab(x: 20, y: 20, radius: .nan, hardness: 0.5, paint: Self.paint)),
            ("NaN segment", canvas.fillSegment(from: (.nan, 3), to: (40, 30), startWidth: 5, endWidth: 5, cap: .butt, paint: Self.paint)),
            ("mask too many points", mask.addPolyline(tooManyPoints, using: sv)),
            ("mask NaN dab", mask.addDab(x: 1, y: .nan, radius: 4, hardness: 1, using: sv)),
            ("composite, mask of another size", canvas.composite(CoverageMask(width: 3, height: 3), in: Rect(x: 0, y: 0, width: 3, height: 3),
                                                                 paint: Self.paint, pattern: Self.tile, overBase: false)),
            ("composite off the canvas", canvas.composite(mask, in: Rect(x: 500, y: 0, width: 3, height: 3), paint: Self.paint,
                                                          pattern: Self.tile, overBase: false)),
        ]
        for (name, rect) in calls {
            #expect(rect.isEmpty, "\(name) drew")
        }
        #expect(differingBytes(surface.bytes, before) == 0)
        #expect(canvas.dirty.isEmpty && mask.touched.isEmpty)
        // Out-of-range paint values are clamped, never passed on raw.
        let wild = Paint(color: Color(red: .nan, green: 7, blue: -3, alpha: .infinity), opacity: 42)
        #expect(!canvas.drawDab(x: 20, y: 20, radius: 6, hardness: 0.5, paint: wild).isEmpty)
    }

    @Test func patternsAreValidByConstruction() throws {
        #expect(Pattern(width: 0, height: 1, pixels: []) == nil)
        #expect(Pattern(width: 2, height: 2, pixels: [.clear]) == nil)
        #expect(Pattern(width: Pattern.maximumSide + 1, height: 1) { _, _ in .clear } == nil)
        #expect(Pattern(width: -4, height: -4) { _, _ in .clear } == nil)
        var p = try #require(Pattern(width: 2, height: 1, pixels: [Pixel(r: 200, g: 10, b: 0, a: 100), .clear]))
        #expect(p[0, 0] == Pixel(r: 100, g: 10, b: 0, a: 100), "colour above alpha is lowered to it")
        p[1, 0] = Pixel(r: 255, g: 255, b: 255, a: 3)
        #expect(p[1, 0] == Pixel(r: 3, g: 3, b: 3, a: 3))
        p[2, 0] = Pixel(r: 1, g: 1, b: 1, a: 1)
        #expect(p[2, 0] == .clear && p[-1, 0] == .clear, "outside the tile: ignored")
        let generated = try #require(Pattern(width: 3, height: 2) { x, y in Pixel(r: 0, g: 0, b: UInt8(x), a: UInt8(10 * y + 5)) })
        #expect(generated[2, 1] == Pixel(r: 0, g: 0, b: 2, a: 15))
    }

    @Test func extremePatternOffsetsTileLikeTheirRemainder() {
        let host = BrushHost()
        let far = KitSurface(services: host.cServices), near = KitSurface(services: host.cServices)
        var farTile = Self.tile, nearTile = Self.tile
        farTile.offsetX = Int.min
        farTile.offsetY = Int.max
        nearTile.offsetX = 0  // Int.min is even
        nearTile.offsetY = 1  // Int.max is odd
        let a = far.canvas().drawEllipse(x: 30, y: 20, radiusX: 25, radiusY: 15, paint: Self.paint, pattern: farTile)
        let b = near.canvas().drawEllipse(x: 30, y: 20, radiusX: 25, radiusY: 15, paint: Self.paint, pattern: nearTile)
        #expect(!a.isEmpty && a == b)
        #expect(differingBytes(far.bytes, near.bytes) == 0)
    }
}
