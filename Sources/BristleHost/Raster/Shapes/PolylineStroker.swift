/// Strokes polylines (and dashes) into a coverage mask as a union of pieces combined with max.
///
/// Each segment becomes one piece: its rectangle of the stroke's width (trapezoid-free:
/// strokes have one width), extended by half the width at a SQUARE-capped open end, with a
/// half-disc at a ROUND cap or ROUND join, and with the whole MITER / BEVEL wedge of each of its
/// two joints. The two pieces meeting at a joint therefore both contain its wedge, and each
/// internal cut line (the end line of one segment, the start line of the next) lies inside a
/// single piece, so `max` leaves no seam; where pieces overlap (the inside of a turn), `max`
/// never darkens. Pixels containing the vertex or the inner corner straddle both cut lines;
/// a joint piece (see ``joint(_:_:in:out:lengths:)``) covers the stroke there. Each piece is a small polygon filled with exact-area coverage
/// (``ShapeScratch/fill(clip:sink:)``) and max-combined into the mask.
///
/// Cost guard: every piece's clipped box is charged to ``budget`` (pixels); when it runs out
/// the stroker stops and sets ``failed``, and the caller draws nothing.
struct PolylineStroker {
    let scratch: ShapeScratch
    let halfWidth: Double
    let cap: LineCap
    let join: LineJoin
    /// Miter limit, `>= 1`.
    let miterLimit: Double
    /// Where pieces are max-combined; its (0, 0) is plane pixel (originX, originY).
    let mask: MaskPlane
    let originX: Double, originY: Double
    /// Pixels of piece boxes still allowed.
    var budget: Int
    private(set) var failed = false
    /// Mask cells raised so far (mask coordinates).
    private(set) var dirty = PixelRect.empty

    init(scratch: ShapeScratch, style: ResolvedStroke, mask: MaskPlane, originX: Int,
         originY: Int, budget: Int) {
        self.scratch = scratch
        halfWidth = style.width / 2
        cap = style.cap
        join = style.join
        miterLimit = style.miterLimit
        self.mask = mask
        self.originX = Double(originX)
        self.originY = Double(originY)
        self.budget = budget
    }

    /// Strokes the `n >= 1` points (plane coordinates, no two consecutive ones equal, and for
    /// a closed path the last differs from the first). A single point is a dot whose square
    /// cap is aligned with `dotDirection` (a unit vector).
    mutating func stroke(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                         count n: Int, closed: Bool, dotDirection: (Double, Double)) {
        guard n >= 1, !failed else { return }
        if n == 1 {
            dot(xs[0], ys[0], dotDirection)
            return
        }
        let segments = closed ? n : n - 1
        func direction(_ i: Int, _ j: Int) -> (Double, Double) {
            let dx = xs[j] - xs[i], dy = ys[j] - ys[i]
            let l = (dx * dx + dy * dy).squareRoot()
            return (dx / l, dy / l)
        }
        func length(_ i: Int, _ j: Int) -> Double {
            let dx = xs[j] - xs[i], dy = ys[j] - ys[i]
            return (dx * dx + dy * dy).squareRoot()
        }
        for i in 0..<segments {
            guard !failed else { return }
            let b = (i + 1) % n
            let prev = closed || i > 0 ? direction((i - 1 + n) % n, i) : nil
            let next = closed || i < segments - 1 ? direction(b, (b + 1) % n) : nil
            segment(xs[i], ys[i], xs[b], ys[b], prev: prev, next: next)
            if let next {
                joint(xs[b], ys[b], in: direction(i, b), out: next, lengths: (length(i, b), length(b, (b + 1) % n)))
            }
        }
    }

