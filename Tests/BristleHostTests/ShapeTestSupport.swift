import BristleHost

/// A transparent RGBA8 canvas (with optional row padding holding a sentinel) for the shape
/// tests; memory owned by the object.
final class ShapeCanvas {
    let width: Int, height: Int, stride: Int
    let bytes: UnsafeMutablePointer<UInt8>
    static let sentinel: UInt8 = 0x5A

    init(_ width: Int, _ height: Int, padding: Int = 0, fill: [UInt8] = [0, 0, 0, 0]) {
        self.width = width
        self.height = height
        stride = width * 4 + padding
        bytes = .allocate(capacity: stride * height)
        bytes.initialize(repeating: Self.sentinel, count: stride * height)
        for y in 0..<height { for x in 0..<width { for c in 0..<4 { bytes[y * stride + 4 * x + c] = fill[c] } } }
    }

    deinit { bytes.deallocate() }

    var plane: RGBAPlane { RGBAPlane(base: bytes, width: width, height: height, strideBytes: stride) }
    func alpha(_ x: Int, _ y: Int) -> UInt8 { bytes[y * stride + 4 * x + 3] }
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { (0..<4).map { bytes[y * stride + 4 * x + $0] } }
    func snapshot() -> [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: stride * height)) }

    /// True when no padding byte changed.
    var paddingIntact: Bool {
        for y in 0..<height { for i in (width * 4)..<stride where bytes[y * stride + i] != Self.sentinel { return false } }
        return true
    }

    /// The alpha plane, row-major.
    var alphas: [UInt8] { (0..<height).flatMap { y in (0..<width).map { alpha($0, y) } } }
}

/// An A8 mask owned by the object.
final class ShapeMask {
    let width: Int, height: Int
    let bytes: UnsafeMutablePointer<UInt8>

    init(_ width: Int, _ height: Int) {
        self.width = width
        self.height = height
        bytes = .allocate(capacity: width * height)
        bytes.initialize(repeating: 0, count: width * height)
    }

    deinit { bytes.deallocate() }

    var plane: MaskPlane { MaskPlane(base: bytes, width: width, height: height, strideBytes: width) }
    var values: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: width * height)) }
}

/// Reference coverage, independent of the rasteriser: the shape is given by its exact vertical
/// cross-section at each x (one interval for a convex shape, two for a ring); a pixel's
/// coverage is the integral over its width of that cross-section clipped to the pixel's row,
/// taken with `samples` midpoint sub-columns (error far below 1/255 for these shapes).
struct CrossSectionTruth {
    var intervals: (Double) -> [(Double, Double)]

    /// Coverage in [0, 1] of every pixel, row-major.
    func coverage(width: Int, height: Int, samples: Int = 1024) -> [Double] {
        var cov = [Double](repeating: 0, count: width * height)
        let wgt = 1 / Double(samples)
        for px in 0..<width {
            for s in 0..<samples {
                let x = Double(px) + (Double(s) + 0.5) * wgt
                for (lo0, hi0) in intervals(x) {
                    let lo = max(lo0, 0), hi = min(hi0, Double(height))
                    guard lo < hi else { continue }
                    var py = Int(lo.rounded(.down))
                    while Double(py) < hi {
                        cov[py * width + px] += (min(hi, Double(py + 1)) - max(lo, Double(py))) * wgt
                        py += 1
                    }
                }
            }
        }
        return cov
    }

    /// An axis-aligned ellipse.
    static func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> CrossSectionTruth {
        CrossSectionTruth { x in
            let u = (x - cx) / rx
            guard u * u < 1 else { return [] }
            let h = ry * (1 - u * u).squareRoot()
            return [(cy - h, cy + h)]
        }
    }

