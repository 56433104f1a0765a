/// The host's anti-aliased exact-area rasteriser.
///
/// Pipeline (one stage per file): geometry (``CapsuleHull``) -> flatten
/// (``PolygonFlattener``) -> accumulate (``CoverageAccumulator``) -> spans
/// (``CoverageSpans``) -> composite (``SpanCompositor``).
///
/// **Coverage** is exact-area: each pixel's coverage is the fraction of its unit square inside
/// the shape (a box filter), quantised to 8 bits rounding to nearest. Round shapes are
/// flattened to polygons within ``PolygonFlattener/maxDeviation`` (0.0075 px) of the true
/// boundary with no area bias (0.001 px where culling applies), so coverage is within 2/255 of
/// exact in the worst pixel and about 0.1/255 on average (half a level is the 8-bit rounding).
///
/// **Coordinates**: pixel `(i, j)` is the square `[i, i+1) x [j, j+1)`; pixel centres are at
/// half-integers. Everything is clipped to the target's `[0, width) x [0, height)`; nothing
/// outside it (nor the padding after each row) is ever written. The work done is proportional
/// to the clipped area (plus the visible boundary length), never to the unclipped size.
///
/// **Invalid input** (NaN, infinities, negative widths or radii, any magnitude above
/// ``coordinateLimit``, fewer than 3 polygon points, an invalid plane) draws nothing and
/// returns ``PixelRect/empty``. A paint whose opacity or alpha is 0 also draws nothing.
///
/// **Returned rects** are clipped to the plane and contain every pixel the call changed (they
/// may contain some it did not, e.g. where blending rounds back to the same value).
///
/// **Threading**: not thread-safe. It owns reusable scratch buffers (grown on demand, never
/// shrunk, at most about 2 MiB of accumulator, and 32 bytes per row of the tallest band for
/// the resolve's windows, at most 5.3 MiB, for a band one pixel wide); use one rasteriser per
/// thread. Drawing allocates nothing once the buffers have grown to the largest shape drawn.
/// A draw into a ``MaskPlane`` (max of coverage through `CBristleResolveMax_rows`, with the room
/// up to the row's width) may read and store back, with their own values, bytes of its band's
/// rows outside the returned rect: from the band's left edge (the shape's bounds clipped to the
/// plane, which may be wider than the rect) up to 15 bytes right of the band's right edge (a
/// `CBristleComposite_maxRun` of 16 bytes; the dense steps reach 7 past it), never past the
/// row's `width`: threads must not draw into the same rows of one mask at once, even where
/// their rects do not overlap.
public final class Rasterizer {
    /// Largest accepted magnitude for any coordinate, width or radius (pixels). Larger values
    /// are treated as absurd input and draw nothing.
    public static let coordinateLimit: Double = 1e8

    private let accumulator = CoverageAccumulator()
    private let spans = CoverageSpans()
    private let flattener = PolygonFlattener()
    private let maskTables = MaskTable()
    /// The shape services' pipeline state (Shapes/Rasterizer+Shapes.swift).
    let shapeScratch = ShapeScratch()

    /// The last paint converted to a compositor source, and the source: a brush paints many
    /// calls with one paint. Equal paints convert to equal sources.
    @exclusivity(unchecked) private var lastSource: (paint: Paint, source: SpanCompositor.Source)?

    public init() {}

    /// `SpanCompositor.Source(paint)`, converted once while the paint stays the same.
    @inline(__always)
    func source(_ paint: Paint) -> SpanCompositor.Source {
        if let last = lastSource, last.paint == paint { return last.source }
        let s = SpanCompositor.Source(paint)
        lastSource = (paint, s)
        return s
    }

    // MARK: - Public drawing API

    /// Fills a tapered capsule with round caps (convex hull of the disc of diameter `width0` at
    /// (x0,y0) and the disc of diameter `width1` at (x1,y1)); a zero-length segment is a disc.
    /// Composites `paint` (see ``BlendMode``) with exact-area coverage.
    /// Returns the dirty rect (pixels actually changed may be fewer; the rect covers all changed
    /// pixels and is clipped to the plane); ``PixelRect/empty`` for invalid input.
    public func fillSegment(_ s: TaperedSegment, paint: Paint, into plane: RGBAPlane) -> PixelRect {
        let source = source(paint)
        guard !source.isNoOp, let hull = CapsuleHull(s) else { return .empty }
        return draw(hull, target: .pixels(plane, source), clip: plane.bounds)
    }

