@testable import BristleHost
import Testing

/// ``RingCellWalk`` (through ``RingRows/accumulate(_:outer:inner:to:originX:originY:)``, as a
/// stroked ring is drawn) deposits every cell bit for bit as the general cell walk does: the
/// `Float` cells compared one by one after accumulating the same flattened ring both ways.
@Suite struct RingCellWalkTests {
    /// Random rings at sub-pixel offsets around and across a 96x72 canvas: radii from under a
    /// pixel to past the canvas, round and flat, walls from a hair to past the smaller radius
    /// (the inner curve whole, trimmed, or no hole); about half lie inside the canvas (the
    /// ring walk), the others cross its sides or corners (the clipped general walk). Counts the
    /// walk each ring took (``RingRows/Walk``): at the time of writing 442 whole inside
    /// (``RingCellWalk``'s contour walk), 988 clipped, none through the general interior walk;
    /// the floors fail if the ring walk's `whole` test stops admitting rings.
    @Test func ringWalkDepositsTheGeneralWalksCellsBitForBit() {
        var random = SplitMix64(seed: 13)
        func unit() -> Double { Double(random.next() >> 11) * 0x1p-53 }
        let canvas = PixelRect(x: 0, y: 0, width: 96, height: 72)
        let s = ShapeScratch(), general = CoverageAccumulator()
        var inside = 0, mismatches = 0
        var walks: [RingRows.Walk: Int] = [:]
        for i in 0..<1500 {
            let big = i % 7 == 0
            let rx = big ? 30 + 90 * unit() : 0.4 + 16 * unit()
            let ry = i % 5 == 0 ? rx : big ? 30 + 90 * unit() : 0.4 + 16 * unit()
            let a = max(rx, ry), b = min(rx, ry)
            let curvature = b * b / a
            let h = i % 3 == 2 ? curvature + (1.25 * b - curvature) * unit() : 0.99 * curvature * (0.02 + 0.98 * unit())
            let cx = -10 + 116 * unit(), cy = -10 + 92 * unit()
            s.path.reset(cull: canvas)
            let inner = EllipseFlattener.innerQuadrant(rx: rx, ry: ry, halfWidth: h)
            if let inner {
                s.outerEllipse.appendRing(inner: s.ellipse, to: &s.path, cx: cx, cy: cy, rx: rx, ry: ry,
                                          halfWidth: h, innerQuadrant: inner)
            } else {
                s.outerEllipse.append(to: &s.path, cx: cx, cy: cy, rx: rx, ry: ry, offset: h)
            }
            let box = PixelRect.covering(minX: s.path.minX, minY: s.path.minY, maxX: s.path.maxX,
                                         maxY: s.path.maxY, clip: canvas)
            guard !box.isEmpty else { continue }
            let x0 = Int(box.x), top = Int(box.y), w = Int(box.width), rows = Int(box.height)
            let interior = s.path.minX >= Double(x0) && s.path.maxX <= Double(x0 + w)
                && s.path.minY >= Double(top) && s.path.maxY <= Double(top + rows)
            if interior { inside += 1 }
            let acc = s.accumulator
            acc.begin(originX: x0, originY: top, width: w, height: rows)
            let walk = RingRows.accumulate(s.path, outer: s.outerEllipse, inner: inner == nil ? nil : s.ellipse,
                                           to: acc, originX: x0, originY: top)
            walks[walk, default: 0] += 1
            general.begin(originX: x0, originY: top, width: w, height: rows)
            if interior { s.path.addInteriorEdges(to: general) } else { s.path.addEdges(to: general) }
            let cells = (w + 2) * rows
            var differ = 0
            for k in 0..<cells {
                if acc.cells[k].bitPattern != general.cells[k].bitPattern { differ += 1 }
                acc.cells[k] = 0
                general.cells[k] = 0
            }
            if differ > 0 { mismatches += 1 }
            #expect(differ == 0, "ring \(i) (\(cx), \(cy)) radii \(rx) x \(ry), half width \(h): \(differ) cells differ")
        }
        #expect(mismatches == 0)
        // Both kinds drawn: the ring walk and the clipped general walk.
        #expect(inside > 400 && inside < 1100, "\(inside) rings inside")
        // Both ring walks exercised: whole contours inside (RingCellWalk.addContour, not the
        // general interior walk it replaces) and crossing the sides (RingCellWalk.addClipped).
        let contours = walks[.contours, default: 0], clipped = walks[.clipped, default: 0]
        #expect(contours > 400 && clipped > 800,
                "\(contours) rings through addContour, \(clipped) through addClipped, \(walks[.interiorEdges, default: 0]) through addInteriorEdges")
    }
}
