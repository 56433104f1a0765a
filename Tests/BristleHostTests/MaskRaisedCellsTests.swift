@testable import BristleHost
import Testing

/// `mask_rect`, `mask_ellipse`, `mask_polyline` and `mask_dab` return exactly the bounding box
/// of the mask cells whose value rose (issue 15: the marker recomposites only that), not the
/// box of the shape: empty for a shape drawn again, a sliver for a shape nudged over itself.
@Suite struct MaskRaisedCellsTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        /// Draws the shape offset by (dx, dy) into the mask through the C table.
        var draw: @Sendable (UnsafePointer<bristle_services_t>, UnsafePointer<bristle_mask_t>, Double, Double) -> bristle_rect_t
    }

    static let cases: [Case] = [
        Case(description: "mask_polyline, a filled nib sweep") { sv, m, dx, dy in
            let xy = [174.5 - 150 + dx, 23 + dy, 217 - 150 + dx, 65.5 + dy, 237 - 150 + dx, 65.75 + dy,
                      245.5 - 150 + dx, 57.25 + dy, 203 - 150 + dx, 14.75 + dy, 183 - 150 + dx, 14.5 + dy]
            return xy.withUnsafeBufferPointer { sv.pointee.mask_polyline!(sv, m, $0.baseAddress, 6, nil) }
        },
        Case(description: "mask_polyline, stroked") { sv, m, dx, dy in
            let xy = [10 + dx, 10 + dy, 60 + dx, 30 + dy, 20 + dx, 60 + dy]
            var style = bristle_stroke_style_t()
            style.struct_size = UInt32(MemoryLayout<bristle_stroke_style_t>.size)
            style.width = 9
            return xy.withUnsafeBufferPointer { sv.pointee.mask_polyline!(sv, m, $0.baseAddress, 3, &style) }
        },
        Case(description: "mask_rect") { sv, m, dx, dy in sv.pointee.mask_rect!(sv, m, 12.3 + dx, 8.6 + dy, 40.2, 31.7, nil) },
        Case(description: "mask_ellipse") { sv, m, dx, dy in sv.pointee.mask_ellipse!(sv, m, 40 + dx, 35 + dy, 25.5, 17.2, nil) },
        Case(description: "mask_dab, soft") { sv, m, dx, dy in sv.pointee.mask_dab!(sv, m, 40 + dx, 35 + dy, 20, 0.4) },
    ]

    /// The bounding box of the cells that differ, or nil.
    private func changed(_ a: [UInt8], _ b: [UInt8], width: Int) -> PixelRect? {
        var box = DirtyBox()
        for i in a.indices where a[i] != b[i] { box.add(row: i / width, lo: i % width, hi: i % width + 1) }
        return box.rect.isEmpty ? nil : box.rect
    }

    @Test(arguments: cases)
    func returnsTheBoxOfTheRaisedCells(_ c: Case) {
        let host = BrushHost()
        let width = 96, height = 80
        var cells = [UInt8](repeating: 0, count: width * height)
        cells.withUnsafeMutableBufferPointer { buffer in
            var mask = bristle_mask_t(data: buffer.baseAddress, width: Int32(width), height: Int32(height),
                                      stride_bytes: Int32(width))
            let sv = UnsafePointer(host.services)
            // Drawn once, drawn again, then nudged over itself in steps (the zig-zag's case).
            for (step, (dx, dy)) in [(0.0, 0.0), (0, 0), (0, 0.25), (0.5, 0.5), (3, 0.25), (-7, -2)].enumerated() {
                let before = Array(buffer)
                let r = PixelRect(c.draw(sv, &mask, dx, dy))
                let raised = changed(before, Array(buffer), width: width)
                if step == 1 {
                    #expect(r.isEmpty && raised == nil, "drawn again: nothing rose, nothing returned (\(r))")
                } else {
                    #expect(raised != nil, "step \(step) raises cells")
                    #expect(r == raised ?? .empty, "step \(step): returned \(r), raised \(String(describing: raised))")
                }
            }
        }
    }

    @Test func aShapeNudgedOverItselfReturnsASliverOfItsBox() {
        // A rectangle moved down a quarter pixel raises its bottom rows only: the returned
        // rectangle is a small fraction of the shape's box.
        let host = BrushHost()
        let width = 96, height = 80
        var cells = [UInt8](repeating: 0, count: width * height)
        cells.withUnsafeMutableBufferPointer { buffer in
            var mask = bristle_mask_t(data: buffer.baseAddress, width: Int32(width), height: Int32(height),
                                      stride_bytes: Int32(width))
            let sv = UnsafePointer(host.services)
            let rect = Self.cases[2]
            let first = PixelRect(rect.draw(sv, &mask, 0, 0))
            let nudged = PixelRect(rect.draw(sv, &mask, 0, 0.25))
            #expect(!nudged.isEmpty && nudged.height <= 2, "\(nudged)")
            #expect(Int(nudged.width) * Int(nudged.height) * 10 < Int(first.width) * Int(first.height),
                    "\(nudged) against \(first)")
        }
    }
}