    /// Fills the disc of `radius` (pixels) centred at (centerX, centerY); otherwise as
    /// ``fillSegment(_:paint:into:)``. A radius `<= 0` draws nothing.
    public func fillDisc(centerX: Double, centerY: Double, radius: Double, paint: Paint,
                         into plane: RGBAPlane) -> PixelRect {
        let source = source(paint)
        guard !source.isNoOp,
              let hull = CapsuleHull(discX: centerX, y: centerY, radius: radius) else { return .empty }
        return draw(hull, target: .pixels(plane, source), clip: plane.bounds)
    }

    /// Accumulates the capsule's 8-bit coverage into the mask with max
    /// (`mask = max(mask, coverage)`), so overlapping segments of one stroke do not double up.
    /// Returns the rect of pixels with non-zero coverage (clipped), or empty.
    public func maskSegment(_ s: TaperedSegment, into mask: MaskPlane) -> PixelRect {
        guard let hull = CapsuleHull(s) else { return .empty }
        return draw(hull, target: .mask(mask), clip: mask.bounds)
    }

    /// Max-accumulates a disc's coverage into the mask; see ``maskSegment(_:into:)``.
    public func maskDisc(centerX: Double, centerY: Double, radius: Double,
                         into mask: MaskPlane) -> PixelRect {
        guard let hull = CapsuleHull(discX: centerX, y: centerY, radius: radius) else { return .empty }
        return draw(hull, target: .mask(mask), clip: mask.bounds)
    }

    /// Composites `paint` through `mask` (same coordinate space as `target`) inside `rect`
    /// (clipped to both planes, and to `base` when given): for each pixel
    /// `dst = B(src, cov)` with `cov = mask * opacity` and `B` the paint's blend mode.
    ///
    /// When `base` is non-nil the destination value used as input is base's pixel instead of
    /// target's (the result is still written to target), and *every* pixel of the clipped rect
    /// is written (a copy of base where `cov` is 0): a brush can recomposite "pre-stroke pixels
    /// + this stroke's mask" so per-stroke opacity is exact. `base` may be the same memory as
    /// `target`. Without a base, zero-coverage pixels are left untouched.
    /// Returns the rect written (with a base: the whole clipped rect; without: the bounding
    /// rect of pixels with non-zero effective coverage).
    public func compositeMask(_ mask: MaskPlane, rect: PixelRect, paint: Paint,
                              onto target: RGBAPlane, base: RGBAPlane?) -> PixelRect {
        var r = rect.intersection(target.bounds).intersection(mask.bounds)
        if let base { r = r.intersection(base.bounds) }
        guard !r.isEmpty else { return .empty }
        let source = source(paint)
        if base == nil && source.isNoOp { return .empty }
        let x0 = Int(r.x), w = Int(r.width)
        // Row pointers stepped by the strides (no multiplication or optional per row).
        let y0 = Int(r.y), y1 = Int(r.maxY)
        var t = target.row(y0) + 4 &* x0
        var m = UnsafePointer(mask.row(y0) + x0)
        if let base, source.blend == .sourceOver && source.opacity == 65536 {
            // Full-opacity source-over over a base (the pencil): every pixel of the rect written.
            var b = UnsafePointer(base.row(y0) + 4 &* x0)
            for _ in y0..<y1 {
                SpanCompositor.overMaskRow(t, from: b, mask: m, count: w, source: source)
                t += target.strideBytes
                m += mask.strideBytes
                b += base.strideBytes
            }
            return r
        }
        // Over a base, every other paint blends through a table of its per-mask-value constants.
        let maskTable = base != nil ? maskTables.prepare(source) : nil
        var dirty = DirtyBox()
        var b = base.map { UnsafePointer($0.row(y0) + 4 &* x0) }
        let bStride = base?.strideBytes ?? 0
        for y in y0..<y1 {
            let span = SpanCompositor.maskRow(t, base: b, mask: m, count: w, source: source, maskTable: maskTable)
            dirty.add(row: y, lo: x0 &+ span.lo, hi: x0 &+ span.hi)
            t += target.strideBytes
            m += mask.strideBytes
            b = b.map { $0 + bStride }
        }
        return dirty.rect
    }

