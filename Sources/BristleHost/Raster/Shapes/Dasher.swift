/// Splits a polyline into dashes and hands each one to a ``PolylineStroker``, which appends its
/// outline to the one path the whole stroke fills at once.
///
/// The pattern alternates on / off lengths starting with on (an odd count is repeated, as in
/// SVG); `phase` is the distance into the pattern at the path's start (negative counts
/// backwards). A dash that spans vertices keeps them, so it gets the stroke's joins; each dash
/// gets the stroke's caps at both ends, and a zero-length dash is a dot along the path's
/// direction. On a closed path whose pattern is on at the start, the last dash and the first
/// are one dash joined at the start point (as cairo and AGG draw it), and a dash that never
/// ends is the closed path itself.
///
/// Only the part of the path near the visible rectangle is walked dash by dash: outside it
/// (Liang-Barsky clipping against the rectangle widened by the stroke's reach) the pattern is
/// advanced arithmetically, so a 1e8-pixel line costs what its visible part costs. When the
/// count of dashes passes ``StrokeStyle/maxDashPieces`` the run stops and ``overflowed`` is
/// set, so the caller can refuse to fill the outline (`stroker` nil: a run that only counts).
struct Dasher {
    private let pattern: UnsafeBufferPointer<Double>
    /// Effective entry count (twice the array's when odd).
    private let count: Int
    private let period: Double
    private var index = 0
    private var remaining: Double
    private(set) var overflowed = false
    private var emitted = 0
    /// The stroker failed (its budget ran out): nothing more to walk.
    private var stopped = false

    /// nil for a solid stroke (no entries, or all zero). Entries must be finite and >= 0 and
    /// the phase finite (callers validate).
    init?(pattern: UnsafeBufferPointer<Double>, phase: Double) {
        guard !pattern.isEmpty else { return nil }
        var sum = 0.0
        for v in pattern { sum += v }
        self.pattern = pattern
        count = pattern.count % 2 == 1 ? 2 * pattern.count : pattern.count
        period = pattern.count % 2 == 1 ? 2 * sum : sum
        guard period > 0, period.isFinite else { return nil }
        remaining = pattern[0]
        var p = phase.truncatingRemainder(dividingBy: period)
        if p < 0 { p += period }
        advance(p)
    }

    private func entry(_ i: Int) -> Double { pattern[i % pattern.count] }
    private var isOn: Bool { index % 2 == 0 }

    /// Moves `d >= 0` along the pattern without emitting anything.
    private mutating func advance(_ d: Double) {
        if d < remaining { remaining -= d; return }
        var left = (d - remaining).truncatingRemainder(dividingBy: period)
        index = (index + 1) % count
        remaining = entry(index)
        var guardSteps = 2 * count + 2
        while left >= remaining && guardSteps > 0 {
            left -= remaining
            index = (index + 1) % count
            remaining = entry(index)
            guardSteps -= 1
        }
        remaining = Swift.max(0, remaining - left)
    }

    /// The dash being built and, on a closed path that starts on, its first dash held until
    /// the last one, which continues it, ends: points stored through pointers into the
    /// scratch's ``ShapeScratch/dashBuffer(_:)`` (``run(_:_:count:closed:visible:everyInside:scratch:stroker:)``
    /// sizes it for the longest dash: no capacity or uniqueness check per point).
    private struct Points {
        var x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>
        var firstX: UnsafeMutablePointer<Double>, firstY: UnsafeMutablePointer<Double>
        /// Points of the dash in progress and of the held first dash.
        var count = 0, firstCount = 0
        /// A dash is in progress (its points are in `x`, `y`).
        var open = false
        /// The first dash is to be held / is held.
        var holding = false, held = false

        init(_ x: UnsafeMutablePointer<Double>, _ y: UnsafeMutablePointer<Double>,
             _ firstX: UnsafeMutablePointer<Double>, _ firstY: UnsafeMutablePointer<Double>) {
            self.x = x
            self.y = y
            self.firstX = firstX
            self.firstY = firstY
        }

        /// Appends a point to the dash (a repeat of the last one is dropped).
        @inline(__always)
        mutating func point(_ px: Double, _ py: Double) {
            if count > 0 && x[count &- 1] == px && y[count &- 1] == py { return }
            x[count] = px
            y[count] = py
            count &+= 1
        }

        /// Starts (or continues) a dash at (px, py).
        @inline(__always)
        mutating func on(_ px: Double, _ py: Double) {
            open = true
            point(px, py)
        }

        /// Makes the dash in progress the held first dash and the held one's storage the
        /// dash in progress (its points kept, as `count` says).
        mutating func swapFirst() {
            swap(&x, &firstX)
            swap(&y, &firstY)
            swap(&count, &firstCount)
        }
    }

    /// Ends the dash in progress: holds it (the first dash of a closed path that starts on)
    /// or strokes it (`closing`: as a closed path), then empties the points.
    private mutating func emit(_ p: inout Points, _ stroker: inout PolylineStroker?, direction: (Double, Double),
                               closing: Bool = false) {
        if p.open && p.holding && !p.held {
            p.swapFirst()
            p.held = true
        } else if p.open {
            emitted += 1
            if emitted > StrokeStyle.maxDashPieces { overflowed = true }
            if !overflowed, stroker != nil {
                stroker!.stroke(UnsafeBufferPointer(start: p.x, count: p.count),
                                UnsafeBufferPointer(start: p.y, count: p.count), count: p.count,
                                closed: closing, dotDirection: direction)
                stopped = stroker!.failed
            }
        }
        p.open = false
        p.count = 0
    }