    /// The joint piece at (px, py): the last `d` pixels of the incoming segment, the join and
    /// the first `d` of the outgoing one, as one polygon (its inner side through the point X
    /// where the two inner edges cross), with `d` reaching 2 px past X. Pixels that contain
    /// the vertex or X straddle both segments' cut lines, which no segment piece covers alone;
    /// this piece covers the whole stroke there, so `max` is exact at the joint. Skipped for
    /// near-straight or near-reversing turns and when a segment is shorter than `d` (the
    /// segment pieces alone then decide, with at most a slight underestimate).
    private mutating func joint(_ px0: Double, _ py0: Double, in u: (Double, Double),
                                out v: (Double, Double), lengths: (Double, Double)) {
        let h = halfWidth
        let cross = u.0 * v.1 - u.1 * v.0, dot = u.0 * v.0 + u.1 * v.1
        guard abs(cross) > 1e-9, dot > -0.95 else { return }
        let s: Double = cross > 0 ? -1 : 1
        let unx = -u.1, uny = u.0, vnx = -v.1, vny = v.0
        let d0 = 1 + dot
        // X is h tan(φ/2) from the vertex along each segment; |sin φ| / (1 + cos φ) = tan(φ/2).
        let reach = h * abs(cross) / d0 + 2
        guard reach <= lengths.0, reach <= lengths.1 else { return }
        let px = px0 - originX, py = py0 - originY
        let ax = px - u.0 * reach, ay = py - u.1 * reach, bx = px + v.0 * reach, by = py + v.1 * reach
        scratch.path.reset(cull: mask.bounds)
        scratch.path.append(ax + s * h * unx, ay + s * h * uny)
        scratch.path.append(px + s * h * unx, py + s * h * uny)
        switch join {
        case .round:
            let a0 = RasterMath.arcTangent(s * uny, s * unx), a1 = RasterMath.arcTangent(s * vny, s * vnx)
            var sweep = a1 - a0
            if sweep > Double.pi { sweep -= 2 * Double.pi }
            if sweep < -Double.pi { sweep += 2 * Double.pi }
            scratch.path.appendArc(cx: px, cy: py, r: h, start: a0, sweep: sweep)
        case .miter:
            if 2 / d0 <= miterLimit * miterLimit {
                scratch.path.append(px + s * h * (unx + vnx) / d0, py + s * h * (uny + vny) / d0)
            }
        case .bevel:
            break
        }
        scratch.path.append(px + s * h * vnx, py + s * h * vny)
        scratch.path.append(bx + s * h * vnx, by + s * h * vny)
        scratch.path.append(bx - s * h * vnx, by - s * h * vny)
        scratch.path.append(px - s * h * (unx + vnx) / d0, py - s * h * (uny + vny) / d0)
        scratch.path.append(ax - s * h * unx, ay - s * h * uny)
        fillPiece()
    }

    private mutating func dot(_ x: Double, _ y: Double, _ d: (Double, Double)) {
        let h = halfWidth
        scratch.path.reset(cull: mask.bounds)
        let cx = x - originX, cy = y - originY
        switch cap {
        case .butt: return
        case .round:
            scratch.path.appendArc(cx: cx, cy: cy, r: h, start: 0, sweep: 2 * Double.pi)
        case .square:
            let (ux, uy) = d, nx = -uy, ny = ux
            scratch.path.append(cx - ux * h - nx * h, cy - uy * h - ny * h)
            scratch.path.append(cx + ux * h - nx * h, cy + uy * h - ny * h)
            scratch.path.append(cx + ux * h + nx * h, cy + uy * h + ny * h)
            scratch.path.append(cx - ux * h + nx * h, cy - uy * h + ny * h)
        }
        fillPiece()
    }