    /// Exact-area coverage of a filled polygon (nonzero winding; the last point joins the
    /// first) painted onto the plane. Needs at least 3 points; otherwise as
    /// ``fillSegment(_:paint:into:)``. Where edges of opposite directions overlap inside one
    /// pixel the coverage is `min(1, |signed area|)`, the usual area-accumulation approximation
    /// of nonzero winding (exact for simple polygons).
    public func fillPolygon(_ points: [(x: Double, y: Double)], paint: Paint,
                            into plane: RGBAPlane) -> PixelRect {
        let source = source(paint)
        guard !source.isNoOp, points.count >= 3 else { return .empty }
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            guard CapsuleHull.isSane(p.x), CapsuleHull.isSane(p.y) else { return .empty }
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        let clip = PixelRect.covering(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                      clip: plane.bounds)
        guard !clip.isEmpty else { return .empty }
        flattener.reset(cull: clip)
        for p in points { flattener.append(x: p.x, y: p.y) }
        return render(clip, target: .pixels(plane, source))
    }

    // MARK: - Pipeline driver

    private enum Target {
        case pixels(RGBAPlane, SpanCompositor.Source)
        case mask(MaskPlane)
    }

    private func draw(_ hull: CapsuleHull, target: Target, clip: PixelRect) -> PixelRect {
        let box = PixelRect.covering(minX: hull.minX, minY: hull.minY, maxX: hull.maxX,
                                     maxY: hull.maxY, clip: clip)
        guard !box.isEmpty else { return .empty }
        flattener.reset(cull: box)
        flattener.append(hull)
        let interior = hull.minX >= Double(clip.x) && hull.minY >= Double(clip.y)
            && hull.maxX <= Double(clip.maxX) && hull.maxY <= Double(clip.maxY)
        return render(box, target: target, interior: interior)
    }

    /// Accumulates the flattened polygon over `box` (split into bands that fit the
    /// accumulator), resolves each row and composites it.
    /// `interior` says the polygon lies inside `box` up to its flattening error (nothing of it
    /// was clipped away), so the accumulator may skip clipping when `box` fits in one band.
    private func render(_ box: PixelRect, target: Target, interior: Bool = false) -> PixelRect {
        let x0 = Int(box.x), w = Int(box.width)
        let bandRows = Swift.max(1, CoverageAccumulator.maxCells / (w + 2))
        var dirty = DirtyBox()
        var bandTop = Int(box.y)
        let bottom = Int(box.maxY)
        let fused = Self.fuses(target)
        // The fused targets resolve each row through the windows its edges wrote (``RowWindows``),
        // but for a narrow band, resolved over its whole width.
        let windowed = fused && w > (Self.isPixels(target) ? Self.denseWidth : CoverageSpans.maskDenseWidth)
        while bandTop < bottom {
            let h = Swift.min(bandRows, bottom - bandTop)
            accumulator.begin(originX: x0, originY: bandTop, width: w, height: h)
            let windows = windowed ? accumulator.rowWindows() : nil
            if interior && h == Int(box.height) {
                if var o = windows {
                    accumulator.addInteriorPolygon(xs: flattener.xs, ys: flattener.ys, count: flattener.count,
                                                   observer: &o)
                } else {
                    accumulator.addInteriorPolygon(xs: flattener.xs, ys: flattener.ys, count: flattener.count)
                }
            } else {
                if var o = windows {
                    accumulator.addPolygon(xs: flattener.xs, ys: flattener.ys, count: flattener.count, observer: &o)
                } else {
                    accumulator.addPolygon(xs: flattener.xs, ys: flattener.ys, count: flattener.count)
                }
            }
            if fused {
                fusedRows(target, windows: windows, bandTop: bandTop, rows: h, x0: x0, dirty: &dirty)
                bandTop += h
                continue
            }
            for r in 0..<h {
                let span = spans.resolve(row: r, of: accumulator, rule: .nonZero)
                guard span.lo < span.hi else { continue }
                let y = bandTop + r
                let cov = UnsafePointer(spans.coverage + span.lo)
                let n = span.hi - span.lo
                switch target {
                case .pixels(let plane, let source):
                    SpanCompositor.blendRow(plane.row(y) + 4 * (x0 + span.lo), coverage: cov,
                                            count: n, source: source)
                case .mask(let mask):
                    SpanCompositor.maxRow(mask.row(y) + x0 + span.lo, coverage: cov, count: n)
                }
                dirty.add(row: y, lo: x0 + span.lo, hi: x0 + span.hi)
            }
            bandTop += h
        }
        return dirty.rect
    }

