/// Counts the pixels a draw actually changed, for ``HookTimeline/countsChangedPixels``:
/// inside what the draw reported dirty and what its services returned as drawn (the union of
/// those rectangles, each pixel once), the pixels that differ from what the layer held just
/// before the draw. Pixels a brush wrote by itself outside both are not counted.
///
/// What the layer held before the draw comes from copies the session has anyway where it can:
/// - a **preview** draw is compared with the committed layer: before each preview draw the
///   host has restored the preview from committed wherever the last preview draw reported
///   (restore-then-redraw), so there the two are equal. (A brush whose services drew outside
///   what it reported leaves preview pixels the host does not restore; those count as changed
///   again when a later preview draw covers them.)
/// - a **committed** draw (and a tick's) is compared with a shadow copy of the committed layer,
///   the one copy this makes (once, when the audit starts), which the session keeps equal to
///   committed: every host change of committed is repeated into it, and after each draw it is
///   brought up to date where the draw was compared.
///
/// The comparison reads eight bytes (two pixels) at a time; per draw the cost is one pass
/// over the union of its rectangles (two for committed: compare, then update the shadow).
final class PixelAudit {
    private let committed: Layer
    /// Committed as it was after the last committed draw or host change; nil without memory
    /// for it (then committed draws are not counted).
    private let shadow: Layer?
    /// The current draw's rectangles, clipped (scratch, kept between draws).
    private var rects: [PixelRect] = []
    private var edges: [Int] = []
    private var spans: [(start: Int, end: Int)] = []

    /// Starts auditing draws into `committed` (and into a preview of its size).
    init(committed: Layer) {
        self.committed = committed
        shadow = Layer(width: committed.width, height: committed.height)
        shadow?.copy(from: committed, in: committed.bounds)
    }

    /// Repeats a host change of `layer` inside `rect` into the shadow when `layer` is committed.
    func sync(_ layer: Layer, in rect: PixelRect) {
        if layer === committed { shadow?.copy(from: layer, in: rect) }
    }

    /// Forgets the last draw's rectangles.
    func startDraw() { rects.removeAll(keepingCapacity: true) }

    /// Adds a rectangle the draw reported or a service drew (clipped to the layer later).
    func add(_ rect: PixelRect) { rects.append(rect) }

    /// The pixels of `layer` (committed, or a preview of its size) that the draw changed
    /// inside the rectangles added since ``startDraw()``; nil for committed without a shadow.
    func changedPixels(_ layer: Layer) -> Int? {
        let bounds = layer.bounds
        var n = 0
        for r in rects {
            let c = r.intersection(bounds)
            if !c.isEmpty { rects[n] = c; n += 1 }
        }
        rects.removeSubrange(n...)
        if layer === committed {
            guard let shadow else { return nil }
            return count(layer, against: shadow, updating: true)
        }
        return count(layer, against: committed, updating: false)
    }

    /// Counts the pixels of the union of ``rects`` where `layer` and `reference` differ, band
    /// by band (rows covered by the same rectangles), then copies `layer` into `reference`
    /// there when `updating`.
    private func count(_ layer: Layer, against reference: Layer, updating: Bool) -> Int {
        edges.removeAll(keepingCapacity: true)
        for r in rects { edges.append(Int(r.y)); edges.append(Int(r.maxY)) }
        edges.sort()
        var changed = 0
        var lower = edges.first ?? 0
        for upper in edges.dropFirst() where upper > lower {
            spans.removeAll(keepingCapacity: true)
            for r in rects where Int(r.y) <= lower && Int(r.maxY) >= upper { spans.append((Int(r.x), Int(r.maxX))) }
            spans.sort { $0.start < $1.start }
            var merged = 0
            for s in spans {
                if merged > 0, s.start <= spans[merged - 1].end {
                    spans[merged - 1].end = max(spans[merged - 1].end, s.end)
                } else {
                    spans[merged] = s
                    merged += 1
                }
            }
            for y in lower..<upper {
                let row = y * layer.strideBytes
                for s in spans[..<merged] {
                    let offset = row + s.start * 4, pixels = s.end - s.start
                    changed += Self.differing(layer.pixels + offset, reference.pixels + offset, pixels: pixels)
                    if updating { (reference.pixels + offset).update(from: layer.pixels + offset, count: pixels * 4) }
                }
            }
            lower = upper
        }
        return changed
    }

    /// How many of `pixels` 4-byte pixels differ between `a` and `b`, read eight bytes at a time.
    @inline(__always)
    private static func differing(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, pixels: Int) -> Int {
        let p = UnsafeRawPointer(a), q = UnsafeRawPointer(b)
        var n = 0, i = 0
        let pairs = pixels / 2 * 8
        while i < pairs {
            let x = p.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ q.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if x != 0 { n += (x & 0xFFFF_FFFF != 0 ? 1 : 0) + (x >> 32 != 0 ? 1 : 0) }
            i += 8
        }
        if pixels % 2 == 1, p.loadUnaligned(fromByteOffset: i, as: UInt32.self) != q.loadUnaligned(fromByteOffset: i, as: UInt32.self) {
            n += 1
        }
        return n
    }
}
