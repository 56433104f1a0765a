/// The shape services' own pipeline state, owned by one ``Rasterizer`` (not thread-safe):
/// an accumulator and span resolver (stages 3 and 4), the contour path being built, a
/// coverage mask for strokes, and row buffers. Everything grows on demand and is reused, so
/// drawing allocates nothing once the buffers have reached the largest shape drawn.
final class ShapeScratch {
    let accumulator = CoverageAccumulator()
    let spans = CoverageSpans()
    var path = ContourPath()
    var ellipse = EllipseFlattener()
    /// Sum of the bytes read ahead by ``CoverageSink/touch(_:_:)`` (kept only so the reads
    /// happen; never used).
    var touched: UInt8 = 0
    /// Points of the polyline or dash being stroked.
    var px: [Double] = []
    var py: [Double] = []
    /// Points of a flattened ellipse being stroked.
    var ex: [Double] = []
    var ey: [Double] = []
    /// Points of the dash being built.
    var dx: [Double] = []
    var dy: [Double] = []
    private(set) var line: UnsafeMutablePointer<UInt8>
    private var lineCapacity = 256
    private var doubles: UnsafeMutablePointer<Double>
    private var doublesCapacity = 1024
    private(set) var strokeMask: UnsafeMutablePointer<UInt8>
    private var strokeMaskCapacity = 4096

    init() {
        line = .allocate(capacity: lineCapacity)
        line.initialize(repeating: 0, count: lineCapacity)
        doubles = .allocate(capacity: doublesCapacity)
        doubles.initialize(repeating: 0, count: doublesCapacity)
        strokeMask = .allocate(capacity: strokeMaskCapacity)
        strokeMask.initialize(repeating: 0, count: strokeMaskCapacity)
        px.reserveCapacity(256)
        py.reserveCapacity(256)
    }

    deinit {
        line.deallocate()
        doubles.deallocate()
        strokeMask.deallocate()
    }

    /// A row buffer of at least `count` bytes (contents unspecified).
    func lineBuffer(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > lineCapacity {
            line.deallocate()
            lineCapacity = Swift.max(count, 2 * lineCapacity)
            line = .allocate(capacity: lineCapacity)
            line.initialize(repeating: 0, count: lineCapacity)
        }
        return line
    }

    /// A buffer of at least `count` doubles (contents unspecified).
    func doubleBuffer(_ count: Int) -> UnsafeMutablePointer<Double> {
        if count > doublesCapacity {
            doubles.deallocate()
            doublesCapacity = Swift.max(count, 2 * doublesCapacity)
            doubles = .allocate(capacity: doublesCapacity)
            doubles.initialize(repeating: 0, count: doublesCapacity)
        }
        return doubles
    }

    /// A zeroed `width x height` mask. Callers zero what they raised before the next use.
    func zeroedStrokeMask(width: Int, height: Int) -> MaskPlane {
        let n = width * height
        if n > strokeMaskCapacity {
            strokeMask.deallocate()
            strokeMaskCapacity = Swift.max(n, 2 * strokeMaskCapacity)
            strokeMask = .allocate(capacity: strokeMaskCapacity)
            strokeMask.initialize(repeating: 0, count: strokeMaskCapacity)
        }
        return MaskPlane(base: strokeMask, width: width, height: height, strideBytes: width)
    }

    /// Fills ``path`` (nonzero) inside `clip` into `sink`: exact-area coverage, banded like
    /// the rasteriser's own driver. Returns the rectangle of pixels given non-zero coverage.
    /// Into a mask that records raised cells, rows are resolved and max-combined in one pass
    /// (``RaisedCells/resolveMax(row:of:into:y:x0:)``).
    func fill(clip: PixelRect, sink: CoverageSink) -> PixelRect {
        guard path.count >= 3 else { return .empty }
        let box = PixelRect.covering(minX: path.minX, minY: path.minY, maxX: path.maxX,
                                     maxY: path.maxY, clip: clip)
        guard !box.isEmpty else { return .empty }
        let x0 = Int(box.x), w = Int(box.width)
        let bandRows = Swift.max(1, CoverageAccumulator.maxCells / (w + 2))
        var dirty = DirtyBox()
        var top = Int(box.y)
        let bottom = Int(box.maxY)
        while top < bottom {
            let h = Swift.min(bandRows, bottom - top)
            accumulator.begin(originX: x0, originY: top, width: w, height: h)
            path.addEdges(to: accumulator)
            for r in 0..<h {
                if case .mask(let mask, let raised?) = sink {
                    let span = raised.resolveMax(row: r, of: accumulator, into: mask.row(top + r) + x0,
                                                 y: top + r, x0: x0)
                    dirty.add(row: top + r, lo: x0 + span.lo, hi: x0 + span.hi)
                    continue
                }
                let span = spans.resolve(row: r, of: accumulator, rule: .nonZero)
                guard span.lo < span.hi else { continue }
                sink.row(top + r, x0 + span.lo, UnsafePointer(spans.coverage + span.lo), span.hi - span.lo)
                dirty.add(row: top + r, lo: x0 + span.lo, hi: x0 + span.hi)
            }
            top += h
        }
        return dirty.rect
    }
}
