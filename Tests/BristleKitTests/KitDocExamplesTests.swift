@testable import BristleKit
import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The examples of docs/BristleKit.md, section "Drawing with the host's services": each block
/// is the body of one function below, verbatim (checked), and each renders to a golden image
/// in Tests/Golden/kit/ on a white 200 x 100 canvas with a blue `ink`.
@Suite struct KitDocExamplesTests {
    static let section = "## Drawing with the host's services"

    // MARK: The examples, in the order of the document.

    static func segments(_ canvas: Canvas, _ ink: Paint) {
        canvas.fillSegment(from: (20, 25), to: (180, 25), startWidth: 14, endWidth: 4, cap: .butt, paint: ink)
        canvas.fillSegment(from: (20, 55), to: (180, 55), startWidth: 4, endWidth: 14, cap: .square, paint: ink)
        canvas.fillSegment(from: (20, 85), to: (180, 85), startWidth: 10, endWidth: 10, paint: ink)  // round
    }

    static func rectangles(_ canvas: Canvas, _ ink: Paint) {
        canvas.drawRect(x: 90, y: 80, width: -70, height: -60, paint: ink)  // dragged up and left
        let outline = StrokeStyle(width: 4, join: .miter, dashes: [12, 6])  // sharp corners, dashed
        canvas.drawRect(x: 110.5, y: 20.5, width: 70, height: 60, style: outline, paint: ink)
    }

    static func ellipses(_ canvas: Canvas, _ ink: Paint) {
        canvas.drawEllipse(x: 50, y: 50, radiusX: 40, radiusY: 30, paint: Paint(color: ink.color, opacity: 0.4))
        let dotted = StrokeStyle(width: 5, cap: .round, dashes: [0, 9])
        canvas.drawEllipse(x: 145, y: 50, radiusX: 45, radiusY: 35, style: dotted, paint: ink)
    }

    static func polylines(_ canvas: Canvas, _ ink: Paint) {
        let zigzag: [(x: Double, y: Double)] = [(15, 80), (45, 20), (75, 80), (105, 20)]
        canvas.drawPolyline(zigzag, style: StrokeStyle(width: 8, cap: .butt, join: .bevel), paint: ink)
        let triangle: [(x: Double, y: Double)] = [(125, 85), (155, 15), (185, 85)]
        canvas.drawPolyline(triangle, paint: Paint(color: ink.color, opacity: 0.3))  // filled
        canvas.drawPolyline(triangle, style: StrokeStyle(width: 6, join: .miter, closed: true), paint: ink)
    }

    static func dabs(_ canvas: Canvas, _ ink: Paint) {
        for i in 0..<5 {
            canvas.drawDab(x: 25 + Double(i) * 37.5, y: 50, radius: 17, hardness: Double(i) / 4, paint: ink)
        }
    }

    static func patterns(_ canvas: Canvas, _ ink: Paint) {
        let blue = Pixel(r: 26, g: 77, b: 204, a: 255)
        guard let checker = Pattern(width: 8, height: 8, pixel: { x, y in (x / 4 + y / 4) % 2 == 0 ? blue : .clear }) else { return }
        canvas.drawDab(x: 50, y: 50, radius: 42, hardness: 0.7, paint: ink, pattern: checker)
        canvas.drawRect(x: 105, y: 10, width: 85, height: 80, paint: ink)
        canvas.drawEllipse(x: 147.5, y: 50, radiusX: 32, radiusY: 30, paint: Paint(color: ink.color, blend: .erase), pattern: checker)
    }

    static func masks(_ canvas: Canvas, _ ink: Paint) {
        let mask = CoverageMask(width: canvas.width, height: canvas.height)
        let wave: [(x: Double, y: Double)] = [(20, 80), (60, 20), (100, 80), (140, 20), (180, 80)]
        mask.addPolyline(wave, style: StrokeStyle(width: 16), using: canvas.services)
        mask.addDab(x: 100, y: 50, radius: 34, hardness: 0.2, using: canvas.services)
        canvas.composite(mask, in: mask.touched, paint: Paint(color: ink.color, opacity: 0.5), overBase: true)
        guard let stripes = Pattern(width: 1, height: 6, pixel: { _, y in y < 3 ? Pixel(r: 204, g: 51, b: 26, a: 255) : .clear }) else { return }
        mask.clear()
        mask.addEllipse(x: 100, y: 50, radiusX: 25, radiusY: 20, using: canvas.services)
        canvas.composite(mask, in: mask.touched, paint: ink, pattern: stripes, overBase: false)
    }

