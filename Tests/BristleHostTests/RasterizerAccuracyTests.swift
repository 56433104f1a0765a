import Testing
@testable import BristleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Accuracy and contract tests for the exact-area rasteriser.
//
// The truth used here is independent of the implementation: each shape is convex, so its
// vertical cross-section at any x is one interval [lo(x), hi(x)], computed exactly (circle
// equation; tangent-point quadrilateral for the hull of two discs; edge intersections for a
// convex polygon). Pixel coverage is the integral over the pixel's columns of the interval
// clipped to the pixel's row, taken with many midpoint sub-columns per pixel.

// MARK: - Test fixtures

/// An RGBA8 buffer with optional per-row padding filled with a sentinel byte.
private final class TestCanvas {
    let width: Int
    let height: Int
    let stride: Int
    let bytes: UnsafeMutablePointer<UInt8>
    static let sentinel: UInt8 = 0xA5

    init(width: Int, height: Int, padding: Int = 0, fill: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 0, 0, 0)) {
        self.width = width
        self.height = height
        self.stride = width * 4 + padding
        bytes = .allocate(capacity: stride * height)
        bytes.initialize(repeating: Self.sentinel, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let p = bytes + y * stride + 4 * x
                p[0] = fill.r; p[1] = fill.g; p[2] = fill.b; p[3] = fill.a
            }
        }
    }

    deinit { bytes.deallocate() }

    var plane: RGBAPlane { RGBAPlane(base: bytes, width: width, height: height, strideBytes: stride) }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let p = bytes + y * stride + 4 * x
        return [p[0], p[1], p[2], p[3]]
    }

    func setPixel(_ x: Int, _ y: Int, _ v: [UInt8]) {
        let p = bytes + y * stride + 4 * x
        for i in 0..<4 { p[i] = v[i] }
    }

    func alpha(_ x: Int, _ y: Int) -> UInt8 { bytes[y * stride + 4 * x + 3] }

    /// All bytes, padding included.
    func snapshot() -> [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: stride * height)) }

    /// True when every padding byte still holds the sentinel.
    var paddingIntact: Bool {
        for y in 0..<height {
            for i in (width * 4)..<stride where bytes[y * stride + i] != Self.sentinel { return false }
        }
        return true
    }
}

/// An A8 buffer.
private final class TestMask {
    let width: Int
    let height: Int
    let stride: Int
    let bytes: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int, padding: Int = 0) {
        self.width = width
        self.height = height
        self.stride = width + padding
        bytes = .allocate(capacity: stride * height)
        bytes.initialize(repeating: 0, count: stride * height)
    }

    deinit { bytes.deallocate() }

    var plane: MaskPlane { MaskPlane(base: bytes, width: width, height: height, strideBytes: stride) }

    func value(_ x: Int, _ y: Int) -> UInt8 { bytes[y * stride + x] }

    func snapshot() -> [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: stride * height)) }
}

// MARK: - Analytic truth

/// A convex shape described by its vertical cross-section.
private struct ConvexTruth {
    var minX: Double
    var maxX: Double
    var interval: (Double) -> (lo: Double, hi: Double)?

    /// Exact interval of a disc at x.
    static func discInterval(_ cx: Double, _ cy: Double, _ r: Double, _ x: Double) -> (lo: Double, hi: Double)? {
        let dx = x - cx
        let q = r * r - dx * dx
        guard q > 0 else { return nil }
        let h = q.squareRoot()
        return (cy - h, cy + h)
    }

    /// Exact vertical cross-section of a convex polygon at x.
    static func polygonInterval(_ pts: [(Double, Double)], _ x: Double) -> (lo: Double, hi: Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for i in 0..<pts.count {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            if a.0 == b.0 {
                if a.0 == x { lo = min(lo, a.1, b.1); hi = max(hi, a.1, b.1) }
                continue
            }
            guard x >= min(a.0, b.0), x <= max(a.0, b.0) else { continue }
            let y = a.1 + (x - a.0) * (b.1 - a.1) / (b.0 - a.0)
            lo = min(lo, y); hi = max(hi, y)
        }
        return lo < hi ? (lo, hi) : nil
    }

    static func disc(cx: Double, cy: Double, r: Double) -> ConvexTruth {
        ConvexTruth(minX: cx - r, maxX: cx + r) { discInterval(cx, cy, r, $0) }
    }

