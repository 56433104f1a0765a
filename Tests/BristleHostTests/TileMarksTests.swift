@testable import BristleHost
import Testing

/// The tile marks against a plain set: random rectangles (many repeating or nested in the
/// previous one, as a stroke's events do, many reaching past the canvas) must mark exactly
/// the tiles they overlap, each once in first-marked order, also after `removeAll`.
@Suite struct TileMarksTests {
    @Test func marksWhatTheRectanglesOverlapAcrossRepeatsAndClears() {
        let grid = TileGrid(width: 1000, height: 700, tileSize: 64)  // partial edge tiles
        var marks = TileMarks(count: grid.tileCount)
        var model: [Int32] = []
        var state: UInt64 = 13
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var last = PixelRect(x: 10, y: 10, width: 20, height: 20)
        for step in 0..<4000 {
            if step % 500 == 499 {
                marks.removeAll()
                model.removeAll()
                #expect(marks.isEmpty)
            }
            let rect: PixelRect
            switch next(4) {
            case 0: rect = last  // the same rectangle again
            case 1:  // inside the previous one
                rect = PixelRect(x: last.x + Int32(next(Int(last.width))), y: last.y + Int32(next(Int(last.height))),
                                 width: 1, height: 1)
            case 2:  // a neighbour, a tile away at most
                rect = PixelRect(x: last.x + Int32(next(129)) - 64, y: last.y + Int32(next(129)) - 64,
                                 width: last.width, height: last.height)
            default:  // anywhere, reaching past the canvas
                rect = PixelRect(x: Int32(next(1200)) - 100, y: Int32(next(900)) - 100,
                                 width: Int32(next(300)), height: Int32(next(300)))
            }
            marks.insert(covering: rect, of: grid)
            for tile in Int32(0)..<Int32(grid.tileCount)
            where !rect.intersection(grid.rect(of: tile)).isEmpty && !model.contains(tile) {
                model.append(tile)
            }
            #expect(marks.tiles == model, "step \(step), rect \(rect)")
            if rect.width > 0 && rect.height > 0 { last = rect }
        }
    }
}
