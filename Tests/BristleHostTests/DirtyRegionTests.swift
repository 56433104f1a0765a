import BristleHost
import Testing

/// How the host merges a draw's dirty rectangles: contained ones vanish, overlapping or close
/// ones that waste little become one, distant strips stay apart, the region never holds more
/// than 16, and it always covers everything added.
@Suite struct DirtyRegionTests {
    static func r(_ x: Int32, _ y: Int32, _ w: Int32, _ h: Int32) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }

    @Test func containedAndEmptyRectanglesAddNothing() {
        var region = DirtyRegion(Self.r(0, 0, 100, 100))
        region.add(Self.r(10, 10, 5, 5))
        region.add(Self.r(500, 500, 0, 9))
        #expect(region.rects == [Self.r(0, 0, 100, 100)])
        region.add(Self.r(-10, -10, 300, 300)) // swallows the first
        #expect(region.rects == [Self.r(-10, -10, 300, 300)])
    }

    @Test func nearbyStripsMergeAndTheFourSidesOfAFrameDoNot() {
        var moved = DirtyRegion(Self.r(100, 100, 1800, 8))
        moved.add(Self.r(100, 101, 1803, 8)) // the same side one pixel lower: little waste
        #expect(moved.rects == [Self.r(100, 100, 1803, 9)])
        var frame = DirtyRegion()
        for side in [Self.r(100, 100, 1800, 8), Self.r(100, 1392, 1800, 8), Self.r(100, 108, 8, 1284),
                     Self.r(1892, 108, 8, 1284)] { frame.add(side) }
        #expect(frame.rects.count == 4)
        #expect(frame.bounds == Self.r(100, 100, 1800, 1300))
        #expect(moved.bounds == Self.r(100, 100, 1803, 9))  // one rectangle: itself
        #expect(DirtyRegion().bounds == .empty)
    }

    @Test func manyRectanglesStayWithinCapacityAndCoverEverything() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20 {
            var region = DirtyRegion()
            var added: [PixelRect] = []
            for _ in 0..<40 {
                let rect = Self.r(Int32(rng.next() % 4000), Int32(rng.next() % 3000), Int32(rng.next() % 40) + 1,
                                  Int32(rng.next() % 40) + 1)
                added.append(rect)
                region.add(rect)
                #expect(region.rects.count <= DirtyRegion.capacity)
            }
            for rect in added {
                #expect((rect.x..<rect.x + rect.width).allSatisfy { x in
                    (rect.y..<rect.y + rect.height).allSatisfy { y in region.contains(x: x, y: y) }
                }, "\(rect) is not covered")
            }
        }
    }
}