    /// Dashes the `n >= 2` points (plane coordinates, consecutive points distinct), closing
    /// back to the first when `closed`. `visible` is the rectangle outside which nothing the
    /// stroker draws can show (already widened by the stroke's reach); `everyInside` says that
    /// every point lies strictly inside it (then no segment is clipped, and none is tested).
    /// Not inlined: inside its caller the points' appends are no longer inlined.
    @inline(never)
    mutating func run(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                      count n: Int, closed: Bool, visible: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                      everyInside: Bool, scratch: ShapeScratch, stroker: inout PolylineStroker?) {
        // A dash holds at most its start, the n vertices and its end; the last dash of a
        // closed path continued by the first, which covers another part of the path, two more.
        let room = n &+ 4
        let points = scratch.dashBuffer(4 &* room)
        var p = Points(points, points + room, points + 2 &* room, points + 3 &* room)
        walk(xs, ys, count: n, closed: closed, visible: visible, everyInside: everyInside, &p, stroker: &stroker)
    }

    /// ``run(_:_:count:closed:visible:everyInside:scratch:stroker:)``'s walk, building the dashes in `p`.
    @inline(__always)
    private mutating func walk(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                               count n: Int, closed: Bool,
                               visible: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                               everyInside: Bool, _ p: inout Points, stroker: inout PolylineStroker?) {
        var ux = 1.0, uy = 0.0
        let segments = closed ? n : n - 1
        for i in 0..<segments {
            if overflowed || stopped { return }
            let j = i + 1 == n ? 0 : i + 1
            let ax = xs[i], ay = ys[i], bx = xs[j], by = ys[j]
            let dx = bx - ax, dy = by - ay
            let length = (dx * dx + dy * dy).squareRoot()
            ux = dx / length
            uy = dy / length
            // Visible parameter range [t0, t1] of this segment.
            var t0 = 0.0, t1 = 1.0
            func clipEdge(_ p: Double, _ q: Double) {
                if p == 0 { if q < 0 { t0 = 2 } ; return }
                let r = q / p
                if p < 0 { t0 = Swift.max(t0, r) } else { t1 = Swift.min(t1, r) }
            }
            // A segment from strictly inside to inside is [0, 1] (clipping finds exactly that:
            // every q > 0, and q >= p where p > 0), without the four divisions.
            let inside = everyInside || ax > visible.minX && ax < visible.maxX && ay > visible.minY && ay < visible.maxY
                && bx >= visible.minX && bx <= visible.maxX && by >= visible.minY && by <= visible.maxY
            if !inside {
                clipEdge(-dx, ax - visible.minX)
                clipEdge(dx, visible.maxX - ax)
                clipEdge(-dy, ay - visible.minY)
                clipEdge(dy, visible.maxY - ay)
            }
            if t0 >= t1 {
                emit(&p, &stroker, direction: (ux, uy))
                advance(length)
                if isOn { p.on(bx, by) }
                continue
            }
            if i == 0 && closed && t0 == 0 && isOn { p.holding = true }
            var pos = t0 * length
            let end = t1 * length
            if pos > 0 {
                emit(&p, &stroker, direction: (ux, uy))
                advance(pos)
                if isOn { p.on(ax + ux * pos, ay + uy * pos) }
            }
            if isOn && !p.open { p.on(ax + ux * pos, ay + uy * pos) }
            var steps = 0
            while pos < end {
                let step = Swift.min(remaining, end - pos)
                pos += step
                remaining -= step
                if remaining <= 0 && pos < length {
                    if isOn { p.point(ax + ux * pos, ay + uy * pos); emit(&p, &stroker, direction: (ux, uy)) }
                    index = (index + 1) % count
                    remaining = entry(index)
                    if isOn { p.on(ax + ux * pos, ay + uy * pos) }
                    steps += 1
                    if steps > 4 * StrokeStyle.maxDashPieces || overflowed { overflowed = true; return }
                }
            }
            if end < length {
                emit(&p, &stroker, direction: (ux, uy))
                advance(length - end)
                if isOn { p.on(bx, by) }
            } else if isOn {
                p.on(bx, by)
                if remaining <= 0 {
                    emit(&p, &stroker, direction: (ux, uy))
                    index = (index + 1) % count
                    remaining = entry(index)
                    if isOn { p.on(bx, by) }
                }
            }
        }
        if p.holding && !p.held && p.open {
            // On all the way round: the closed path itself (its last point is the first).
            let loop = p.count >= 3
            if loop { p.count &-= 1 }
            p.holding = false
            emit(&p, &stroker, direction: (ux, uy), closing: loop)
            return
        }
        if p.held {
            p.holding = false
            if !p.open {
                p.swapFirst()
                p.open = true
            } else {
                for k in 0..<p.firstCount { p.point(p.firstX[k], p.firstY[k]) }
            }
        }
        emit(&p, &stroker, direction: (ux, uy))
    }
}