    /// Convex hull of two discs (diameters w0, w1): union of both discs and the quadrilateral
    /// between their outer tangent points; the union's cross-section is the hull's (convex).
    static func capsule(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                        _ w0: Double, _ w1: Double) -> ConvexTruth {
        let r0 = w0 / 2, r1 = w1 / 2
        let dx = x1 - x0, dy = y1 - y0
        let d = (dx * dx + dy * dy).squareRoot()
        if d <= abs(r0 - r1) {
            return r0 >= r1 ? disc(cx: x0, cy: y0, r: r0) : disc(cx: x1, cy: y1, r: r1)
        }
        let ux = dx / d, uy = dy / d
        let vx = -uy, vy = ux
        let k = (r0 - r1) / d, h = (1 - k * k).squareRoot()
        let npx = k * ux + h * vx, npy = k * uy + h * vy
        let nmx = k * ux - h * vx, nmy = k * uy - h * vy
        let quad = [(x0 + r0 * npx, y0 + r0 * npy), (x1 + r1 * npx, y1 + r1 * npy),
                    (x1 + r1 * nmx, y1 + r1 * nmy), (x0 + r0 * nmx, y0 + r0 * nmy)]
        return ConvexTruth(minX: min(x0 - r0, x1 - r1), maxX: max(x0 + r0, x1 + r1)) { x in
            var lo = Double.infinity, hi = -Double.infinity
            if let a = discInterval(x0, y0, r0, x) { lo = min(lo, a.lo); hi = max(hi, a.hi) }
            if let b = discInterval(x1, y1, r1, x) { lo = min(lo, b.lo); hi = max(hi, b.hi) }
            if let q = polygonInterval(quad, x) { lo = min(lo, q.lo); hi = max(hi, q.hi) }
            return lo < hi ? (lo, hi) : nil
        }
    }

    static func polygon(_ pts: [(Double, Double)]) -> ConvexTruth {
        ConvexTruth(minX: pts.map(\.0).min()!, maxX: pts.map(\.0).max()!) { polygonInterval(pts, $0) }
    }

    /// Exact-area coverage of every pixel of a width x height plane, row-major.
    func coverage(width: Int, height: Int, samples: Int = 1024, rows: Range<Int>? = nil) -> [Double] {
        var cov = [Double](repeating: 0, count: width * height)
        let rowLo = Double(rows?.lowerBound ?? 0), rowHi = Double(rows?.upperBound ?? height)
        let first = max(0, Int(minX.rounded(.down))), last = min(width, Int(maxX.rounded(.up)))
        guard first < last else { return cov }
        let weight = 1 / Double(samples)
        for px in first..<last {
            for s in 0..<samples {
                let x = Double(px) + (Double(s) + 0.5) * weight
                guard let iv = interval(x) else { continue }
                let lo = max(iv.lo, rowLo), hi = min(iv.hi, rowHi)
                guard lo < hi else { continue }
                var py = Int(lo.rounded(.down))
                while Double(py) < hi {
                    let overlap = min(hi, Double(py + 1)) - max(lo, Double(py))
                    cov[py * width + px] += overlap * weight
                    py += 1
                }
            }
        }
        return cov
    }
}

/// Max and mean absolute error (in units of 1/255) over pixels where truth or measured > 0.
private struct ErrorStats: CustomStringConvertible {
    var maxError = 0.0
    var sum = 0.0
    var count = 0
    var mean: Double { count == 0 ? 0 : sum / Double(count) }

    /// Pixels with partial truth coverage (0 < truth < 1) only.
    var edgeSum = 0.0
    var edgeCount = 0
    var edgeMean: Double { edgeCount == 0 ? 0 : edgeSum / Double(edgeCount) }

    mutating func add(measured: UInt8, truth: Double) {
        guard measured != 0 || truth > 0 else { return }
        let e = abs(Double(measured) - truth * 255)
        maxError = max(maxError, e)
        sum += e
        count += 1
        if truth < 1 - 1e-12 {
            edgeSum += e
            edgeCount += 1
        }
    }

    mutating func merge(_ o: ErrorStats) {
        maxError = max(maxError, o.maxError); sum += o.sum; count += o.count
        edgeSum += o.edgeSum; edgeCount += o.edgeCount
    }

    var description: String {
        func r(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        return "max \(r(maxError))/255, mean \(r(mean))/255 over \(count) px (edge px only: mean \(r(edgeMean))/255 over \(edgeCount))"
    }
}

// MARK: - Cases

private struct ShapeCase: Sendable, CustomStringConvertible {
    var name: String
    var x0: Double, y0: Double, x1: Double, y1: Double
    var w0: Double, w1: Double
    var size = 32

