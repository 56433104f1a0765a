import Glibc

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
/// - a **committed** draw (and a tick's) is compared with a shadow of the committed layer,
///   filled tile by tile (32 x 32 pixels) the first time a draw is compared there, from the
///   session's base layer: committed as it was before the stroke, which equals committed
///   wherever no draw has been compared yet (attach the timeline between strokes). Then the
///   shadow tile is kept equal to committed: every host change of committed is repeated
///   into it, and each compared draw brings it up to date where it was compared. So the
///   shadow costs a copy of the tiles strokes touch, not of the layer.
///
/// The comparison reads 32 bytes (eight pixels) at a time while they are equal; per draw the
/// cost is one pass over the union of its rectangles, writing into the shadow only the words
/// that differ.
final class PixelAudit {
    private let committed: Layer
    private let base: Layer
    /// Committed's bytes (same size and stride) as they were after the last committed draw or
    /// host change, in the tiles ``filled`` marks; nil without memory for them (then
    /// committed draws are not counted).
    private let shadow: UnsafeMutablePointer<UInt8>?
    /// Per 32 x 32 tile, row by row: whether the shadow holds it.
    private let filled: UnsafeMutablePointer<Bool>
    private let tilesAcross: Int
    private static let tileSide = 32
    /// Scratch kept between draws (taken out while counting, so it is used as a local).
    private var scratch = Scratch()

    private struct Scratch {
        var rects: [PixelRect] = []
        var edges: [Int] = []
        var spans: [(start: Int, end: Int)] = []
    }

    /// Starts auditing draws into `committed` (and into a preview of its size), whose session
    /// keeps `base` as committed was before the stroke.
    init(committed: Layer, base: Layer) {
        self.committed = committed
        self.base = base
        shadow = malloc(committed.strideBytes * committed.height)?.assumingMemoryBound(to: UInt8.self)
        tilesAcross = (committed.width + Self.tileSide - 1) / Self.tileSide
        let tiles = tilesAcross * ((committed.height + Self.tileSide - 1) / Self.tileSide)
        filled = .allocate(capacity: tiles)
        filled.initialize(repeating: false, count: tiles)
    }

    deinit {
        free(shadow)
        filled.deallocate()
    }

    /// Calls `body` with each tile index `rect` (clipped, non-empty) overlaps and the part of
    /// `rect` inside that tile.
    @inline(__always)
    private func forEachTile(_ rect: PixelRect, _ body: (Int, PixelRect) -> Void) {
        let side = Self.tileSide
        for ty in Int(rect.y) / side...(Int(rect.maxY) - 1) / side {
            for tx in Int(rect.x) / side...(Int(rect.maxX) - 1) / side {
                let tile = PixelRect(x: Int32(tx * side), y: Int32(ty * side), width: Int32(side), height: Int32(side))
                body(ty * tilesAcross + tx, rect.intersection(tile))
            }
        }
    }

    /// Copies `rect` (clipped, non-empty) of `source` into the shadow.
    @inline(__always)
    private func copy(_ source: Layer, in rect: PixelRect, into shadow: UnsafeMutablePointer<UInt8>) {
        for y in Int(rect.y)..<Int(rect.maxY) {
            let offset = y * source.strideBytes + Int(rect.x) * 4
            (shadow + offset).update(from: source.pixels + offset, count: Int(rect.width) * 4)
        }
    }

    /// Repeats a host change of `layer` inside `rect` into the shadow's filled tiles when
    /// `layer` is committed (the others follow base, which the host changes alike).
    func sync(_ layer: Layer, in rect: PixelRect) {
        guard layer === committed, let shadow else { return }
        let r = rect.intersection(layer.bounds)
        guard !r.isEmpty else { return }
        forEachTile(r) { tile, part in
            if filled[tile] { copy(layer, in: part, into: shadow) }
        }
    }

    /// Fills the shadow's tiles under `rect` (clipped, non-empty) that it does not hold yet.
    private func fill(_ rect: PixelRect, into shadow: UnsafeMutablePointer<UInt8>) {
        let side = Self.tileSide
        forEachTile(rect) { tile, _ in
            guard !filled[tile] else { return }
            let x = tile % tilesAcross * side, y = tile / tilesAcross * side
            copy(base, in: PixelRect(x: Int32(x), y: Int32(y), width: Int32(side), height: Int32(side)).intersection(base.bounds),
                 into: shadow)
            filled[tile] = true
        }
    }

    /// The pixels of `layer` (committed, or a preview of its size) that its last draw changed
    /// inside the rectangles it `reported` and those its services drew into `layer` according
    /// to `timeline` since call index `firstCall`; nil for committed without a shadow.
    func changedPixels(_ layer: Layer, reported: [PixelRect], timeline: HookTimeline, since firstCall: Int) -> Int? {
        let isCommitted = layer === committed
        if isCommitted && shadow == nil { return nil }
        var s = scratch
        scratch = Scratch()
        defer { scratch = s }
        s.rects.removeAll(keepingCapacity: true)
        s.rects.append(contentsOf: reported)
        timeline.appendServiceRects(since: firstCall, layer: isCommitted ? .committed : .preview, to: &s.rects)
        if isCommitted {
            for r in s.rects {
                let c = r.intersection(layer.bounds)
                if !c.isEmpty { fill(c, into: shadow!) }
            }
        }
        let reference = isCommitted ? shadow! : committed.pixels
        return Self.count(layer, against: reference, updating: isCommitted, &s)
    }

