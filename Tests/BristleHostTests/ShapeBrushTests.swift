import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The shape brushes of Plugins/Shapes (`org.bristle.line`, `dashed-line`, `rectangle`,
/// `ellipse`): non-continuous, rubber-banding in the preview, committing at `ended`.
@Suite struct ShapeBrushTests {
    static let library: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleShapes"))
    static let ids = ["org.bristle.line", "org.bristle.dashed-line", "org.bristle.rectangle", "org.bristle.ellipse"]
    private let mouse = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_MOUSE)

    private func session(_ id: String, width: Int = 160, height: Int = 120, strokeWidth: Double = 6,
                         scale: Float = 1) throws -> DrawingSession {
        let s = try DrawingSession(width: width, height: height, scale: scale)
        s.brush = try Brush(id: id, library: Self.library, host: BrushHost())
        s.color = RGBAColor(red: 0.1, green: 0.3, blue: 0.8)
        s.strokeWidth = strokeWidth
        return s
    }

    /// Draws one shape from `a` through `via` to `b` and returns the flattened image.
    private func render(_ id: String, _ a: (Double, Double), _ via: (Double, Double), _ b: (Double, Double)) throws -> [UInt8] {
        let s = try session(id)
        try s.begin(penSample(a.0, a.1), device: mouse)
        try s.move([penSample(via.0, via.1)])
        try s.move([penSample(b.0, b.1)])
        try s.end(penSample(b.0, b.1))
        return s.flattenedPixels(transparent: false)
    }

    @Test func theLibraryHoldsTheFourShapesNotContinuous() {
        #expect(Self.library.descriptors.map(\.id) == Self.ids)
        for d in Self.library.descriptors { #expect(!d.capabilities.contains(.continuous), "\(d.id)") }
    }

    @Test func goldenImages() throws {
        for id in Self.ids {
            let name = id.replacingOccurrences(of: "org.bristle.", with: "")
            let pixels = try render(id, (22.3, 97.6), (70, 10), (137.8, 18.4))
            let mismatch = try GoldenImage.compare(pixels, width: 160, height: 120, name: "\(name)/drag")
            #expect(mismatch == nil, "\(mismatch!)")
        }
    }

    @Test func rectanglesAndEllipsesAreTheSameInEveryDragDirection() throws {
        let corners = [((22.3, 18.4), (137.8, 97.6)), ((137.8, 97.6), (22.3, 18.4)),
                       ((22.3, 97.6), (137.8, 18.4)), ((137.8, 18.4), (22.3, 97.6))]
        for id in ["org.bristle.rectangle", "org.bristle.ellipse"] {
            let images = try corners.map { try render(id, $0.0, (80, 60), $0.1) }
            for (k, image) in images.enumerated().dropFirst() {
                let differing = zip(image, images[0]).filter { $0 != $1 }.count
                #expect(differing == 0, "\(id): drag \(k) differs from drag 0 in \(differing) bytes")
            }
            let name = id.replacingOccurrences(of: "org.bristle.", with: "")
            let mismatch = try GoldenImage.compare(images[0], width: 160, height: 120, name: "\(name)/any-direction")
            #expect(mismatch == nil, "\(mismatch!)")
        }
    }

    @Test func theShapeRubberBandsAndCommitsOnlyAtEnded() throws {
        for id in Self.ids {
            let s = try session(id)
            let untouched = Array(UnsafeBufferPointer(start: s.committed.pixels, count: s.committed.strideBytes * 120))
            func committedBytes() -> [UInt8] { Array(UnsafeBufferPointer(start: s.committed.pixels, count: s.committed.strideBytes * 120)) }
            func previewAlpha(_ x: Int, _ y: Int) -> UInt8 { s.preview.pixels[y * s.preview.strideBytes + 4 * x + 3] }
            try s.begin(penSample(20, 20), device: mouse)
            try s.move([penSample(140, 100)])
            #expect(differingBytes(committedBytes(), untouched) == 0, "\(id): nothing committed during the stroke")
            let firstPreview = Array(UnsafeBufferPointer(start: s.preview.pixels, count: s.preview.strideBytes * 120))
            #expect(differingBytes(firstPreview, untouched) > 0, "\(id): the shape shows in the preview")
            try s.move([penSample(60, 50)])
            let secondPreview = Array(UnsafeBufferPointer(start: s.preview.pixels, count: s.preview.strideBytes * 120))
            #expect(differingBytes(secondPreview, firstPreview) > 0, "\(id): the preview follows the pen")
            #expect(previewAlpha(130, 95) == 0, "\(id): the old, larger shape is gone from the preview")
            #expect(differingBytes(committedBytes(), untouched) == 0)
            try s.end(penSample(60, 50))
            #expect(differingBytes(committedBytes(), secondPreview) == 0, "\(id): the committed shape is the last preview")
        }
    }

    @Test func cancelRestoresTheCommittedLayer() throws {
        for id in Self.ids {
            let s = try session(id)
            // Something already drawn, then a cancelled shape over it.
            try s.begin(penSample(10, 60), device: mouse)
            try s.end(penSample(150, 60))
            let before = Array(UnsafeBufferPointer(start: s.committed.pixels, count: s.committed.strideBytes * 120))
            try s.begin(penSample(20, 20), device: mouse)
            try s.move([penSample(140, 100)])
            s.cancel()
            let after = Array(UnsafeBufferPointer(start: s.committed.pixels, count: s.committed.strideBytes * 120))
            #expect(differingBytes(after, before) == 0, "\(id)")
            #expect(s.committed.hasSamePixels(as: s.preview), "\(id): the preview shows the committed layer again")
        }
    }

    @Test func widthScalesAndOpacityApplies() throws {
        let thin = try session("org.bristle.line", strokeWidth: 2)
        let wide = try session("org.bristle.line", strokeWidth: 2, scale: 3)
        for s in [thin, wide] {
            try s.begin(penSample(20, 60), device: mouse)
            try s.end(penSample(140, 60))
        }
        func alpha(_ s: DrawingSession, _ y: Int) -> UInt8 { s.committed.pixels[y * s.committed.strideBytes + 4 * 80 + 3] }
        #expect(alpha(thin, 62) == 0 && alpha(wide, 62) == 255, "scale 3 makes the 2-point line 6 pixels wide")
        let faint = try session("org.bristle.rectangle")
        try faint.brush!.setParameter("opacity", value: 0.5)
        try faint.begin(penSample(20, 20), device: mouse)
        try faint.end(penSample(140, 100))
        #expect(abs(Int(faint.committed.pixels[60 * faint.committed.strideBytes + 4 * 20 + 3]) - 128) <= 1)
    }

    /// The shapes report tight rectangles around their outline (ABI 1.2 dirty lists), so while a
    /// large shape rubber-bands the session restores only the strips the old outline covered:
    /// a fraction of its bounding box per event, the same on any canvas; and the preview after
    /// many events is exactly the preview after one, so no strip was missed.
    @Test func theRubberBandRestoresOnlyTheOutlinesStrips() throws {
        // The largest share of the shape's box an event may copy, per shape.
        let budget = ["org.bristle.line": 0.15, "org.bristle.dashed-line": 0.15, "org.bristle.rectangle": 0.05,
                      "org.bristle.ellipse": 0.25]
        let path = (0...60).map { i -> (Double, Double) in (1500 + 10.3 * Double(i), 1100 + 7.9 * Double(i)) }
        let last = path[path.count - 1]
        let box = (last.0 - 100) * (last.1 - 100)
        for id in Self.ids {
            var copiedPerCanvas: [Int] = []
            for (w, h) in [(2400, 1800), (4096, 3072)] {
                let band = try session(id, width: w, height: h, strokeWidth: 4)
                try band.begin(penSample(100, 100), device: mouse)
                for p in path { try band.move([penSample(p.0, p.1)]) }
                let before = band.pixelsCopied
                try band.move([penSample(last.0, last.1)])
                copiedPerCanvas.append(band.pixelsCopied - before)
                let once = try session(id, width: w, height: h, strokeWidth: 4)
                try once.begin(penSample(100, 100), device: mouse)
                try once.move([penSample(last.0, last.1)])
                #expect(band.preview.hasSamePixels(as: once.preview), "\(id): a strip of an old outline was not restored")
            }
            #expect(copiedPerCanvas[0] == copiedPerCanvas[1], "\(id): the work per event follows the canvas")
            let share = Double(copiedPerCanvas[0]) / box
            #expect(copiedPerCanvas[0] > 0 && share < budget[id]!, "\(id): an event copies \(share) of the box")
        }
    }

    /// docs/ABI.md shows the rectangle tool's dirty strips as an excerpt of shapes.c.
    @Test func theABIGuideQuotesTheRealStrips() throws {
        let root = TestEnvironment.packageRoot
        let guide = try String(contentsOf: root.appendingPathComponent("docs/ABI.md"), encoding: .utf8)
        let source = try String(contentsOf: root.appendingPathComponent("Plugins/Shapes/shapes.c"), encoding: .utf8)
        let block = try #require(guide.components(separatedBy: "```c\n").first { $0.contains("add_rect_outline(") }?
            .components(separatedBy: "```\n").first)
        #expect(source.contains(block), "the excerpt in docs/ABI.md differs from Plugins/Shapes/shapes.c")
    }
}
