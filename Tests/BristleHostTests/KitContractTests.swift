@testable import BristleHost
import BristleTestSupport
import Testing

/// What BristleKit guarantees at the C boundary, checked on a kit brush (org.bristle.spray)
/// driven through its raw vtable the way a careless host could: calls at the wrong time,
/// unknown pixel formats, malformed targets, parameter changes during a stroke, and a dirty
/// rectangle that must cover every byte the brush changed (and no stride padding touched).
@Suite struct KitContractTests {
    static let library: PluginLibrary = try! PluginLoader.load(path: TestEnvironment.plugin("BristleSpray"))
    let host = BrushHost()

    private func create(_ id: String = "org.bristle.spray") -> UnsafePointer<bristle_brush_t>? {
        Self.library.factory.pointee.create(Self.library.factory, host.host, id)
    }

    private func context(width: Int32 = 40, height: Int32 = 30) -> bristle_stroke_context_t {
        bristle_stroke_context_t(struct_size: UInt32(MemoryLayout<bristle_stroke_context_t>.size),
                                 device_flags: BRISTLE_SAMPLE_HAS_PRESSURE,
                                 color: bristle_color_t(r: 1, g: 0, b: 0, a: 1), width: 12, scale: 1, seed: 9,
                                 pointer_type: BRISTLE_POINTER_PEN, max_force: 0, canvas_width: width, canvas_height: height)
    }

    @Test func createMatchesIdsExactly() throws {
        #expect(create("org.bristle.spra") == nil)
        #expect(create("org.bristle.spray ") == nil)
        let brush = try #require(create())
        #expect(brush.pointee.get_extension?(brush, "bristle.params/2") == nil)
        #expect(brush.pointee.get_extension?(brush, BRISTLE_EXT_PARAMS) != nil)
        brush.pointee.destroy?(brush)
    }

    @Test func callsAtTheWrongTimeAreRefusedBeforeTheBrushSeesThem() throws {
        let brush = try #require(create()), b = brush.pointee
        var s = penSample(10, 10, pressure: 1)
        var ctx = context()
        #expect(b.moved?(brush, &s, 1) == BRISTLE_BAD_STATE)
        #expect(b.ended?(brush, &s) == BRISTLE_BAD_STATE)
        #expect(b.predicted?(brush, &s, 1) == BRISTLE_BAD_STATE)
        #expect(b.begin?(brush, &ctx, nil) == BRISTLE_BAD_ARG)
        #expect(b.begin?(brush, &ctx, &s) == BRISTLE_OK)
        #expect(b.begin?(brush, &ctx, &s) == BRISTLE_BAD_STATE)
        #expect(b.tick?(brush, 0, 1.0 / 60) == BRISTLE_BAD_STATE)
        let params = try #require(b.get_extension?(brush, BRISTLE_EXT_PARAMS)?.assumingMemoryBound(to: bristle_params_t.self))
        #expect(params.pointee.set_value?(brush, "density", 3) == BRISTLE_BAD_STATE)
        #expect(b.moved?(brush, &s, 0) == BRISTLE_BAD_ARG)
        b.cancelled?(brush)
        b.cancelled?(brush)  // outside a stroke: nothing happens
        #expect(b.moved?(brush, &s, 1) == BRISTLE_BAD_STATE)
        #expect(params.pointee.set_value?(brush, "density", 3) == BRISTLE_OK)
        var value = 0.0
        #expect(params.pointee.get_value?(brush, "density", &value) == BRISTLE_OK && value == 3)
        var color = bristle_color_t()
        #expect(params.pointee.set_color?(brush, "density", &color) == BRISTLE_BAD_ARG)
        #expect(params.pointee.get_value?(brush, nil, &value) == BRISTLE_BAD_ARG)
        b.destroy?(brush)
    }

    /// A target over `buffer` with `padding` extra bytes per row.
    private func target(_ buffer: UnsafeMutablePointer<UInt8>, width: Int32, height: Int32, padding: Int32,
                        format: UInt32 = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED,
                        context: UnsafePointer<bristle_stroke_context_t>) -> bristle_target_t {
        bristle_target_t(struct_size: UInt32(MemoryLayout<bristle_target_t>.size), format: format, pixels: buffer,
                         base: nil, width: width, height: height, stride_bytes: width * 4 + padding,
                         layer: BRISTLE_LAYER_COMMITTED, stroke: context, services: host.host.pointee.services,
                         dirty_list: nil)
    }

    @Test func drawRefusesWhatItCannotDrawAndReportsEveryChangedPixel() throws {
        let brush = try #require(create()), b = brush.pointee
        let width: Int32 = 40, height: Int32 = 30, padding: Int32 = 12, stride = Int(width * 4 + padding)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * Int(height))
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0xAB, count: stride * Int(height))  // padding must stay 0xAB
        var ctx = context(width: width, height: height)
        // A stroke along the top-left corner, so dots also fall outside the canvas.
        var samples = [penSample(2, 2, pressure: 1), penSample(20, 3, pressure: 1), penSample(38, 1, pressure: 1)]
        #expect(b.begin?(brush, &ctx, &samples[0]) == BRISTLE_OK)
        #expect(b.moved?(brush, &samples[1], 2) == BRISTLE_OK)

        var dirty = bristle_rect_t()
        var foreign = target(buffer, width: width, height: height, padding: padding, format: 99, context: &ctx)
        #expect(b.draw?(brush, &foreign, &dirty) == BRISTLE_UNSUPPORTED)
        var malformed = target(buffer, width: width, height: height, padding: -8, context: &ctx)
        #expect(b.draw?(brush, &malformed, &dirty) == BRISTLE_BAD_ARG)
        #expect(b.draw?(brush, nil, &dirty) == BRISTLE_BAD_ARG)
        #expect((0..<stride * Int(height)).allSatisfy { buffer[$0] == 0xAB }, "refused draws write nothing")

        var good = target(buffer, width: width, height: height, padding: padding, context: &ctx)
        let list = DirtyList()
        good.dirty_list = list.list
        #expect(b.draw?(brush, &good, &dirty) == BRISTLE_OK)
        let listed = try #require(list.listed).map { PixelRect($0) }
        let whole = PixelRect(dirty)
        #expect(!listed.isEmpty && listed.allSatisfy { whole.contains($0) }, "*dirty \(whole) holds every listed \(listed)")
        var changed = 0
        for y in 0..<Int(height) {
            for x in 0..<stride where buffer[y * stride + x] != 0xAB {
                changed += 1
                #expect(x < Int(width) * 4, "stride padding at row \(y) was written")
                let pixel = PixelRect(x: Int32(x / 4), y: Int32(y), width: 1, height: 1)
                #expect(listed.contains { $0.contains(pixel) }, "pixel \(pixel) changed outside every listed rectangle \(listed)")
            }
        }
        #expect(changed > 0)
        #expect(dirty.x >= 0 && dirty.y >= 0 && dirty.x + dirty.width <= width && dirty.y + dirty.height <= height)
        b.cancelled?(brush)
        b.destroy?(brush)
    }
}
