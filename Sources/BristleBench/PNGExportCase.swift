import BristleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `png_export_2048x1536`: encodes the `stroke_segments_opaque` picture (drawn once, untimed)
/// with the project's PNG writer and its default options (fast deflate, durable atomic
/// write: temporary file, fsync, rename) into a private temporary folder, once per
/// repetition. With `durable` false (`png_export_2048x1536_nosync`) the write is still atomic
/// but not synced to the disk, which separates encoding from the disk's flush latency.
final class PNGExportCase: BenchCase {
    let name: String
    let item = "image"
    let items = 1
    var extraFields: [(String, String)] {
        var st = stat()
        let bytes = stat(file, &st) == 0 ? Int(st.st_size) : 0
        return [("bytes", String(bytes)), ("durable", options.durable ? "true" : "false"),
                ("threads", String(options.threads))]
    }

    private let options: PNGWriteOptions

    private let canvas: BenchCanvas
    private let folder: String
    private let file: String

    init(durable: Bool, options: BenchOptions) throws(BenchError) {
        name = durable ? "png_export_2048x1536" : "png_export_2048x1536_nosync"
        var png = PNGWriteOptions.default
        png.durable = durable
        self.options = png
        canvas = try BenchCanvas(width: BenchWorkload.canvasWidth, height: BenchWorkload.canvasHeight)
        canvas.resetToWhite()
        let rasterizer = Rasterizer()
        let paint = Paint(color: BenchWorkload.strokeColor(alpha: BenchWorkload.opaqueAlpha))
        for s in StrokeSegmentsCase.segments(count: options.segments) {
            _ = rasterizer.fillSegment(TaperedSegment(x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1,
                                                      width0: s.width0, width1: s.width1),
                                       paint: paint, into: canvas.layer.plane)
        }
        var template = Array("/tmp/bristle-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("cannot create a temporary folder in /tmp: \(String(cString: strerror(errno)))",
                             hint: "check that /tmp exists and is writable", exitStatus: 73)
        }
        folder = String(cString: made)
        file = folder + "/export.png"
    }

    deinit {
        unlink(file)
        rmdir(folder)
    }

    func reset() throws(BenchError) {}

    func run(measured: Bool) throws(BenchError) {
        try canvas.writePNG(to: file, options: options)
    }

    func writePNG(to path: String) throws(BenchError) {
        try canvas.writePNG(to: path)
    }
}
