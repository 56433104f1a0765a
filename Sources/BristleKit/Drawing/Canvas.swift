import CBristle

/// The pixels a draw call paints (`bristle_target_t`), valid only during that call.
///
/// Every change goes through the canvas (pixel writes, blends, host services), and the canvas
/// records what it changed, which the kit reports to the host: the bounding ``dirty``
/// rectangle, and, on a host of ABI 1.2 or later, several tighter rectangles in the target's
/// dirty list (each change's rectangle, neighbouring ones coalesced, merged by the header's
/// `bristle_dirty_add` when the list is full). Never an under-estimate. Reads and writes
/// outside the target are ignored.
public final class Canvas {
    /// The layers a brush draws into (`BRISTLE_LAYER_*`).
    public enum Layer: Sendable {
        /// The drawing itself.
        case committed
        /// What is shown: committed plus what is still provisional.
        case preview
    }

    let target: UnsafePointer<bristle_target_t>
    private let pixels: UnsafeMutablePointer<UInt8>
    private let basePixels: UnsafePointer<UInt8>?
    private let stride: Int
    /// Columns and rows.
    public let width: Int
    public let height: Int
    /// Which layer this draw paints.
    public let layer: Layer
    /// Every pixel changed so far lies inside it.
    public private(set) var dirty: Rect = .empty
    /// The changes not yet added to the target's dirty list: a run of neighbouring changes
    /// (pixel after pixel) grows one rectangle instead of filling the list.
    private var pending: Rect = .empty

    /// Wraps a target the kit has checked: RGBA8 premultiplied, non-NULL pixels, positive size,
    /// stride >= width * 4.
    init(_ target: UnsafePointer<bristle_target_t>, pixels: UnsafeMutablePointer<UInt8>) {
        self.target = target
        self.pixels = pixels
        basePixels = target.pointee.base
        stride = Int(target.pointee.stride_bytes)
        width = Int(target.pointee.width)
        height = Int(target.pointee.height)
        layer = target.pointee.layer == BRISTLE_LAYER_PREVIEW ? .preview : .committed
    }

    /// True when the target carries the pixels as they were before the stroke (during strokes).
    public var hasBase: Bool { basePixels != nil }

    /// The host's drawing services.
    public var services: Services { Services(target.pointee.services) }

    /// The pixel at (x, y); `.clear` outside. Setting it outside the target does nothing.
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            guard x >= 0, x < width, y >= 0, y < height else { return .clear }
            let p = pixels + y * stride + x * 4
            return Pixel(r: p[0], g: p[1], b: p[2], a: p[3])
        }
        set {
            guard x >= 0, x < width, y >= 0, y < height else { return }
            let p = pixels + y * stride + x * 4
            let a = newValue.a
            p[0] = min(newValue.r, a)
            p[1] = min(newValue.g, a)
            p[2] = min(newValue.b, a)
            p[3] = a
            markDirty(Rect(x: x, y: y, width: 1, height: 1))
        }
    }

    /// The pixel at (x, y) as it was before the stroke began; the current pixel when the target
    /// has no base (ticks); `.clear` outside.
    public func base(x: Int, y: Int) -> Pixel {
        guard let basePixels else { return self[x, y] }
        guard x >= 0, x < width, y >= 0, y < height else { return .clear }
        let p = basePixels + y * stride + x * 4
        return Pixel(r: p[0], g: p[1], b: p[2], a: p[3])
    }

    /// Composites `color` at `coverage` source-over onto the pixel at (x, y).
    public func blend(_ color: Color, coverage: Double, x: Int, y: Int) {
        guard x >= 0, x < width, y >= 0, y < height, coverage > 0 else { return }
        self[x, y] = self[x, y].over(color, coverage: coverage)
    }

    /// Paints a segment whose diameter goes from `startWidth` to `endWidth` (`fill_segment`):
    /// with round caps a tapered capsule; butt and square caps need a 1.1 host
    /// (``Services/Service/segmentCaps``), otherwise nothing is drawn.
    @discardableResult
    public func fillSegment(from start: (x: Double, y: Double), to end: (x: Double, y: Double),
                            startWidth: Double, endWidth: Double, cap: StrokeStyle.Cap = .round, paint: Paint) -> Rect {
        guard var s = services.segment(start, end, startWidth, endWidth, cap) else { return .empty }
        var p = paint.c
        return painted(services.call(\.fill_segment) { table, f in f(table, target, &s, &p) })
    }

    /// Paints a disc (`fill_disc`).
    @discardableResult
    public func fillDisc(x: Double, y: Double, radius: Double, paint: Paint) -> Rect {
        var p = paint.c
        return painted(services.call(\.fill_disc) { table, f in f(table, target, x, y, radius, &p) })
    }

    /// Composites `paint` through `mask` inside `rect` (`composite_mask`), or `pattern` with
    /// the paint's opacity and blend (`composite_mask_pattern`, a 1.1 service). With `overBase`
    /// the destination is the pixels from before the stroke, so re-compositing a growing mask
    /// never double-blends. The mask must be the target's size; otherwise nothing is drawn.
    @discardableResult
    public func composite(_ mask: CoverageMask, in rect: Rect, paint: Paint, pattern: Pattern? = nil,
                          overBase: Bool) -> Rect {
        guard mask.width == width, mask.height == height else { return .empty }
        let clipped = rect.clipped(width: width, height: height)
        guard !clipped.isEmpty else { return .empty }
        var m = mask.c
        var p = paint.c
        let flags = overBase ? BRISTLE_COMPOSITE_OVER_BASE : 0
        guard pattern != nil else {
            return painted(services.call(\.composite_mask) { table, f in f(table, target, &m, clipped.c, &p, flags) })
        }
        return painted(Pattern.withC(pattern) { tile in
            services.call(\.composite_mask_pattern) { table, f in f(table, target, &m, clipped.c, &p, tile, flags) }
        })
    }

    /// Marks what a service changed as dirty and returns it.
    func painted(_ rect: Rect) -> Rect {
        markDirty(rect)
        return rect
    }

    /// Adds `rect` (clipped to the target) to what the draw reports as changed. The canvas
    /// already does this for every change made through it.
    public func markDirty(_ rect: Rect) {
        let r = rect.clipped(width: width, height: height)
        guard !r.isEmpty else { return }
        dirty = dirty.union(r)
        let grown = pending.union(r)
        if grown.area <= pending.area + r.area + Self.coalescing { pending = grown; return }
        flushDirty()
        pending = r
    }

    /// How many pixels of waste joining a change to the pending run may add.
    static let coalescing = 64

    /// Adds the pending run to the target's dirty list (when the host gave one); the kit calls
    /// it once more when the draw ends.
    func flushDirty() {
        guard !pending.isEmpty else { return }
        var ignored = bristle_rect_t()
        bristle_dirty_add(target, &ignored, pending.c)
        pending = .empty
    }
}