    var description: String { name }
    var segment: TaperedSegment { TaperedSegment(x0: x0, y0: y0, x1: x1, y1: y1, width0: w0, width1: w1) }
    var truth: ConvexTruth { .capsule(x0, y0, x1, y1, w0, w1) }
}

private func segmentAt(_ name: String, cx: Double, cy: Double, length: Double, degrees: Double,
                       w0: Double, w1: Double, size: Int = 32) -> ShapeCase {
    let a = degrees * Double.pi / 180
    let hx = 0.5 * length * cos(a), hy = 0.5 * length * sin(a)
    return ShapeCase(name: name, x0: cx - hx, y0: cy - hy, x1: cx + hx, y1: cy + hy, w0: w0, w1: w1, size: size)
}

private let fractions: [Double] = [0.0, 0.25, 0.5, 0.73]

private let discCases: [ShapeCase] = {
    var out: [ShapeCase] = []
    for (i, r) in [0.15, 0.5, 0.75, 2.2, 5.0, 9.37].enumerated() {
        for (j, f) in fractions.enumerated() {
            let g = fractions[(j + i + 1) % fractions.count]
            let cx = 16 + f, cy = 15 + g
            out.append(ShapeCase(name: "disc r=\(r) at (\(cx),\(cy))", x0: cx, y0: cy, x1: cx, y1: cy,
                                 w0: 2 * r, w1: 2 * r))
        }
    }
    return out
}()

private let capsuleCases: [ShapeCase] = {
    var out: [ShapeCase] = []
    let angles: [Double] = [0, 90, 45, 17.3, 128.6, 200, 301.7]
    let widths: [Double] = [1, 1.5, 4, 10.6]
    for (i, a) in angles.enumerated() {
        for (j, w) in widths.enumerated() {
            let f = fractions[(i + j) % 4], g = fractions[(i + 2 * j + 1) % 4]
            let len = j % 2 == 0 ? 5.0 : 10.3
            out.append(segmentAt("capsule \(a)deg w=\(w) len=\(len)", cx: 16 + f, cy: 16 + g,
                                 length: len, degrees: a, w0: w, w1: w))
        }
    }
    return out
}()

private let taperedCases: [ShapeCase] = [
    segmentAt("taper 6->2 0deg", cx: 16.25, cy: 16.5, length: 12, degrees: 0, w0: 6, w1: 2),
    segmentAt("taper 2->9 37deg", cx: 16.73, cy: 15.0, length: 10, degrees: 37, w0: 2, w1: 9),
    segmentAt("taper 0->5 100deg", cx: 16.5, cy: 16.25, length: 9, degrees: 100, w0: 0, w1: 5),
    segmentAt("taper 3->0 225deg", cx: 15.0, cy: 16.73, length: 7.5, degrees: 225, w0: 3, w1: 0),
    segmentAt("taper 1->0.3 63deg", cx: 16.1, cy: 16.9, length: 4, degrees: 63, w0: 1, w1: 0.3),
    segmentAt("taper 8->7.9 3deg", cx: 16.3, cy: 16.6, length: 0.5, degrees: 3, w0: 8, w1: 7.9),
    segmentAt("contained 10->1", cx: 16.3, cy: 16.6, length: 2, degrees: 30, w0: 10, w1: 1),
    segmentAt("nearly contained 10->1", cx: 16.3, cy: 16.6, length: 4.6, degrees: 30, w0: 10, w1: 1),
    ShapeCase(name: "zero-length w=7", x0: 16.73, y0: 15.25, x1: 16.73, y1: 15.25, w0: 7, w1: 7),
    ShapeCase(name: "zero-length w=3/5", x0: 16.2, y0: 15.6, x1: 16.2, y1: 15.6, w0: 3, w1: 5),
]

private let tinyCases: [ShapeCase] = {
    var out: [ShapeCase] = []
    for w in [0.3, 1.0, 1.5] {
        for (i, f) in fractions.enumerated() {
            out.append(ShapeCase(name: "tiny dot w=\(w) f=\(f)", x0: 8 + f, y0: 8 + fractions[(i + 1) % 4],
                                 x1: 8 + f, y1: 8 + fractions[(i + 1) % 4], w0: w, w1: w, size: 16))
            out.append(segmentAt("tiny seg w=\(w) f=\(f)", cx: 8 + f, cy: 8 + fractions[(i + 2) % 4],
                                 length: 2.5, degrees: 31 + 45 * Double(i), w0: w, w1: w, size: 16))
        }
    }
    return out
}()

private let clippedCases: [ShapeCase] = [
    segmentAt("clip left", cx: 1.3, cy: 12.5, length: 10, degrees: 20, w0: 9, w1: 6, size: 24),
    segmentAt("clip top-left corner", cx: -0.75, cy: 0.25, length: 8, degrees: 45, w0: 7, w1: 7, size: 24),
    segmentAt("clip right", cx: 23.5, cy: 10.25, length: 6, degrees: 80, w0: 5, w1: 8, size: 24),
    segmentAt("clip bottom", cx: 11.73, cy: 25.0, length: 12, degrees: 160, w0: 6, w1: 6, size: 24),
    segmentAt("clip across", cx: 12, cy: 12, length: 60, degrees: 12, w0: 5, w1: 3, size: 24),
    segmentAt("clip big over all", cx: 12.3, cy: 11.7, length: 3, degrees: 70, w0: 40, w1: 36, size: 24),
    ShapeCase(name: "clip disc bottom-right", x0: 22.6, y0: 23.1, x1: 22.6, y1: 23.1, w0: 9, w1: 9, size: 24),
]

// MARK: - Helpers

private let white = Paint(color: .white, opacity: 1, blend: .sourceOver)

/// Draws the case with fillSegment on a transparent (optionally padded) canvas and compares
/// alpha against the truth; also checks dirty-rect containment and padding.
private func measureFill(_ c: ShapeCase, padding: Int = 0) -> ErrorStats {
    let canvas = TestCanvas(width: c.size, height: c.size, padding: padding)
    let rect = Rasterizer().fillSegment(c.segment, paint: white, into: canvas.plane)
    let truth = c.truth.coverage(width: c.size, height: c.size)
    var stats = ErrorStats()
    for y in 0..<c.size {
        for x in 0..<c.size {
            let px = canvas.pixel(x, y)
            stats.add(measured: px[3], truth: truth[y * c.size + x])
            // Opaque white: premultiplied colour equals alpha.
            #expect(px[0] == px[3] && px[1] == px[3] && px[2] == px[3], "\(c.name) pixel \(x),\(y)")
            if px[3] != 0 {
                #expect(rect.contains(PixelRect(x: Int32(x), y: Int32(y), width: 1, height: 1)),
                        "\(c.name): changed pixel \(x),\(y) outside dirty rect \(rect)")
            }
        }
    }
    #expect(canvas.plane.bounds.contains(rect), "\(c.name): rect \(rect) not clipped")
    #expect(canvas.paddingIntact, "\(c.name): padding bytes were written")
    return stats
}

