@testable import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The 1.1 services through the C table: a test-time C brush (Tests/Fixtures/brushes/
/// hostile_services.c, built with plain `cc`) calls each of them with garbage inside a real
/// `bristle render` child process; every call that must draw nothing returns an empty
/// rectangle, nothing crashes or hangs, and the canvas is untouched.
@Suite struct ShapeServicesTests {
    @Test("the services' constant minimum struct sizes equal ABILayout's")
    func minimumSizesMatchTheLayout() {
        #expect(HostServices.segmentMinimumSize == ABILayout.segment.minimumSize)
        #expect(HostServices.targetMinimumSize == ABILayout.target.minimumSize)
    }

    @Test func everyServiceSurvivesGarbage() throws {
        let library = try CCompiler.buildFixture("hostile_services")
        let dir = TestEnvironment.scratchDirectory("hostile")
        let script = dir.appendingPathComponent("hostile.json").path
        try """
            {"canvas": {"width": 64, "height": 64, "background": "#ffffff"},
             "actions": [{"brush": {"id": "test.hostile-services"}},
                         {"stroke": {"pointerType": "mouse", "events": [{"x": 1, "y": 1}, {"x": 2, "y": 2}]}}]}
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.png").path
        let start = Date()
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path,
                                      ["render", script, "-o", out, "--brush", library])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("hostile: done"), "the brush ran to the end: \(r.stderr)")
        #expect(!r.stderr.contains("VIOLATION"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < 120, "no call may take long (debug build)")
        let image = try PNGCodec.read(path: out)
        #expect(image.pixels.allSatisfy { $0 == 255 }, "garbage drew nothing on the canvas")
    }

    @Test func cServicesDrawWhatTheSwiftAPIDraws() throws {
        // The table forwards to the same rasteriser: draw_rect / draw_ellipse / mask_polyline
        // through the table equal the Swift API's pixels.
        let host = BrushHost()
        let viaC = ShapeCanvas(48, 40), viaSwift = ShapeCanvas(48, 40)
        var context = bristle_stroke_context_t()
        context.struct_size = UInt32(MemoryLayout<bristle_stroke_context_t>.size)
        let services = UnsafePointer(host.services)
        var target = bristle_target_t(
            struct_size: UInt32(MemoryLayout<bristle_target_t>.size), format: BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED,
            pixels: viaC.bytes, base: nil, width: 48, height: 40, stride_bytes: Int32(viaC.stride),
            layer: BRISTLE_LAYER_COMMITTED, stroke: nil, services: services, dirty_list: nil)
        var paint = bristle_paint_t(struct_size: UInt32(MemoryLayout<bristle_paint_t>.size), blend: BRISTLE_BLEND_SRC_OVER,
                                    color: bristle_color_t(r: 0.2, g: 0.4, b: 0.9, a: 0.8), opacity: 0.9)
        var style = bristle_stroke_style_t()
        style.struct_size = UInt32(MemoryLayout<bristle_stroke_style_t>.size)
        style.width = 3.5
        style.join = BRISTLE_JOIN_MITER
        style.miter_limit = 4
        let s = services.pointee
        let r1 = withUnsafePointer(to: &context) { ctx -> bristle_rect_t in
            target.stroke = ctx
            return s.draw_rect!(services, &target, 40.2, 33.7, -30.5, -25.1, &style, &paint, nil)
        }
        _ = s.draw_ellipse!(services, &target, 24.3, 20.1, 14.2, 9.6, nil, &paint, nil)
        let r = Rasterizer()
        let p = Paint(color: RGBAColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8), opacity: 0.9)
        let r2 = r.drawRect(x: 40.2, y: 33.7, width: -30.5, height: -25.1,
                            style: StrokeStyle(width: 3.5, join: .miter, miterLimit: 4), target: .paint(viaSwift.plane, p))
        _ = r.fillEllipse(centerX: 24.3, centerY: 20.1, radiusX: 14.2, radiusY: 9.6, paint: p, into: viaSwift.plane)
        #expect(PixelRect(r1) == r2 && !r2.isEmpty)
        #expect(differingBytes(viaC.snapshot(), viaSwift.snapshot()) == 0)
    }
}