    /// A convex polygon (either orientation).
    static func convex(_ pts: [(Double, Double)]) -> CrossSectionTruth {
        CrossSectionTruth { x in
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                guard a.0 != b.0, x >= min(a.0, b.0), x <= max(a.0, b.0) else { continue }
                let y = a.1 + (x - a.0) * (b.1 - a.1) / (b.0 - a.0)
                lo = min(lo, y); hi = max(hi, y)
            }
            return lo < hi ? [(lo, hi)] : []
        }
    }

    /// The union of overlapping shapes: at each x, the merged union of their intervals.
    static func union(_ parts: [CrossSectionTruth]) -> CrossSectionTruth {
        CrossSectionTruth { x in
            let all = parts.flatMap { $0.intervals(x) }.sorted { $0.0 < $1.0 }
            var merged: [(Double, Double)] = []
            for (lo, hi) in all {
                if let last = merged.last, lo <= last.1 {
                    merged[merged.count - 1].1 = max(last.1, hi)
                } else {
                    merged.append((lo, hi))
                }
            }
            return merged
        }
    }

    /// Every point within `w / 2` of the polyline (round joins and round caps): the union of
    /// each segment's rectangle and a disc at every point.
    static func roundStroke(_ pts: [(Double, Double)], width w: Double, closed: Bool = false) -> CrossSectionTruth {
        let h = w / 2
        var parts = pts.map { ellipse($0.0, $0.1, h, h) }
        let segments = closed ? pts.count : pts.count - 1
        for i in 0..<segments {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            let dx = b.0 - a.0, dy = b.1 - a.1, l = (dx * dx + dy * dy).squareRoot()
            guard l > 0 else { continue }
            let nx = -dy / l * h, ny = dx / l * h
            parts.append(convex([(a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny), (b.0 - nx, b.1 - ny), (a.0 - nx, a.1 - ny)]))
        }
        return union(parts)
    }

    /// A circle's outline stroked `halfWidth` to each side: the disc of radius `r + halfWidth`
    /// minus the one of radius `r - halfWidth` (the parallel curves of a circle are circles).
    static func circleRing(_ cx: Double, _ cy: Double, _ r: Double, halfWidth h: Double) -> CrossSectionTruth {
        func half(_ x: Double, _ radius: Double) -> Double? {
            let u = (x - cx) / radius
            guard u * u < 1 else { return nil }
            return radius * ((1 - u) * (1 + u)).squareRoot()  // no cancellation near u = +-1
        }
        return CrossSectionTruth { x in
            guard let o = half(x, r + h) else { return [] }
            guard let i = half(x, r - h) else { return [(cy - o, cy + o)] }
            return [(cy - o, cy - i), (cy + i, cy + o)]
        }
    }

    /// Every point within `h` of the curve of an axis-aligned ellipse (its solid stroke of
    /// width `2h`), from the distance alone (``EllipseDistance``): the signed distance to a
    /// convex curve is a convex function, along a column smallest on the centre's row
    /// (symmetry), so the column's points within `h` are the interval where it is `<= h`
    /// minus the one where it is `< -h`, both centred on that row, their ends found by
    /// bisection. Knows nothing of parallel curves, cusps or trimming.
    static func strokedEllipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double,
                               halfWidth h: Double) -> CrossSectionTruth {
        CrossSectionTruth { x in
            let u = x - cx
            let mid = EllipseDistance.signed(u, 0, rx, ry)
            guard mid < h else { return [] }
            // The v in [lo, hi] where the distance crosses `level` (below it at lo).
            func end(_ level: Double, _ lo0: Double, _ hi0: Double) -> Double {
                var lo = lo0, hi = hi0
                while hi - lo > 1e-12 {
                    let m = 0.5 * (lo + hi)
                    if EllipseDistance.signed(u, m, rx, ry) < level { lo = m } else { hi = m }
                }
                return 0.5 * (lo + hi)
            }
            let o = end(h, 0, ry + h + 1)
            guard mid < -h else { return [(cy - o, cy + o)] }
            let i = end(-h, 0, o)
            return [(cy - o, cy - i), (cy + i, cy + o)]
        }
    }

    /// An axis-aligned rectangle minus an inner one (a mitered rectangle stroke).
    static func ring(outer o: (Double, Double, Double, Double), hole h: (Double, Double, Double, Double)) -> CrossSectionTruth {
        CrossSectionTruth { x in
            guard x > o.0, x < o.2 else { return [] }
            guard x > h.0, x < h.2 else { return [(o.1, o.3)] }
            return [(o.1, h.1), (h.3, o.3)]
        }
    }
}

/// Per-pixel error statistics against a truth, in units of 1/255.
struct CoverageError: CustomStringConvertible {
    var maxError = 0.0, sum = 0.0, count = 0
    var mean: Double { count == 0 ? 0 : sum / Double(count) }

    /// Compares over pixels where either the truth or the measurement is non-zero.
    init(measured: [UInt8], truth: [Double]) {
        for (m, t) in zip(measured, truth) where m != 0 || t > 0 {
            let e = abs(Double(m) - t * 255)
            maxError = max(maxError, e)
            sum += e
            count += 1
        }
    }

    /// Adds another comparison's pixels.
    mutating func merge(_ other: CoverageError) {
        maxError = max(maxError, other.maxError)
        sum += other.sum
        count += other.count
    }

    var description: String { "max \(maxError)/255, mean \(mean)/255 over \(count) px" }

    /// The gate of issue #3: max <= 2/255, mean <= 0.5/255, something measured.
    var withinGates: Bool { count > 0 && maxError <= 2 && mean <= 0.5 }
}

/// Opaque white source-over: alpha equals coverage.
let shapeWhite = Paint(color: .white)