    /// Counts the pixels of the union of `s.rects` (clipped to `layer`) where `layer` and
    /// `reference` (bytes of the same layout) differ, bringing `reference` up to date there when
    /// `updating`. Rectangles inside another are dropped first (a draw's services usually draw
    /// inside what it reports), so most draws compare one rectangle; otherwise band by band
    /// (rows covered by the same rectangles), each row's spans merged.
    private static func count(_ layer: Layer, against reference: UnsafeMutablePointer<UInt8>, updating: Bool,
                              _ s: inout Scratch) -> Int {
        let bounds = layer.bounds, stride = layer.strideBytes
        var n = 0
        for i in s.rects.indices {
            let c = s.rects[i].intersection(bounds)
            guard !c.isEmpty else { continue }
            s.rects[n] = c
            n += 1
        }
        // Keeps the rectangles no other (kept) rectangle contains.
        var kept = 0
        for i in 0..<n {
            let r = s.rects[i]
            var inside = false
            for j in 0..<n where j != i && Self.contains(s.rects[j], r) && (j < i ? true : !Self.contains(r, s.rects[j])) {
                inside = true
                break
            }
            if !inside { s.rects[kept] = r; kept += 1 }
        }
        var changed = 0
        func compare(row y: Int, from x0: Int, to x1: Int) {
            let offset = y * stride + x0 * 4
            changed += differing(layer.pixels + offset, reference + offset, pixels: x1 - x0, updating: updating)
        }
        if kept == 1 {
            let r = s.rects[0]
            for y in Int(r.y)..<Int(r.maxY) { compare(row: y, from: Int(r.x), to: Int(r.maxX)) }
            return changed
        }
        s.edges.removeAll(keepingCapacity: true)
        for i in 0..<kept { s.edges.append(Int(s.rects[i].y)); s.edges.append(Int(s.rects[i].maxY)) }
        s.edges.sort()
        var lower = s.edges.first ?? 0
        for e in s.edges.indices.dropFirst() where s.edges[e] > lower {
            let upper = s.edges[e]
            s.spans.removeAll(keepingCapacity: true)
            for i in 0..<kept where Int(s.rects[i].y) <= lower && Int(s.rects[i].maxY) >= upper {
                s.spans.append((Int(s.rects[i].x), Int(s.rects[i].maxX)))
            }
            s.spans.sort { $0.start < $1.start }
            var merged = 0
            for i in s.spans.indices {
                let span = s.spans[i]
                if merged > 0, span.start <= s.spans[merged - 1].end {
                    s.spans[merged - 1].end = max(s.spans[merged - 1].end, span.end)
                } else {
                    s.spans[merged] = span
                    merged += 1
                }
            }
            for y in lower..<upper {
                for m in 0..<merged { compare(row: y, from: s.spans[m].start, to: s.spans[m].end) }
            }
            lower = upper
        }
        return changed
    }

    /// Whether `outer` contains `inner` (both non-empty).
    @inline(__always)
    private static func contains(_ outer: PixelRect, _ inner: PixelRect) -> Bool {
        outer.x <= inner.x && outer.y <= inner.y && outer.maxX >= inner.maxX && outer.maxY >= inner.maxY
    }

    /// How many of `pixels` 4-byte pixels differ between `a` and `b`, read 32 bytes at a time
    /// while they are equal; each differing word of `b` is overwritten with `a`'s when `updating`.
    @inline(__always)
    private static func differing(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, pixels: Int,
                                  updating: Bool) -> Int {
        let p = UnsafeRawPointer(a), q = UnsafeMutableRawPointer(b)
        var n = 0, i = 0
        let bytes = pixels * 4
        @inline(__always) func word(_ at: Int) {
            let x = p.loadUnaligned(fromByteOffset: at, as: UInt64.self), y = q.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            guard x != y else { return }
            n += ((x ^ y) & 0xFFFF_FFFF != 0 ? 1 : 0) + ((x ^ y) >> 32 != 0 ? 1 : 0)
            if updating { q.storeBytes(of: x, toByteOffset: at, as: UInt64.self) }
        }
        while i + 32 <= bytes {
            let d = (p.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ q.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                | (p.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self) ^ q.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
                | (p.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self) ^ q.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
                | (p.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self) ^ q.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            if d != 0 { word(i); word(i + 8); word(i + 16); word(i + 24) }
            i += 32
        }
        while i + 8 <= bytes {
            word(i)
            i += 8
        }
        if i < bytes {
            let x = p.loadUnaligned(fromByteOffset: i, as: UInt32.self), y = q.loadUnaligned(fromByteOffset: i, as: UInt32.self)
            if x != y {
                n += 1
                if updating { q.storeBytes(of: x, toByteOffset: i, as: UInt32.self) }
            }
        }
        return n
    }
}