    /// Whether `target` is resolved and composited in one pass (``fusedRows``): source-over at
    /// full opacity, or a mask.
    @inline(__always)
    private static func fuses(_ target: Target) -> Bool {
        switch target {
        case .pixels(_, let source): source.blend == .sourceOver && source.opacity == 65536
        case .mask: true
        }
    }

    /// Whether `target` is pixels (not a mask).
    @inline(__always)
    private static func isPixels(_ target: Target) -> Bool {
        if case .pixels = target { return true }
        return false
    }

    /// The widest band of pixels resolved over its whole width, with no ``RowWindows`` recorded:
    /// the cell walk then records nothing (11 instructions per row an edge crosses), and a row of
    /// a capsule this narrow spans most of the band anyway (the resolve is four pixels per step).
    static let denseWidth = 16

    /// Resolves the band's rows (through `windows`, which the mask target needs) and composites
    /// them in one pass (a target that ``fuses(_:)``).
    @inline(__always)
    private func fusedRows(_ target: Target, windows: RowWindows?, bandTop: Int, rows h: Int, x0: Int,
                           dirty: inout DirtyBox) {
        switch target {
        case .pixels(let plane, let source):
            let rows = CoverageSpans.resolveOver(rows: h, cells: accumulator.row(0), cellStride: accumulator.stride,
                                                 width: accumulator.width, bounds: windows?.bounds,
                                                 onto: plane.row(bandTop) + 4 &* x0, pixelStride: plane.strideBytes,
                                                 colour: source.channelLanes)
            if rows.first <= rows.last {
                // The band's box: its first and last rows with the columns of all its rows.
                dirty.add(row: bandTop &+ rows.first, lo: x0 &+ rows.lo, hi: x0 &+ rows.hi)
                dirty.add(row: bandTop &+ rows.last, lo: x0 &+ rows.lo, hi: x0 &+ rows.hi)
            }
        case .mask(let mask):
            dirty = maskRows(mask, windows: windows, bandTop: bandTop, rows: h, x0: x0, dirty: dirty)
        }
    }

    /// ``fusedRows``' mask rows (``CoverageSpans/resolveMax(rows:cells:cellStride:width:bounds:into:maskStride:room:)``),
    /// returning `dirty` grown by them. Not inlined: inside `render` its SIMD steps made the
    /// compiler allocate the pixel rows' registers worse (+80 instructions and +1.5 simulated
    /// mispredicted branches per segment of `stroke_segments_opaque`); one call per band.
    @inline(never)
    private func maskRows(_ mask: MaskPlane, windows: RowWindows?, bandTop: Int, rows h: Int, x0: Int,
                          dirty: DirtyBox) -> DirtyBox {
        var dirty = dirty
        let rows = CoverageSpans.resolveMax(rows: h, cells: accumulator.row(0), cellStride: accumulator.stride,
                                            width: accumulator.width, bounds: windows?.bounds,
                                            into: mask.row(bandTop) + x0, maskStride: mask.strideBytes,
                                            room: mask.width &- x0)
        if rows.first <= rows.last {
            // The band's box: its first and last rows with the columns of all its rows.
            dirty.add(row: bandTop &+ rows.first, lo: x0 &+ rows.lo, hi: x0 &+ rows.hi)
            dirty.add(row: bandTop &+ rows.last, lo: x0 &+ rows.lo, hi: x0 &+ rows.hi)
        }
        return dirty
    }

}
