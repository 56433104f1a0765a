/// `stroke_segments_opaque` / `_alpha50`: every segment `k` of the workload stroke (sample `k`
/// to `k + 1`, width `w_k` at both ends, round caps) is one independent SRC_OVER draw through
/// the services table's `fill_segment`, the call a brush plugin makes, onto the white
/// 2048x1536 canvas; exactly the peers' one-stroke-per-segment loop.
final class StrokeSegmentsCase: BenchCase {
    let name: String
    let item = "segment"
    var items: Int { segments.count }
    var extraFields: [(String, String)] { [("segments", String(segments.count)), ("via", "\"services.fill_segment\"")] }

    private let canvas: BenchCanvas
    private let host = BrushHost()
    private let segments: [bristle_segment_t]
    private var paint: bristle_paint_t
    private var target: bristle_target_t

    init(alpha: UInt8, options: BenchOptions) throws(BenchError) {
        name = alpha == 255 ? "stroke_segments_opaque" : "stroke_segments_alpha50"
        canvas = try BenchCanvas(width: BenchWorkload.canvasWidth, height: BenchWorkload.canvasHeight)
        segments = Self.segments(count: options.segments)
        let c = BenchWorkload.strokeColor(alpha: alpha)
        paint = bristle_paint_t()
        paint.struct_size = UInt32(MemoryLayout<bristle_paint_t>.size)
        paint.blend = BRISTLE_BLEND_SRC_OVER
        paint.color = bristle_color_t(r: c.red, g: c.green, b: c.blue, a: c.alpha)
        paint.opacity = 1
        let layer = canvas.layer
        target = bristle_target_t()
        target.struct_size = UInt32(MemoryLayout<bristle_target_t>.size)
        target.format = BRISTLE_PIXEL_FORMAT_RGBA8_PREMULTIPLIED
        target.pixels = layer.pixels
        target.width = Int32(layer.width)
        target.height = Int32(layer.height)
        target.stride_bytes = Int32(layer.strideBytes)
        target.layer = BRISTLE_LAYER_COMMITTED
        target.services = UnsafePointer(host.services)
    }

    /// The first `count` segments of the workload stroke as ABI segments.
    static func segments(count: Int) -> [bristle_segment_t] {
        let samples = (0...count).map { BenchWorkload.sample($0) }
        return (0..<count).map { k in
            var s = bristle_segment_t()
            s.struct_size = UInt32(MemoryLayout<bristle_segment_t>.size)
            s.cap = BRISTLE_CAP_ROUND
            s.x0 = samples[k].x
            s.y0 = samples[k].y
            s.x1 = samples[k + 1].x
            s.y1 = samples[k + 1].y
            s.width0 = samples[k].width
            s.width1 = samples[k].width
            return s
        }
    }

    func reset() throws(BenchError) { canvas.resetToWhite() }

    func run(measured: Bool) throws(BenchError) {
        let services = UnsafePointer(host.services)
        let fill = services.pointee.fill_segment!
        segments.withUnsafeBufferPointer { segs in
            for i in 0..<segs.count {
                _ = fill(services, &target, segs.baseAddress! + i, &paint)
            }
        }
    }

    func writePNG(to path: String) throws(BenchError) { try canvas.writePNG(to: path) }
}