/// Same through maskSegment.
private func measureMask(_ c: ShapeCase) -> ErrorStats {
    let mask = TestMask(width: c.size, height: c.size, padding: 3)
    _ = Rasterizer().maskSegment(c.segment, into: mask.plane)
    let truth = c.truth.coverage(width: c.size, height: c.size)
    var stats = ErrorStats()
    for y in 0..<c.size {
        for x in 0..<c.size { stats.add(measured: mask.value(x, y), truth: truth[y * c.size + x]) }
    }
    return stats
}

/// Number of differing bytes (arrays of equal length), so failures print a count, not a dump.
private func differences(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard a.count == b.count else { return max(a.count, b.count) }
    return zip(a, b).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }
}

private func expectWithinGates(_ stats: ErrorStats, _ label: String) {
    #expect(stats.count > 0, "\(label): nothing measured")
    #expect(stats.maxError <= 2.0, "\(label): \(stats)")
    #expect(stats.mean <= 0.5, "\(label): \(stats)")
}

// MARK: - Accuracy

@Suite("Rasterizer accuracy") struct RasterizerAccuracyTests {
    /// Runs every case of a family through fillSegment (padded stride where asked) and
    /// maskSegment, gating each case and the family aggregate; prints the family's numbers.
    private func runFamily(_ name: String, _ cases: [ShapeCase], padding: Int = 0) {
        var fill = ErrorStats(), mask = ErrorStats()
        for c in cases {
            let f = measureFill(c, padding: padding), m = measureMask(c)
            expectWithinGates(f, c.name)
            expectWithinGates(m, c.name + " (mask)")
            fill.merge(f)
            mask.merge(m)
        }
        print("accuracy \(name) (\(cases.count) cases): fill \(fill); mask \(mask)")
        expectWithinGates(fill, name)
        expectWithinGates(mask, name + " (mask)")
    }

    @Test("Discs at fractional centres (fillDisc, and as zero-length segments)")
    func discs() {
        var stats = ErrorStats()
        for c in discCases {
            let canvas = TestCanvas(width: c.size, height: c.size)
            _ = Rasterizer().fillDisc(centerX: c.x0, centerY: c.y0, radius: c.w0 / 2, paint: white, into: canvas.plane)
            let truth = ConvexTruth.disc(cx: c.x0, cy: c.y0, r: c.w0 / 2).coverage(width: c.size, height: c.size)
            var one = ErrorStats()
            for y in 0..<c.size {
                for x in 0..<c.size { one.add(measured: canvas.alpha(x, y), truth: truth[y * c.size + x]) }
            }
            expectWithinGates(one, c.name)
            stats.merge(one)
        }
        print("accuracy discs via fillDisc (\(discCases.count) cases): \(stats)")
        expectWithinGates(stats, "discs")
        runFamily("discs as segments", discCases)
    }

    @Test("Capsules at all angles")
    func capsules() { runFamily("capsules", capsuleCases) }

    @Test("Tapered and degenerate segments")
    func tapered() { runFamily("tapered", taperedCases) }

    @Test("Tiny shapes")
    func tiny() { runFamily("tiny", tinyCases) }

    @Test("Shapes clipped by the plane, padded stride")
    func clipped() { runFamily("clipped", clippedCases, padding: 12) }

    @Test("Convex polygons via fillPolygon")
    func polygons() {
        let shapes: [[(Double, Double)]] = [
            [(3.25, 4.5), (20.73, 2.1), (12.5, 27.9)],                          // triangle
            [(16, 3.3), (28.7, 16), (16, 28.7), (3.3, 16)],                       // 45° square
            [(5.2, 5.2), (26.75, 5.2), (26.75, 19.5), (5.2, 19.5)],               // axis-aligned
            [(10.1, 2.2), (29.5, 9.8), (25.3, 30.4), (2.6, 21.7)],                // arbitrary quad
            [(-5, -3), (40, 10), (8, 45)],                                         // clipped
        ]
        for pts in shapes {
            for reversed in [false, true] {
                let canvas = TestCanvas(width: 32, height: 32, padding: 8)
                let input = (reversed ? pts.reversed() : pts).map { (x: $0.0, y: $0.1) }
                let rect = Rasterizer().fillPolygon(input, paint: white, into: canvas.plane)
                #expect(!rect.isEmpty)
                let truth = ConvexTruth.polygon(pts).coverage(width: 32, height: 32)
                var stats = ErrorStats()
                for y in 0..<32 {
                    for x in 0..<32 { stats.add(measured: canvas.alpha(x, y), truth: truth[y * 32 + x]) }
                }
                expectWithinGates(stats, "polygon \(pts) reversed=\(reversed)")
                #expect(canvas.paddingIntact)
            }
        }
    }

