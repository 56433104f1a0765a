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

    /// Dashes the `n >= 2` points (plane coordinates, consecutive points distinct), closing
    /// back to the first when `closed`. `visible` is the rectangle outside which nothing the
    /// stroker draws can show (already widened by the stroke's reach).
    mutating func run(_ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                      count n: Int, closed: Bool, visible: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                      scratch: ShapeScratch, stroker: inout PolylineStroker?) {
        // The dash's points, in the scratch arrays swapped into locals (appending to locals
        // needs no exclusivity checks).
        // The first dash of a closed path that starts on is held in firstX/firstY until the
        // last one, which continues it, ends.
        var dashX: [Double] = [], dashY: [Double] = [], firstX: [Double] = [], firstY: [Double] = []
        swap(&dashX, &scratch.dx)
        swap(&dashY, &scratch.dy)
        swap(&firstX, &scratch.fx)
        swap(&firstY, &scratch.fy)
        defer {
            swap(&dashX, &scratch.dx)
            swap(&dashY, &scratch.dy)
            swap(&firstX, &scratch.fx)
            swap(&firstY, &scratch.fy)
        }
        dashX.removeAll(keepingCapacity: true)
        dashY.removeAll(keepingCapacity: true)
        var open = false  // a dash is in progress (its points are in dashX/dashY)
        var holding = false, held = false  // the first dash is to be held / is held
        var ux = 1.0, uy = 0.0
        func emit(_ stroker: inout PolylineStroker?, closing: Bool = false) {
            if open && holding && !held {
                swap(&firstX, &dashX)
                swap(&firstY, &dashY)
                held = true
            } else if open {
                emitted += 1
                if emitted > StrokeStyle.maxDashPieces { overflowed = true }
                if !overflowed, stroker != nil {
                    dashX.withUnsafeBufferPointer { dx in
                        dashY.withUnsafeBufferPointer { dy in
                            stroker!.stroke(dx, dy, count: dx.count, closed: closing, dotDirection: (ux, uy))
                        }
                    }
                }
            }
            open = false
            dashX.removeAll(keepingCapacity: true)
            dashY.removeAll(keepingCapacity: true)
        }
        func point(_ x: Double, _ y: Double) {
            if let lx = dashX.last, let ly = dashY.last, lx == x, ly == y { return }
            dashX.append(x)
            dashY.append(y)
        }
        let segments = closed ? n : n - 1
        for i in 0..<segments {
            if overflowed || stroker?.failed == true { return }
            let j = (i + 1) % n
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
            clipEdge(-dx, ax - visible.minX)
            clipEdge(dx, visible.maxX - ax)
            clipEdge(-dy, ay - visible.minY)
            clipEdge(dy, visible.maxY - ay)
            if t0 >= t1 {
                emit(&stroker)
                advance(length)
                if isOn { open = true; point(bx, by) }
                continue
            }
            if i == 0 && closed && t0 == 0 && isOn { holding = true }
            var pos = t0 * length
            let end = t1 * length
            if pos > 0 {
                emit(&stroker)
                advance(pos)
                if isOn { open = true; point(ax + ux * pos, ay + uy * pos) }
            }
            if isOn && !open { open = true; point(ax + ux * pos, ay + uy * pos) }
            var steps = 0
            while pos < end {
                let step = Swift.min(remaining, end - pos)
                pos += step
                remaining -= step
                if remaining <= 0 && pos < length {
                    if isOn { point(ax + ux * pos, ay + uy * pos); emit(&stroker) }
                    index = (index + 1) % count
                    remaining = entry(index)
                    if isOn { open = true; point(ax + ux * pos, ay + uy * pos) }
                    steps += 1
                    if steps > 4 * StrokeStyle.maxDashPieces || overflowed { overflowed = true; return }
                }
            }
            if end < length {
                emit(&stroker)
                advance(length - end)
                if isOn { open = true; point(bx, by) }
            } else if isOn {
                open = true
                point(bx, by)
                if remaining <= 0 {
                    emit(&stroker)
                    index = (index + 1) % count
                    remaining = entry(index)
                    if isOn { open = true; point(bx, by) }
                }
            }
        }
        if holding && !held && open {
            // On all the way round: the closed path itself (its last point is the first).
            let loop = dashX.count >= 3
            if loop {
                dashX.removeLast()
                dashY.removeLast()
            }
            holding = false
            emit(&stroker, closing: loop)
            return
        }
        if held {
            holding = false
            if !open {
                swap(&firstX, &dashX)
                swap(&firstY, &dashY)
                open = true
            } else {
                for k in firstX.indices { point(firstX[k], firstY[k]) }
            }
        }
        emit(&stroker)
    }
}
