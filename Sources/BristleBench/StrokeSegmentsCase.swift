import BristleHost

/// `stroke_segments_opaque` / `_alpha50`: every segment `k` of the workload stroke (sample `k`
/// to `k + 1`, width `w_k` at both ends, round caps) is one independent SRC_OVER draw through
/// the services table's `fill_segment`, the call a brush plugin makes, onto the white
/// 2048x1536 canvas; exactly the peers' one-stroke-per-segment loop.
final class StrokeSegmentsCase: BenchCase {
    let name: String
    let item = "segment"
    var items: Int { segments.count }
    var extraFields: [(String, String)] { [("segments", String(segments.count)), ("via", "\"services.fill_segment\"")] }

    private let surface: ServicesTarget
    private let segments: [bristle_segment_t]
    private var paint: bristle_paint_t

    init(alpha: UInt8, options: BenchOptions) throws(BenchError) {
        name = alpha == 255 ? "stroke_segments_opaque" : "stroke_segments_alpha50"
        surface = try ServicesTarget()
        segments = Self.segments(count: options.segments)
        paint = ServicesTarget.paint(BenchWorkload.strokeColor(alpha: alpha))
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

    func reset() throws(BenchError) { surface.canvas.resetToWhite() }

    func run(measured: Bool) throws(BenchError) {
        let services = surface.services
        let fill = services.pointee.fill_segment!
        segments.withUnsafeBufferPointer { segs in
            for i in 0..<segs.count {
                _ = fill(services, &surface.target, segs.baseAddress! + i, &paint)
            }
        }
    }

    func writePNG(to path: String) throws(BenchError) { try surface.canvas.writePNG(to: path) }
}
