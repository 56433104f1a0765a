import BristleHost
import Foundation
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

    /// Against the plain definition (libm's floor and ceil of the clamped bounds, a box of at
    /// least one pixel, then `intersection`): random boxes at integer and half-integer edges,
    /// degenerate ones, huge ones and ones beside the clip, against clips anywhere in Int32.
    @Test func coveringMatchesItsDefinition() {
        func reference(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, _ clip: PixelRect) -> PixelRect {
            guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, minX <= maxX, minY <= maxY else {
                return .empty
            }
            func edge(_ v: Double, _ round: (Double) -> Double) -> Int64 {
                Int64(round(Swift.min(Swift.max(v, Double(Int32.min / 2)), Double(Int32.max / 2))))
            }
            let x0 = edge(minX, Foundation.floor), y0 = edge(minY, Foundation.floor)
            let x1 = edge(maxX, Foundation.ceil), y1 = edge(maxY, Foundation.ceil)
            return PixelRect(x: Int32(x0), y: Int32(y0), width: Int32(Swift.max(x1 - x0, 1)),
                             height: Int32(Swift.max(y1 - y0, 1))).intersection(clip)
        }
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        func coordinate() -> Double {
            switch next() % 6 {
            case 0: return Double(Int(next() % 400) - 200)                 // an integer
            case 1: return Double(Int(next() % 400) - 200) + 0.5           // a half
            case 2: return Double(next() % 1_000_000) / 2_500 - 200        // anywhere near
            case 3: return (next() % 2 == 0 ? 1 : -1) * Double(next() % 4_000_000_000)  // past Int32/2
            case 4: return (next() % 2 == 0 ? 1 : -1) * 1e300
            default: return [Double.nan, .infinity, -.infinity, -0.0][Int(next() % 4)]
            }
        }
        let clips = [canvas, PixelRect(x: -150, y: -20, width: 40, height: 300), PixelRect(x: 3, y: 3, width: 0, height: 9),
                     PixelRect(x: .max - 10, y: .min, width: .max, height: .max),
                     PixelRect(x: .min, y: .min, width: .max, height: .max)]
        var nonEmpty = 0
        for _ in 0..<20_000 {
            var a = coordinate(), b = coordinate(), c = coordinate(), d = coordinate()
            if next() % 4 != 0 { if a > b { swap(&a, &b) }; if c > d { swap(&c, &d) } }
            if next() % 8 == 0 { b = a }  // zero width: still one pixel
            if next() % 8 == 0 { d = c }
            for clip in clips {
                let got = PixelRect.covering(minX: a, minY: c, maxX: b, maxY: d, clip: clip)
                #expect(got == reference(a, c, b, d, clip), "\(a) \(c) \(b) \(d) in \(clip)")
                if !got.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(nonEmpty > 10_000, "needs boxes that meet the clips")
    }

    /// Messages print rectangles in the docs' notation (ABI.md: `{x, y, width, height}`).
    @Test func descriptionUsesTheDocsNotation() {
        #expect(PixelRect(x: 3, y: -4, width: 10, height: 2).description == "{3, -4, 10, 2}")
        #expect(PixelRect(x: 5, y: 6, width: 0, height: 3).description == "{5, 6, 0, 3} (empty)")
    }
}