    @Test("Huge disc boundary crossing the plane is exact (culled flattening)")
    func hugeDiscEdge() {
        for (r, deg) in [(5e5, 33.0), (3e6, 250.0), (1e4, 117.0)] {
            let a = deg * Double.pi / 180
            let cx = 16.3 - r * cos(a), cy = 15.8 - r * sin(a)
            let canvas = TestCanvas(width: 32, height: 32)
            _ = Rasterizer().fillDisc(centerX: cx, centerY: cy, radius: r, paint: white, into: canvas.plane)
            let truth = ConvexTruth.disc(cx: cx, cy: cy, r: r).coverage(width: 32, height: 32, samples: 256)
            var stats = ErrorStats()
            for y in 0..<32 {
                for x in 0..<32 { stats.add(measured: canvas.alpha(x, y), truth: truth[y * 32 + x]) }
            }
            expectWithinGates(stats, "huge disc r=\(r)")
        }
    }

    @Test("A shape taller than one accumulator band is seamless across bands")
    func bandSeam() {
        let size = 1001
        let canvas = TestCanvas(width: size, height: size)
        let (cx, cy, r) = (500.3, 500.7, 400.0)
        let rect = Rasterizer().fillDisc(centerX: cx, centerY: cy, radius: r, paint: white, into: canvas.plane)
        #expect(rect == PixelRect(x: 100, y: 100, width: 801, height: 801))
        // Rows of the first band boundary (band height depends on the accumulator's cell budget).
        let seam = 100 + CoverageAccumulator.maxCells / (801 + 2)
        #expect(seam < 901, "disc must span more than one band")
        let rows = (seam - 3)..<(seam + 3)
        let truth = ConvexTruth.disc(cx: cx, cy: cy, r: r).coverage(width: size, height: size, samples: 256, rows: rows)
        var stats = ErrorStats()
        for y in rows {
            for x in 0..<size { stats.add(measured: canvas.alpha(x, y), truth: truth[y * size + x]) }
        }
        expectWithinGates(stats, "band seam")
        #expect(stats.count > 800)
    }

    // MARK: - Compositing contracts

    @Test("Full coverage with opaque paint writes the paint colour exactly; zero coverage leaves bytes alone")
    func exactInteriorAndUntouchedExterior() {
        let canvas = TestCanvas(width: 40, height: 40, padding: 4)
        for y in 0..<40 { for x in 0..<40 { canvas.setPixel(x, y, [UInt8(x * 3), UInt8(y * 2), UInt8(x + y), 200]) } }
        let before = canvas.snapshot()
        let color = RGBAColor(red: 0.2, green: 0.45, blue: 0.9, alpha: 1)
        let seg = TaperedSegment(x0: 10.3, y0: 12.7, x1: 27.6, y1: 25.2, width0: 9, width1: 6.5)
        let rect = Rasterizer().fillSegment(seg, paint: Paint(color: color, opacity: 1, blend: .sourceOver),
                                            into: canvas.plane)
        let truth = ConvexTruth.capsule(10.3, 12.7, 27.6, 25.2, 9, 6.5).coverage(width: 40, height: 40)
        let p = color.premultiplied8
        var interior = 0
        for y in 0..<40 {
            for x in 0..<40 {
                let t = truth[y * 40 + x]
                if t >= 1 - 1e-9 {
                    interior += 1
                    #expect(canvas.pixel(x, y) == [p.r, p.g, p.b, p.a])
                } else if t == 0 {
                    let o = y * canvas.stride + 4 * x
                    #expect(canvas.pixel(x, y) == Array(before[o..<(o + 4)]), "pixel \(x),\(y) touched")
                }
                if !rect.contains(PixelRect(x: Int32(x), y: Int32(y), width: 1, height: 1)) {
                    let o = y * canvas.stride + 4 * x
                    #expect(canvas.pixel(x, y) == Array(before[o..<(o + 4)]))
                }
            }
        }
        #expect(interior > 50)
        #expect(canvas.paddingIntact)
    }

    @Test("Source-over with translucent paint and opacity follows the formula")
    func sourceOverFormula() {
        let bg: [UInt8] = [40, 80, 120, 160]
        let canvas = TestCanvas(width: 24, height: 24, fill: (40, 80, 120, 160))
        let color = RGBAColor(red: 1, green: 0.5, blue: 0.25, alpha: 0.6)
        let paint = Paint(color: color, opacity: 0.7, blend: .sourceOver)
        _ = Rasterizer().fillDisc(centerX: 12.4, centerY: 11.6, radius: 7.3, paint: paint, into: canvas.plane)
        let truth = ConvexTruth.disc(cx: 12.4, cy: 11.6, r: 7.3).coverage(width: 24, height: 24)
        let s = color.premultiplied8
        let sv = [Double(s.r), Double(s.g), Double(s.b), Double(s.a)]
        for y in 0..<24 {
            for x in 0..<24 {
                let c = truth[y * 24 + x] * 0.7
                let px = canvas.pixel(x, y)
                for k in 0..<4 {
                    let expected = sv[k] * c + Double(bg[k]) * (1 - sv[3] / 255 * c)
                    #expect(abs(Double(px[k]) - expected) <= 2.5, "pixel \(x),\(y) ch \(k): \(px[k]) vs \(expected)")
                }
                #expect(px[0] <= px[3] && px[1] <= px[3] && px[2] <= px[3], "premultiplied invariant")
            }
        }
    }

