import BristleHost

/// The table of benchmark cases `bristle bench` knows, in the order it runs them.
///
/// Each entry names a case and builds it for the options; adding a case is adding a row.
public enum BenchRegistry {
    /// A named case factory.
    public struct Entry: Sendable {
        public var name: String
        /// One line saying what the case measures.
        public var summary: String
        public var make: @Sendable (BenchOptions) throws(BenchError) -> any BenchCase
    }

    public static let entries: [Entry] = [
        Entry(name: "stroke_segments_opaque",
              summary: "9,999 independent round-capped SRC_OVER segments, opaque (one fill_segment call each)",
              make: { o throws(BenchError) in try StrokeSegmentsCase(alpha: BenchWorkload.opaqueAlpha, options: o) }),
        Entry(name: "stroke_segments_alpha50",
              summary: "the same segments at alpha 128",
              make: { o throws(BenchError) in try StrokeSegmentsCase(alpha: BenchWorkload.halfAlpha, options: o) }),
        Entry(name: "stroke_pencil_product",
              summary: "the stroke as 10,000 events through org.bristle.pencil in a DrawingSession (stroke mask)",
              make: { o throws(BenchError) in
                  try SessionEventsCase(name: "stroke_pencil_product", width: BenchWorkload.canvasWidth,
                                        height: BenchWorkload.canvasHeight, perEvent: false, options: o)
              }),
        Entry(name: "event_latency_pencil_2048x1536",
              summary: "per-event latency (draw + preview update + dirty rect) of the pencil, p50/p99",
              make: { o throws(BenchError) in
                  try SessionEventsCase(name: "event_latency_pencil_2048x1536", width: 2048, height: 1536,
                                        perEvent: true, options: o)
              }),
        Entry(name: "event_latency_pencil_4096x3072",
              summary: "the same on a 4096x3072 canvas (per-event work must not grow)",
              make: { o throws(BenchError) in
                  try SessionEventsCase(name: "event_latency_pencil_4096x3072", width: 4096, height: 3072,
                                        perEvent: true, options: o)
              }),
        Entry(name: "stroke_polyline_w10_opaque",
              summary: "the stroke's samples as one polyline, width 10, round caps and joins (one draw_polyline call)",
              make: { o throws(BenchError) in try PolylineCase(.opaque, options: o) }),
        Entry(name: "stroke_polyline_w10_alpha50",
              summary: "the same at alpha 128 (stroke-level opacity)",
              make: { o throws(BenchError) in try PolylineCase(.alpha50, options: o) }),
        Entry(name: "dash_polyline_w4",
              summary: "the same polyline, width 4, dashes {16, 8}, butt caps, round joins",
              make: { o throws(BenchError) in try PolylineCase(.dashed, options: o) }),
        Entry(name: "ellipse_fill",
              summary: "1,000 random axis-aligned ellipses, filled (one draw_ellipse call each)",
              make: { o throws(BenchError) in try ShapesCase(.ellipseFill, options: o) }),
        Entry(name: "ellipse_stroke",
              summary: "1,000 random ellipse outlines, widths 1 to 8",
              make: { o throws(BenchError) in try ShapesCase(.ellipseStroke, options: o) }),
        Entry(name: "rect_fill",
              summary: "1,000 random unaligned rectangles, filled (one draw_rect call each)",
              make: { o throws(BenchError) in try ShapesCase(.rectFill, options: o) }),
        Entry(name: "rect_stroke",
              summary: "1,000 random rectangle outlines, widths 1 to 8, mitered corners",
              make: { o throws(BenchError) in try ShapesCase(.rectStroke, options: o) }),
        Entry(name: "event_latency_rectangle_2048x1536",
              summary: "per-event latency of org.bristle.rectangle rubber-banding over the stroke's samples, p50/p99",
              make: { o throws(BenchError) in
                  try SessionEventsCase(name: "event_latency_rectangle_2048x1536", brush: SessionEventsCase.rectangle,
                                        width: 2048, height: 1536, perEvent: true, options: o)
              }),
        Entry(name: "event_latency_rectangle_4096x3072",
              summary: "the same on a 4096x3072 canvas",
              make: { o throws(BenchError) in
                  try SessionEventsCase(name: "event_latency_rectangle_4096x3072", brush: SessionEventsCase.rectangle,
                                        width: 4096, height: 3072, perEvent: true, options: o)
              }),
        Entry(name: "png_export_2048x1536",
              summary: "PNG encode + atomic write of the 2048x1536 stroke picture",
              make: { o throws(BenchError) in try PNGExportCase(durable: true, options: o) }),
        Entry(name: "png_export_2048x1536_nosync",
              summary: "the same without fsync (atomic rename only): the encoder's own time",
              make: { o throws(BenchError) in try PNGExportCase(durable: false, options: o) }),
        Entry(name: "history_100_strokes_4096x3072",
              summary: "100 pencil strokes on 4096x3072, all undone and redone: history memory and time per step",
              make: { o throws(BenchError) in try HistoryCase(options: o) }),
    ] + BenchScripts.entries + InstrumentedRenderCase.entries

    /// Every case name, in run order.
    public static var names: [String] { entries.map(\.name) }

    /// The entry called `name`, if any.
    public static func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }
}