    /// One segment's piece; `prev` / `next` are the unit directions of the neighbouring
    /// segments when there is a joint at A / B (nil at an open end, which gets the cap).
    private mutating func segment(_ ax0: Double, _ ay0: Double, _ bx0: Double, _ by0: Double,
                                  prev: (Double, Double)?, next: (Double, Double)?) {
        let h = halfWidth
        let ax = ax0 - originX, ay = ay0 - originY, bx = bx0 - originX, by = by0 - originY
        let dx = bx - ax, dy = by - ay
        let l = (dx * dx + dy * dy).squareRoot()
        let ux = dx / l, uy = dy / l, nx = -uy, ny = ux
        let e0 = prev == nil && cap == .square ? h : 0
        let e1 = next == nil && cap == .square ? h : 0
        let sx = ax - ux * e0, sy = ay - uy * e0, ex = bx + ux * e1, ey = by + uy * e1
        scratch.path.reset(cull: mask.bounds)
        scratch.path.append(sx - nx * h, sy - ny * h)
        scratch.path.append(ex - nx * h, ey - ny * h)
        // End side, from E- to E+.
        if let v = next, join != .round {
            wedge(at: bx, by, from: (ux, uy), to: v, atEnd: true)
        } else if next != nil || cap == .round {
            scratch.path.appendArc(cx: bx, cy: by, r: h, start: RasterMath.arcTangent(-ny, -nx),
                                   sweep: Double.pi)
        }
        scratch.path.append(ex + nx * h, ey + ny * h)
        scratch.path.append(sx + nx * h, sy + ny * h)
        // Start side, from S+ to S-.
        if let q = prev, join != .round {
            wedge(at: ax, ay, from: q, to: (ux, uy), atEnd: false)
        } else if prev != nil || cap == .round {
            scratch.path.appendArc(cx: ax, cy: ay, r: h, start: RasterMath.arcTangent(ny, nx),
                                   sweep: Double.pi)
        }
        fillPiece()
    }

    /// The MITER / BEVEL wedge of the joint at (px, py) between directions `u` (in) and `v`
    /// (out), appended between the incoming segment's end corners (`atEnd`) or between the
    /// outgoing segment's start corners.
    private mutating func wedge(at px: Double, _ py: Double, from u: (Double, Double),
                                to v: (Double, Double), atEnd: Bool) {
        let h = halfWidth
        let cross = u.0 * v.1 - u.1 * v.0, dot = u.0 * v.0 + u.1 * v.1
        if dot > 0 && abs(cross) < 1e-12 { return }
        let s: Double = cross > 0 ? -1 : 1
        let unx = -u.1, uny = u.0, vnx = -v.1, vny = v.0
        var tip: (Double, Double)?
        let d = 1 + dot
        if join == .miter && d > 1e-12 && 2 / d <= miterLimit * miterLimit {
            tip = (px + s * h * (unx + vnx) / d, py + s * h * (uny + vny) / d)
        }
        if atEnd {
            // The outgoing segment's outer start corner.
            let ox = px + s * h * vnx, oy = py + s * h * vny
            if s < 0 {
                if let tip { scratch.path.append(tip.0, tip.1) }
                scratch.path.append(ox, oy)
                scratch.path.append(px, py)
            } else {
                scratch.path.append(px, py)
                scratch.path.append(ox, oy)
                if let tip { scratch.path.append(tip.0, tip.1) }
            }
        } else {
            // The incoming segment's outer end corner.
            let ox = px + s * h * unx, oy = py + s * h * uny
            if s > 0 {
                if let tip { scratch.path.append(tip.0, tip.1) }
                scratch.path.append(ox, oy)
                scratch.path.append(px, py)
            } else {
                scratch.path.append(px, py)
                scratch.path.append(ox, oy)
                if let tip { scratch.path.append(tip.0, tip.1) }
            }
        }
    }

    private mutating func fillPiece() {
        let p = scratch.path
        let box = PixelRect.covering(minX: p.minX, minY: p.minY, maxX: p.maxX, maxY: p.maxY,
                                     clip: mask.bounds)
        guard !box.isEmpty else { return }
        budget -= Int(box.width) * Int(box.height)
        if budget < 0 {
            failed = true
            return
        }
        dirty = dirty.union(scratch.fill(clip: box, sink: .mask(mask, nil)))
    }
}

/// A validated stroke style: finite width > 0, miter limit >= 1.
struct ResolvedStroke {
    var width: Double
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double

    /// nil when the width is not a finite number in `(0, coordinateLimit]`.
    init?(_ style: StrokeStyle) {
        guard style.width.isFinite, style.width > 0, style.width <= Rasterizer.coordinateLimit else { return nil }
        width = style.width
        cap = style.cap
        join = style.join
        miterLimit = style.miterLimit >= 1 ? Swift.min(style.miterLimit, 1e6) : 1
    }
}
