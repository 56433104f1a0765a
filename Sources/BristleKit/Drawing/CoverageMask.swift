import CBristle
import Glibc

/// An 8-bit coverage plane owned by a brush (`bristle_mask_t`): 0 uncovered, 255 covered.
/// Accumulate a stroke's coverage with max, then composite it once with
/// ``Canvas/composite(_:in:paint:overBase:)`` so a translucent stroke has one opacity.
/// The mask remembers the rectangle it has raised since the last ``clear()``.
public final class CoverageMask {
    public let width: Int
    public let height: Int
    private let cells: UnsafeMutablePointer<UInt8>
    /// Every cell raised since the last clear lies inside it.
    public private(set) var touched: Rect = .empty

    /// A zeroed mask; sizes below 1 are raised to 1. The cells come from `calloc`, so pages
    /// the brush never raises cost no memory. Traps when memory is short (the host checks that
    /// a canvas's masks fit before it starts a render).
    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        guard let memory = calloc(self.width * self.height, 1) else {
            fatalError("CoverageMask: no memory for \(self.width)x\(self.height) cells")
        }
        cells = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(cells) }

    /// The coverage at (x, y); 0 outside the mask.
    public subscript(x: Int, y: Int) -> UInt8 {
        guard x >= 0, x < width, y >= 0, y < height else { return 0 }
        return cells[y * width + x]
    }

    /// Raises the cell at (x, y) to `coverage` if it is lower; ignored outside the mask.
    public func raise(x: Int, y: Int, to coverage: UInt8) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        if cells[y * width + x] < coverage {
            cells[y * width + x] = coverage
            touched = touched.union(Rect(x: x, y: y, width: 1, height: 1))
        }
    }

    /// Raises the cells of row `y` in `columns` (clipped to the mask) to `coverage` where
    /// they are lower: a run, in one call.
    public func raise(y: Int, columns: Range<Int>, to coverage: UInt8) {
        guard y >= 0, y < height else { return }
        let lo = max(columns.lowerBound, 0), hi = min(columns.upperBound, width)
        guard lo < hi else { return }
        let row = cells + y * width
        if coverage == 255 {
            (row + lo).update(repeating: 255, count: hi - lo)  // nothing is higher
        } else {
            for x in lo..<hi where row[x] < coverage { row[x] = coverage }
        }
        touched = touched.union(Rect(x: lo, y: y, width: hi - lo, height: 1))
    }

    /// Raises the mask to a segment's coverage through the host's services
    /// (``Services/addSegment(to:from:to:startWidth:endWidth:cap:)``).
    @discardableResult
    public func addSegment(from start: (x: Double, y: Double), to end: (x: Double, y: Double),
                           startWidth: Double, endWidth: Double, cap: StrokeStyle.Cap = .round,
                           using services: Services) -> Rect {
        services.addSegment(to: self, from: start, to: end, startWidth: startWidth, endWidth: endWidth, cap: cap)
    }

    /// Raises the mask to a disc's coverage through the host's services.
    @discardableResult
    public func addDisc(x: Double, y: Double, radius: Double, using services: Services) -> Rect {
        services.addDisc(to: self, x: x, y: y, radius: radius)
    }

    /// Raises the mask to a rectangle's coverage through the host's services
    /// (``Services/addRect(to:x:y:width:height:style:)``).
    @discardableResult
    public func addRect(x: Double, y: Double, width: Double, height: Double, style: StrokeStyle? = nil,
                        using services: Services) -> Rect {
        services.addRect(to: self, x: x, y: y, width: width, height: height, style: style)
    }

    /// Raises the mask to an ellipse's coverage through the host's services.
    @discardableResult
    public func addEllipse(x: Double, y: Double, radiusX: Double, radiusY: Double, style: StrokeStyle? = nil,
                           using services: Services) -> Rect {
        services.addEllipse(to: self, x: x, y: y, radiusX: radiusX, radiusY: radiusY, style: style)
    }

    /// Raises the mask to a polyline's (or, with no style, a polygon's) coverage through the
    /// host's services.
    @discardableResult
    public func addPolyline(_ points: [(x: Double, y: Double)], style: StrokeStyle? = nil,
                            using services: Services) -> Rect {
        services.addPolyline(to: self, points, style: style)
    }

    /// Raises the mask to a soft dab's coverage through the host's services.
    @discardableResult
    public func addDab(x: Double, y: Double, radius: Double, hardness: Double, using services: Services) -> Rect {
        services.addDab(to: self, x: x, y: y, radius: radius, hardness: hardness)
    }

    /// Calls a host mask service with the C view of the cells, and records the rectangle it
    /// returns (clipped to the mask) as raised.
    func accumulate(_ body: (UnsafePointer<bristle_mask_t>) -> Rect) -> Rect {
        let r = withUnsafePointer(to: c) { body($0) }.clipped(width: width, height: height)
        touched = touched.union(r)
        return r
    }

    /// Zeroes every raised cell. Rows of the touched rectangle are written only from their
    /// first non-zero cell on, so untouched pages stay unallocated.
    public func clear() {
        let r = touched.clipped(width: width, height: height)
        for y in r.y..<(r.y + r.height) {
            let row = UnsafeMutableBufferPointer(start: cells + y * width + r.x, count: r.width)
            if let first = row.firstIndex(where: { $0 != 0 }) {
                UnsafeMutableBufferPointer(rebasing: row[first...]).update(repeating: 0)
            }
        }
        touched = .empty
    }

    /// The C view of the cells (valid while the mask lives).
    var c: bristle_mask_t {
        bristle_mask_t(data: cells, width: Int32(clamping: width), height: Int32(clamping: height),
                       stride_bytes: Int32(clamping: width))
    }
}