    static func olderHosts(_ canvas: Canvas, _ ink: Paint) {
        if canvas.services.provides(.drawEllipse) {
            canvas.drawEllipse(x: 100, y: 50, radiusX: 80, radiusY: 35, style: StrokeStyle(width: 4), paint: ink)
        } else {  // a 1.0 host: the outline as 64 round-capped segments
            for i in 0..<64 {
                let a = Double(i) * .pi / 32, b = Double(i + 1) * .pi / 32
                canvas.fillSegment(from: (100 + 80 * cos(a), 50 + 35 * sin(a)), to: (100 + 80 * cos(b), 50 + 35 * sin(b)),
                                   startWidth: 4, endWidth: 4, paint: ink)
            }
        }
    }

    // MARK: The checks.

    struct Example: Sendable, CustomStringConvertible {
        var description: String
        var draw: @Sendable (Canvas, Paint) -> Void
        /// Run on a 1.0 host's services table.
        var older = false
    }

    static let examples = [
        Example(description: "segments", draw: segments), Example(description: "rectangles", draw: rectangles),
        Example(description: "ellipses", draw: ellipses), Example(description: "polylines", draw: polylines),
        Example(description: "dabs", draw: dabs), Example(description: "patterns", draw: patterns),
        Example(description: "masks", draw: masks), Example(description: "older-hosts", draw: olderHosts),
        Example(description: "older-hosts-on-1.0", draw: olderHosts, older: true),
    ]

    /// The ```swift blocks of the section, in order.
    static func documentedBlocks() throws -> [String] {
        let doc = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/BristleKit.md"), encoding: .utf8)
        let start = try #require(doc.range(of: section))
        let body = doc[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        return body.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```\n")[0] }
    }

    @Test func theDocumentedBlocksAreTheseFunctions() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let blocks = try Self.documentedBlocks()
        #expect(blocks.count == 8, "one block per example function")
        var searchFrom = source.startIndex
        for block in blocks {
            let indented = block.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
            let found = source.range(of: indented, range: searchFrom..<source.endIndex)
            #expect(found != nil, "docs/BristleKit.md block not found (in order) in this file:\n\(block)")
            if let found { searchFrom = found.upperBound }
        }
    }

    @Test(arguments: examples)
    func exampleRendersItsGolden(_ example: Example) throws {
        let host = BrushHost()
        let older = try #require(OlderServicesTable(copying: host.cServices))
        let white = Pixel(r: 255, g: 255, b: 255, a: 255)
        let surface = KitSurface(width: 200, height: 100, services: example.older ? older.table : host.cServices,
                                 background: white)
        let before = surface.bytes
        let canvas = surface.canvas()
        example.draw(canvas, Paint(color: Color(red: 0.1, green: 0.3, blue: 0.8)))
        #expect(differingBytes(surface.bytes, before) > 500, "the example draws")
        // Every changed pixel lies in the canvas's dirty rectangle.
        let d = canvas.dirty
        for y in 0..<surface.height {
            for x in 0..<surface.width where (0..<4).contains(where: { surface.pixels[y * surface.stride + x * 4 + $0] != before[y * surface.stride + x * 4 + $0] }) {
                #expect(x >= d.x && x < d.x + d.width && y >= d.y && y < d.y + d.height, "(\(x), \(y)) outside \(d)")
            }
        }
        let image = PixelConversion.unpremultiplied(surface.bytes, width: surface.width, height: surface.height, strideBytes: surface.stride)
        let mismatch = try GoldenImage.compare(image, width: surface.width, height: surface.height, name: "kit/\(example.description)")
        #expect(mismatch == nil, "\(mismatch!)")
    }
}
