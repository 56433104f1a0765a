@testable import BristleKit
import CBristle
import Testing

/// What a kit canvas reports: neighbouring changes coalesce into one rectangle, distant ones
/// stay apart in the target's dirty list (ABI 1.2), the list never overflows, and `dirty`
/// contains everything; on a target without a list (a 1.1 host) only `dirty` grows.
@Suite struct CanvasDirtyListTests {
    /// Runs `body` on a canvas over a 64x48 transparent target with a dirty list (or without,
    /// as a 1.1 host's target), then returns the listed rectangles and the canvas's `dirty`.
    static func draw(withList: Bool = true, _ body: (Canvas) -> Void) -> (listed: [Rect], dirty: Rect) {
        let width = 64, height = 48
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var rects = [bristle_rect_t](repeating: bristle_rect_t(), count: Int(BRISTLE_MAX_DIRTY_RECTS))
        return pixels.withUnsafeMutableBufferPointer { buffer in
            rects.withUnsafeMutableBufferPointer { storage in
                var list = bristle_dirty_list_t(struct_size: UInt32(MemoryLayout<bristle_dirty_list_t>.size), count: 0,
                                                capacity: BRISTLE_MAX_DIRTY_RECTS, reserved: 0, rects: storage.baseAddress)
                return withUnsafeMutablePointer(to: &list) { listPointer in
                    var target = bristle_target_t()
                    target.struct_size = UInt32(withList ? MemoryLayout<bristle_target_t>.size
                                                         : MemoryLayout<bristle_target_t>.offset(of: \.dirty_list)!)
                    target.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED
                    target.pixels = buffer.baseAddress
                    target.width = Int32(width)
                    target.height = Int32(height)
                    target.stride_bytes = Int32(width * 4)
                    target.dirty_list = listPointer
                    return withUnsafePointer(to: &target) { t in
                        let canvas = Canvas(t, pixels: buffer.baseAddress!)
                        body(canvas)
                        canvas.flushDirty()
                        return ((0..<Int(listPointer.pointee.count)).map { Rect(storage[$0]) }, canvas.dirty)
                    }
                }
            }
        }
    }

    static let ink = Pixel(r: 10, g: 20, b: 30, a: 255)

    @Test func neighbouringPixelsCoalesceAndDistantOnesStayApart() {
        let (listed, dirty) = Self.draw { canvas in
            for x in 2..<12 { canvas[x, 3] = Self.ink }      // a run: one rectangle
            for y in 30..<40 { canvas[50, y] = Self.ink }    // far away: another
        }
        #expect(listed == [Rect(x: 2, y: 3, width: 10, height: 1), Rect(x: 50, y: 30, width: 1, height: 10)])
        #expect(dirty == Rect(x: 2, y: 3, width: 49, height: 37))
    }

    @Test func theListNeverOverflowsAndCoversEveryChange() {
        let dots = (0..<40).map { (x: ($0 * 13) % 61, y: ($0 * 7) % 45) }
        let (listed, dirty) = Self.draw { canvas in
            for d in dots { canvas.markDirty(Rect(x: d.x, y: d.y, width: 2, height: 2)) }
        }
        #expect(listed.count == Int(BRISTLE_MAX_DIRTY_RECTS))
        for d in dots {
            let dot = Rect(x: d.x, y: d.y, width: 2, height: 2).clipped(width: 64, height: 48)
            #expect(listed.contains { $0.union(dot) == $0 }, "the dot at \(d) is in no listed rectangle")
            #expect(dirty.union(dot) == dirty)
        }
    }

    @Test func withoutAListOnlyDirtyGrows() {
        let (listed, dirty) = Self.draw(withList: false) { canvas in
            canvas[1, 1] = Self.ink
            canvas[60, 40] = Self.ink
        }
        #expect(listed.isEmpty)
        #expect(dirty == Rect(x: 1, y: 1, width: 60, height: 40))
    }
}