    @Test("Erase reduces all channels by dst * (1 - a * coverage)")
    func eraseFormula() {
        let canvas = TestCanvas(width: 24, height: 24, fill: (90, 150, 30, 210))
        let paint = Paint(color: RGBAColor(red: 0.3, green: 0.3, blue: 0.3, alpha: 128.0 / 255), opacity: 1, blend: .erase)
        _ = Rasterizer().fillDisc(centerX: 11.5, centerY: 12.25, radius: 6.6, paint: paint, into: canvas.plane)
        let truth = ConvexTruth.disc(cx: 11.5, cy: 12.25, r: 6.6).coverage(width: 24, height: 24)
        let bg: [Double] = [90, 150, 30, 210]
        var fullChecked = 0
        for y in 0..<24 {
            for x in 0..<24 {
                let t = truth[y * 24 + x]
                let px = canvas.pixel(x, y)
                for k in 0..<4 {
                    let expected = bg[k] * (1 - 128.0 / 255 * t)
                    if t >= 1 - 1e-9 {
                        // Exact: round-to-nearest of the formula.
                        #expect(Double(px[k]) == expected.rounded(), "interior \(x),\(y) ch \(k)")
                    } else {
                        #expect(abs(Double(px[k]) - expected) <= 1.5, "edge \(x),\(y) ch \(k): \(px[k]) vs \(expected)")
                    }
                }
                if t >= 1 - 1e-9 { fullChecked += 1 }
            }
        }
        #expect(fullChecked > 60)
        // Opaque erase at full coverage clears to zero.
        _ = Rasterizer().fillDisc(centerX: 11.5, centerY: 12.25, radius: 6.6,
                                  paint: Paint(color: .black, opacity: 1, blend: .erase), into: canvas.plane)
        #expect(canvas.pixel(11, 12) == [0, 0, 0, 0])
    }

    @Test("A stroke's segments share their joints' flattening: one rasteriser draws what fresh ones do")
    func sharedJointSteps() {
        // Widths repeat at the joints (as a brush's tapered stroke passes them), with equal
        // widths, a disc (zero length) and a width that comes back after others between.
        let widths = [5.0, 3.5, 3.5, 7.25, 0.75, 3.5, 12.0, 5.0]
        let shared = Rasterizer()
        var partial = false
        for k in 0..<(widths.count - 1) {
            let x0 = 6.3 + 3.1 * Double(k), x1 = k == 4 ? x0 : x0 + 3.7
            let s = TaperedSegment(x0: x0, y0: 14.2 + 0.4 * Double(k), x1: x1, y1: 16.9 - 0.3 * Double(k),
                                   width0: widths[k], width1: widths[k + 1])
            let reused = TestMask(width: 40, height: 32), fresh = TestMask(width: 40, height: 32)
            _ = shared.maskSegment(s, into: reused.plane)
            _ = Rasterizer().maskSegment(s, into: fresh.plane)
            #expect(differences(reused.snapshot(), fresh.snapshot()) == 0, "segment \(k)")
            partial = partial || fresh.snapshot().contains { $0 > 0 && $0 < 255 }
        }
        #expect(partial, "needs partial pixels to be meaningful")
    }

    @Test("maskSegment max-combines instead of accumulating")
    func maskMaxCombine() {
        let r = Rasterizer()
        let a = TaperedSegment(x0: 4.3, y0: 9.1, x1: 20.2, y1: 14.6, width0: 5, width1: 3.5)
        let b = TaperedSegment(x0: 12.7, y0: 3.4, x1: 14.1, y1: 22.9, width0: 2.5, width1: 6)
        let once = TestMask(width: 28, height: 28)
        _ = r.maskSegment(a, into: once.plane)
        let twice = TestMask(width: 28, height: 28)
        _ = r.maskSegment(a, into: twice.plane)
        _ = r.maskSegment(a, into: twice.plane)
        #expect(differences(once.snapshot(), twice.snapshot()) == 0)
        #expect(once.snapshot().contains { $0 > 0 && $0 < 255 }, "needs partial pixels to be meaningful")

        let onlyB = TestMask(width: 28, height: 28)
        _ = r.maskSegment(b, into: onlyB.plane)
        let both = TestMask(width: 28, height: 28)
        _ = r.maskSegment(a, into: both.plane)
        _ = r.maskSegment(b, into: both.plane)
        #expect(differences(both.snapshot(), zip(once.snapshot(), onlyB.snapshot()).map { max($0, $1) }) == 0)

        // Discs too.
        let d1 = TestMask(width: 28, height: 28)
        _ = r.maskDisc(centerX: 14.2, centerY: 13.7, radius: 4.4, into: d1.plane)
        let first = d1.snapshot()
        _ = r.maskDisc(centerX: 14.2, centerY: 13.7, radius: 4.4, into: d1.plane)
        #expect(differences(first, d1.snapshot()) == 0)
        #expect(first.contains(255))
    }

