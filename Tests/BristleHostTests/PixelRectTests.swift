import BristleHost
import Testing

/// Rectangle arithmetic at the edges of the Int32 range, where a brush's over-estimated dirty
/// rectangle lands.
@Suite struct PixelRectTests {
    let canvas = PixelRect(x: 0, y: 0, width: 100, height: 50)

    @Test func hugeRectanglesClipInsteadOfWrapping() {
        let huge = PixelRect(x: 1, y: 1, width: .max, height: .max)
        #expect(huge.intersection(canvas) == PixelRect(x: 1, y: 1, width: 99, height: 49))
        #expect(huge.maxX == Int64(Int32.max) + 1)
        #expect(huge.union(canvas) == PixelRect(x: 0, y: 0, width: .max, height: .max))
        #expect(huge.contains(canvas.intersection(huge)))
    }

    @Test func intersectionsEndAtInt32Max() {
        let far = PixelRect(x: .max - 10, y: .max - 5, width: 100, height: 100)
        #expect(far.intersection(far) == PixelRect(x: .max - 10, y: .max - 5, width: 10, height: 5))
        let all = PixelRect(x: .min, y: .min, width: .max, height: .max)
        #expect(all.intersection(PixelRect(x: .min, y: -3, width: .max, height: 7))
                == PixelRect(x: .min, y: -3, width: .max, height: 2), "all ends before -1")
        #expect(all.intersection(PixelRect(x: -1, y: -1, width: 5, height: 5)).isEmpty, "all ends before -1")
        #expect(canvas.intersection(PixelRect(x: 99, y: 49, width: 9, height: 9)) == PixelRect(x: 99, y: 49, width: 1, height: 1))
    }

    @Test func emptyAndDisjoint() {
        #expect(PixelRect(x: 5, y: 5, width: 0, height: 3).intersection(canvas).isEmpty)
        #expect(PixelRect(x: 200, y: 0, width: 10, height: 10).intersection(canvas).isEmpty)
        #expect(PixelRect(x: Int32.min, y: 0, width: 10, height: 10).intersection(canvas).isEmpty)
        #expect(PixelRect.empty.union(canvas) == canvas)
        #expect(canvas.contains(.empty))
    }

    @Test func coveringRoundsOutwardAndClips() {
        #expect(PixelRect.covering(minX: 1.5, minY: 2.2, maxX: 3.1, maxY: 2.9, clip: canvas)
                == PixelRect(x: 1, y: 2, width: 3, height: 1))
        #expect(PixelRect.covering(minX: -1e300, minY: -5, maxX: 1e300, maxY: 1e300, clip: canvas) == canvas)
        #expect(PixelRect.covering(minX: .nan, minY: 0, maxX: 1, maxY: 1, clip: canvas).isEmpty)
    }

    /// Messages print rectangles in the docs' notation (ABI.md: `{x, y, width, height}`).
    @Test func descriptionUsesTheDocsNotation() {
        #expect(PixelRect(x: 3, y: -4, width: 10, height: 2).description == "{3, -4, 10, 2}")
        #expect(PixelRect(x: 5, y: 6, width: 0, height: 3).description == "{5, 6, 0, 3} (empty)")
    }
}
