import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The drawing loop's rules (bristle.h, "THE DRAWING LOOP"), proved with the probe brushes of
/// Tests/Fixtures/brushes/probe.c, which draw exact 3x3 blocks (BLUE for predicted samples) or
/// filled rectangles, and check the host's side of the contract on every draw.
@Suite struct DrawingSessionTests {
    static let probeLibrary: PluginLibrary = {
        let path = try! CCompiler.buildFixture("probe")
        return try! PluginLoader.load(path: path)
    }()

    private func session(_ id: String, width: Int = 64, height: Int = 48) throws -> DrawingSession {
        let s = try DrawingSession(width: width, height: height)
        s.brush = try Brush(id: id, library: Self.probeLibrary, host: BrushHost())
        s.color = RGBAColor(red: 1, green: 0, blue: 0)
        return s
    }

    private func sample(_ x: Double, _ y: Double, predicted: Bool = false) -> bristle_sample_t {
        penSample(x, y, predicted: predicted)
    }

    private let pen = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_PEN)

    private func pixel(_ layer: Layer, _ x: Int, _ y: Int) -> [UInt8] {
        let p = layer.pixels + y * layer.strideBytes + x * 4
        return [p[0], p[1], p[2], p[3]]
    }

    private func countBlue(_ layer: Layer) -> Int {
        var n = 0
        for y in 0..<layer.height { for x in 0..<layer.width where pixel(layer, x, y) == [0, 0, 255, 255] { n += 1 } }
        return n
    }

    @Test func continuousBrushCommitsEveryEvent() throws {
        let s = try session("test.probe.continuous")
        try s.begin(sample(10, 10), device: pen)
        #expect(pixel(s.committed, 10, 10) == [255, 0, 0, 255])
        #expect(pixel(s.preview, 10, 10) == [255, 0, 0, 255])
        try s.move([sample(20, 10), sample(30, 10)])
        #expect(pixel(s.committed, 30, 10) == [255, 0, 0, 255])
        try s.end(sample(30, 10))
        #expect(s.committed.hasSamePixels(as: s.preview))
        #expect(s.committed.hasSamePixels(as: s.base))
    }

    @Test func predictedSamplesReachThePreviewButNeverCommitted() throws {
        let s = try session("test.probe.continuous")
        try s.begin(sample(10, 10), device: pen, predicted: [sample(40, 40, predicted: true)])
        #expect(pixel(s.preview, 40, 40) == [0, 0, 255, 255], "the prediction shows in the preview")
        #expect(pixel(s.committed, 40, 40) == [0, 0, 0, 0])
        try s.move([sample(12, 10)], predicted: [sample(50, 20, predicted: true)])
        #expect(pixel(s.preview, 40, 40) == [0, 0, 0, 0], "the next event discards the old prediction")
        #expect(pixel(s.preview, 50, 20) == [0, 0, 255, 255])
        #expect(countBlue(s.committed) == 0)
        try s.end(sample(12, 10))
        #expect(countBlue(s.committed) == 0)
        #expect(countBlue(s.preview) == 0, "the preview drops predictions at the end")
        #expect(s.committed.hasSamePixels(as: s.preview))
    }

    @Test func predictionsDoNotChangeTheCommittedResult() throws {
        let with = try session("test.probe.continuous"), without = try session("test.probe.continuous")
        let path = [(5.0, 5.0), (15, 9), (25, 20), (33, 30), (40, 41)]
        try with.begin(sample(path[0].0, path[0].1), device: pen, predicted: [sample(60, 2, predicted: true)])
        try without.begin(sample(path[0].0, path[0].1), device: pen)
        for (i, p) in path.enumerated().dropFirst() {
            try with.move([sample(p.0, p.1)], predicted: [sample(p.0 + 9, p.1 - 4, predicted: true), sample(Double(i), 44, predicted: true)])
            try without.move([sample(p.0, p.1)])
        }
        try with.end(sample(40, 41))
        try without.end(sample(40, 41))
        #expect(with.committed.hasSamePixels(as: without.committed))
    }

    @Test func cancelLeavesCommittedByteIdentical() throws {
        let s = try session("test.probe.continuous")
        try s.begin(sample(5, 5), device: pen)
        try s.move([sample(8, 8)])
        try s.end(sample(8, 8))
        let before = s.committed.packedPixels()
        try s.begin(sample(20, 20), device: pen, predicted: [sample(30, 30, predicted: true)])
        try s.move([sample(25, 22), sample(40, 30)], predicted: [sample(45, 35, predicted: true)])
        #expect(differingBytes(s.committed.packedPixels(), before) > 0, "the continuous stroke did commit while drawing")
        s.cancel()
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
        #expect(s.preview.hasSamePixels(as: s.committed))
        #expect(s.base.hasSamePixels(as: s.committed))
        #expect(!s.isInStroke)
        #expect(s.strokesCancelled == 1)
    }

    @Test func nonContinuousBrushLeavesCommittedUntouchedUntilEnded() throws {
        let s = try session("test.probe.shape")
        let empty = s.committed.packedPixels()
        try s.begin(sample(10, 10), device: pen)
        try s.move([sample(20, 15)])
        #expect(differingBytes(s.committed.packedPixels(), empty) == 0)
        #expect(pixel(s.preview, 20, 15) == [255, 0, 0, 255], "the shape rubber-bands in the preview")
        try s.move([sample(12, 12)], predicted: [sample(30, 30, predicted: true)])
        #expect(differingBytes(s.committed.packedPixels(), empty) == 0)
        #expect(pixel(s.preview, 20, 15) == [0, 0, 255, 255], "the predicted corner drives the preview")
        try s.move([sample(15, 12)])
        #expect(pixel(s.preview, 20, 15) == [0, 0, 0, 0], "the preview is restored outside the new shape")
        #expect(pixel(s.preview, 15, 12) == [255, 0, 0, 255])
        #expect(differingBytes(s.committed.packedPixels(), empty) == 0)
        try s.end(sample(15, 12))
        #expect(pixel(s.committed, 15, 12) == [255, 0, 0, 255])
        #expect(pixel(s.committed, 16, 13) == [0, 0, 0, 0])
        #expect(countBlue(s.committed) == 0)
        #expect(s.preview.hasSamePixels(as: s.committed))
    }

    @Test func cancelledShapeLeavesNoTrace() throws {
        let s = try session("test.probe.shape")
        try s.begin(sample(2, 2), device: pen)
        try s.move([sample(30, 30)])
        s.cancel()
        #expect(s.committed.packedPixels().allSatisfy { $0 == 0 })
        #expect(s.preview.packedPixels().allSatisfy { $0 == 0 })
    }

    @Test func ticksFollowADeterministicSixtyHertzClock() throws {
        let s = try session("test.probe.continuous")
        #expect(try s.tick(frames: 3) == false, "no ticks before a stroke has ended")
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(5, 5))
        #expect(try s.tick(frames: 3))
        let brush = s.brush!
        #expect(brush.value(of: "ticks") == 3)
        #expect(brush.value(of: "last-t") == 3.0 / 60.0)
        #expect(brush.value(of: "last-dt") == 1.0 / 60.0)
        #expect(brush.value(of: "draws-committed")! >= 5, "each tick is followed by a committed draw")
    }

    @Test func aNewBrushStartsItsOwnTickClock() throws {
        let s = try session("test.probe.continuous")
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(5, 5))
        s.brush = try Brush(id: "test.probe.continuous", library: Self.probeLibrary, host: BrushHost())
        #expect(try s.tick(frames: 2) == false, "the new instance saw no stroke end")
        #expect(s.brush!.value(of: "ticks") == 0)
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(5, 5))
        try s.clear()
        #expect(try s.tick(frames: 1) == false, "clear resets the clock too")
    }

    @Test func canvasScaleOutsideItsRangeIsRefused() {
        #expect(throws: SessionError.badScale(0)) { _ = try DrawingSession(width: 8, height: 8, scale: 0) }
        #expect(throws: SessionError.badScale(1000)) { _ = try DrawingSession(width: 8, height: 8, scale: 1000) }
        #expect(throws: SessionError.self) { _ = try DrawingSession(width: 8, height: 8, scale: .infinity) }
    }

    @Test func shapeBrushDoesNotGetTicks() throws {
        let s = try session("test.probe.shape")
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(9, 9))
        #expect(try s.tick(frames: 2) == false)
        #expect(s.brush!.value(of: "ticks") == 0)
    }

    @Test func failingHookCancelsAndRestores() throws {
        let s = try session("test.probe.continuous")
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(5, 5))
        let before = s.committed.packedPixels()
        try s.brush!.setParameter("fail-on", text: "draw")
        #expect(throws: SessionError.self) { try s.begin(self.sample(1, 1), device: self.pen) }
        #expect(differingBytes(s.committed.packedPixels(), before) == 0, "the scribble of the failing draw was rolled back")
        #expect(!s.isInStroke)
        try s.brush!.setParameter("fail-on", text: "moved")
        try s.begin(sample(20, 20), device: pen)
        #expect {
            try s.move([self.sample(30, 20)])
        } throws: { error in
            guard case .brushFailed(.hookFailed(_, let hook, let status)) = error as! SessionError else { return false }
            return hook == "moved" && status == BRISTLE_FAILED
        }
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
    }

    @Test func failingPredictedOrEndedRollsTheStrokeBack() throws {
        let s = try session("test.probe.continuous")
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(5, 5))
        let before = s.committed.packedPixels()
        try s.brush!.setParameter("fail-on", text: "predicted")
        try s.begin(sample(20, 20), device: pen)
        #expect(throws: SessionError.self) {
            try s.move([self.sample(30, 20)], predicted: [self.sample(40, 40, predicted: true)])
        }
        #expect(!s.isInStroke)
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
        #expect(s.preview.hasSamePixels(as: s.committed))
        try s.brush!.setParameter("fail-on", text: "ended")
        try s.begin(sample(20, 30), device: pen)
        try s.move([sample(30, 30)])
        #expect {
            try s.end(self.sample(30, 30))
        } throws: { error in
            guard case .brushFailed(.hookFailed(_, let hook, _)) = error as! SessionError else { return false }
            return hook == "ended"
        }
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
        #expect(s.base.hasSamePixels(as: s.committed))
    }

    @Test func overEstimatedDirtyRectanglesStillRollBack() throws {
        // A dirty rectangle reaching INT32_MAX is a legal over-estimate: it must be clipped,
        // not wrap around to empty (which would make cancel restore nothing).
        let s = try session("test.probe.continuous")
        try s.brush!.setParameter("huge-dirty", value: 1)
        try s.begin(sample(5, 5), device: pen)
        try s.end(sample(5, 5))
        let before = s.committed.packedPixels()
        #expect(s.base.hasSamePixels(as: s.committed))
        try s.begin(sample(20, 20), device: pen)
        try s.move([sample(30, 25)])
        s.cancel()
        #expect(differingBytes(s.committed.packedPixels(), before) == 0)
        #expect(s.preview.hasSamePixels(as: s.committed))
    }

    @Test func outOfOrderCallsAreRefused() throws {
        let s = try session("test.probe.continuous")
        #expect(throws: SessionError.outOfOrder("moved outside a stroke")) { try s.move([self.sample(1, 1)]) }
        #expect(throws: SessionError.outOfOrder("ended outside a stroke")) { try s.end(self.sample(1, 1)) }
        try s.begin(sample(1, 1), device: pen)
        #expect(throws: SessionError.outOfOrder("begin during a stroke")) { try s.begin(self.sample(1, 1), device: self.pen) }
    }

    @Test func hostWorkPerEventDoesNotGrowWithTheCanvas() throws {
        // The same stroke on a small and a huge canvas: the host copies the same number of
        // pixels per event, because it only ever touches dirty rectangles.
        func copied(width: Int, height: Int) throws -> Int {
            let s = try session("test.probe.shape", width: width, height: height)
            try s.begin(sample(10, 10), device: pen)
            let start = s.pixelsCopied
            for i in 0..<20 { try s.move([sample(10 + Double(i), 12)], predicted: [sample(14, 30, predicted: true)]) }
            try s.end(sample(30, 12))
            return s.pixelsCopied - start
        }
        let small = try copied(width: 64, height: 48)
        let huge = try copied(width: 4096, height: 3072)
        #expect(small > 0)
        #expect(small == huge)
    }

    @Test func canvasSizeLimits() {
        #expect(throws: SessionError.badCanvasSize(width: 0, height: 10)) { _ = try DrawingSession(width: 0, height: 10) }
        #expect(throws: SessionError.badCanvasSize(width: 70000, height: 10)) { _ = try DrawingSession(width: 70000, height: 10) }
        #expect(throws: SessionError.badCanvasSize(width: 65536, height: 65536)) { _ = try DrawingSession(width: 65536, height: 65536) }
    }

    @Test func eachStrokeGetsItsSeedInTheContext() throws {
        let s = try session("test.probe.continuous")
        s.seed = 7
        try s.begin(sample(1, 1), device: pen)
        try s.end(sample(1, 1))
        let first = DrawingSession.strokeSeed(7, 1), second = DrawingSession.strokeSeed(7, 2)
        #expect(first != second)
        #expect(s.brush!.value(of: "seed-low") == Double(first & 0xffff_ffff))
        try s.begin(sample(1, 1), device: pen)
        try s.end(sample(1, 1))
        #expect(s.brush!.value(of: "seed-low") == Double(second & 0xffff_ffff))
    }
}