    @Test("compositeMask equals direct fill, and with a base reproduces base where the mask is 0")
    func compositeMaskWithBase() {
        let r = Rasterizer()
        let paint = Paint(color: RGBAColor(red: 0.9, green: 0.1, blue: 0.4, alpha: 0.8), opacity: 0.65, blend: .sourceOver)
        let seg = TaperedSegment(x0: 6.2, y0: 7.7, x1: 22.5, y1: 19.3, width0: 7, width1: 4)

        let base = TestCanvas(width: 30, height: 30)
        for y in 0..<30 { for x in 0..<30 { let a = UInt8(100 + (x * 5 + y * 3) % 150); base.setPixel(x, y, [a / 2, a / 3, a, a]) } }
        let mask = TestMask(width: 30, height: 30)
        let maskRect = r.maskSegment(seg, into: mask.plane)
        #expect(!maskRect.isEmpty)

        // Direct fill onto a copy of base.
        let direct = TestCanvas(width: 30, height: 30)
        for y in 0..<30 { for x in 0..<30 { direct.setPixel(x, y, base.pixel(x, y)) } }
        _ = r.fillSegment(seg, paint: paint, into: direct.plane)

        // Target holds garbage (as if a previous partial stroke was drawn); base is pristine.
        let target = TestCanvas(width: 30, height: 30, padding: 8, fill: (7, 7, 7, 9))
        let full = PixelRect(x: -5, y: -5, width: 60, height: 60)
        let written = r.compositeMask(mask.plane, rect: full, paint: paint, onto: target.plane, base: base.plane)
        #expect(written == PixelRect(x: 0, y: 0, width: 30, height: 30))
        for y in 0..<30 {
            for x in 0..<30 {
                #expect(target.pixel(x, y) == direct.pixel(x, y), "pixel \(x),\(y)")
                if mask.value(x, y) == 0 { #expect(target.pixel(x, y) == base.pixel(x, y)) }
            }
        }
        #expect(target.paddingIntact)

        // Without a base it composites in place, touching only masked pixels.
        let inPlace = TestCanvas(width: 30, height: 30)
        for y in 0..<30 { for x in 0..<30 { inPlace.setPixel(x, y, base.pixel(x, y)) } }
        let dirty = r.compositeMask(mask.plane, rect: maskRect, paint: paint, onto: inPlace.plane, base: nil)
        #expect(maskRect.contains(dirty) && !dirty.isEmpty)
        for y in 0..<30 { for x in 0..<30 { #expect(inPlace.pixel(x, y) == direct.pixel(x, y)) } }

        // A sub-rect only writes inside it.
        let sub = TestCanvas(width: 30, height: 30, fill: (1, 2, 3, 4))
        let subRect = PixelRect(x: 10, y: 10, width: 5, height: 4)
        #expect(r.compositeMask(mask.plane, rect: subRect, paint: paint, onto: sub.plane, base: base.plane) == subRect)
        for y in 0..<30 {
            for x in 0..<30 where !subRect.contains(PixelRect(x: Int32(x), y: Int32(y), width: 1, height: 1)) {
                #expect(sub.pixel(x, y) == [1, 2, 3, 4])
            }
        }
    }

    // MARK: - Robustness

    @Test("Non-finite, absurd and negative input draws nothing")
    func invalidInput() {
        let r = Rasterizer()
        let canvas = TestCanvas(width: 16, height: 16, padding: 4)
        let mask = TestMask(width: 16, height: 16)
        let before = canvas.snapshot()
        let bad: [TaperedSegment] = [
            .init(x0: .nan, y0: 1, x1: 5, y1: 5, width0: 3, width1: 3),
            .init(x0: 1, y0: 1, x1: .infinity, y1: 5, width0: 3, width1: 3),
            .init(x0: 1, y0: 1, x1: 5, y1: 5, width0: .nan, width1: 3),
            .init(x0: 1, y0: 1, x1: 5, y1: 5, width0: 3, width1: -.infinity),
            .init(x0: 1, y0: 1, x1: 5, y1: 5, width0: -2, width1: 3),
            .init(x0: 1, y0: 1, x1: 5, y1: 5, width0: 0, width1: 0),
            .init(x0: 1e30, y0: 1, x1: 5, y1: 5, width0: 3, width1: 3),
            .init(x0: 1, y0: 1, x1: 5, y1: 5, width0: 1e30, width1: 3),
            .init(x0: -1e300, y0: -1e300, x1: 1e300, y1: 1e300, width0: 1e300, width1: 1e300),
        ]
        for s in bad {
            #expect(r.fillSegment(s, paint: white, into: canvas.plane).isEmpty, "\(s)")
            #expect(r.maskSegment(s, into: mask.plane).isEmpty, "\(s)")
        }
        for (x, y, rad) in [(Double.nan, 4.0, 2.0), (4, .infinity, 2), (4, 4, -1), (4, 4, 0), (4, 4, .nan), (1e30, 4, 2), (4, 4, 1e30)] {
            #expect(r.fillDisc(centerX: x, centerY: y, radius: rad, paint: white, into: canvas.plane).isEmpty)
            #expect(r.maskDisc(centerX: x, centerY: y, radius: rad, into: mask.plane).isEmpty)
        }
        #expect(r.fillPolygon([(1, 1), (10, .nan), (3, 9)], paint: white, into: canvas.plane).isEmpty)
        #expect(r.fillPolygon([(1, 1), (1e30, 2), (3, 9)], paint: white, into: canvas.plane).isEmpty)
        #expect(r.fillPolygon([(1, 1), (10, 2)], paint: white, into: canvas.plane).isEmpty)
        // Shapes entirely outside, zero opacity, NaN opacity, transparent colour.
        let ok = TaperedSegment(x0: 3, y0: 3, x1: 12, y1: 10, width0: 4, width1: 4)
        #expect(r.fillSegment(.init(x0: -30, y0: 3, x1: -10, y1: 9, width0: 4, width1: 4), paint: white, into: canvas.plane).isEmpty)
        #expect(r.fillSegment(ok, paint: Paint(color: .white, opacity: 0, blend: .sourceOver), into: canvas.plane).isEmpty)
        #expect(r.fillSegment(ok, paint: Paint(color: .white, opacity: .nan, blend: .sourceOver), into: canvas.plane).isEmpty)
        #expect(r.fillSegment(ok, paint: Paint(color: .transparent, opacity: 1, blend: .erase), into: canvas.plane).isEmpty)
        // Invalid planes.
        let badPlane = RGBAPlane(base: canvas.bytes, width: 16, height: 16, strideBytes: 10)
        #expect(r.fillSegment(ok, paint: white, into: badPlane).isEmpty)
        let negPlane = RGBAPlane(base: canvas.bytes, width: -4, height: 16, strideBytes: 64)
        #expect(r.fillSegment(ok, paint: white, into: negPlane).isEmpty)
        #expect(differences(canvas.snapshot(), before) == 0)
        #expect(mask.snapshot().allSatisfy { $0 == 0 })
        // The rasteriser still works afterwards.
        #expect(!r.fillSegment(ok, paint: white, into: canvas.plane).isEmpty)
        #expect(differences(canvas.snapshot(), before) > 0)
    }

    @Test("A huge capsule on a small plane is fast and fills it exactly")
    func hugeCapsule() {
        let r = Rasterizer()
        let canvas = TestCanvas(width: 64, height: 64, padding: 4)
        let color = RGBAColor(red: 0.1, green: 0.7, blue: 0.3, alpha: 1)
        let clock = ContinuousClock()
        let start = clock.now
        let rect = r.fillSegment(TaperedSegment(x0: -3e5, y0: 20, x1: 4e5, y1: 50, width0: 1e6, width1: 1e6),
                                 paint: Paint(color: color, opacity: 1, blend: .sourceOver), into: canvas.plane)
        let rect2 = r.fillDisc(centerX: 32, centerY: -4.9e7, radius: 9.9e7, paint: Paint(color: color, opacity: 1, blend: .sourceOver),
                               into: canvas.plane)
        let mask = TestMask(width: 64, height: 64)
        let rect3 = r.maskSegment(TaperedSegment(x0: 1e7, y0: -1e7, x1: -1e7, y1: 1e7, width0: 2e6, width1: 3e6), into: mask.plane)
        let elapsed = clock.now - start
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
        #expect(rect == canvas.plane.bounds)
        #expect(rect2 == canvas.plane.bounds)
        #expect(rect3 == mask.plane.bounds)
        let p = color.premultiplied8
        for y in 0..<64 { for x in 0..<64 { #expect(canvas.pixel(x, y) == [p.r, p.g, p.b, p.a]) } }
        #expect(mask.snapshot().allSatisfy { $0 == 255 })
        #expect(canvas.paddingIntact)
    }

    @Test("Self-overlapping polygon uses nonzero winding")
    func nonZeroWinding() {
        let r = Rasterizer()
        // Two overlapping squares traced in the same direction as one path: overlap stays 255.
        let same: [(x: Double, y: Double)] = [(2, 2), (14, 2), (14, 14), (2, 14), (2, 2), (8, 8), (20, 8), (20, 20), (8, 20), (8, 8)]
        let c1 = TestCanvas(width: 24, height: 24)
        _ = r.fillPolygon(same, paint: white, into: c1.plane)
        #expect(c1.alpha(10, 10) == 255 && c1.alpha(3, 3) == 255 && c1.alpha(19, 19) == 255 && c1.alpha(18, 3) == 0)
        // Outer square with an inner square traced the other way: a hole (winding 0).
        let hole: [(x: Double, y: Double)] = [(2, 2), (22, 2), (22, 22), (2, 22), (2, 2), (8, 8), (8, 16), (16, 16), (16, 8), (8, 8)]
        let c2 = TestCanvas(width: 24, height: 24)
        _ = r.fillPolygon(hole, paint: white, into: c2.plane)
        #expect(c2.alpha(12, 12) == 0 && c2.alpha(4, 12) == 255 && c2.alpha(20, 20) == 255)
        // Fractional edge: half-covered column.
        let half: [(x: Double, y: Double)] = [(2.5, 2), (6, 2), (6, 6), (2.5, 6)]
        let c3 = TestCanvas(width: 8, height: 8)
        _ = r.fillPolygon(half, paint: white, into: c3.plane)
        #expect(c3.alpha(2, 3) == 128 && c3.alpha(3, 3) == 255 && c3.alpha(1, 3) == 0)
    }
}
