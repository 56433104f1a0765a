import Glibc

/// Counts the pixels a draw actually changed, for ``HookTimeline/countsChangedPixels``:
/// inside what the draw reported dirty and what its services returned as drawn (the union of
/// those rectangles, each pixel once), the pixels that differ from what the layer held just
/// before the draw. Pixels a brush wrote by itself outside both are not counted.
///
/// What the layer held before the draw is the other layer, which the session keeps equal to
/// it wherever a draw may write, so the audit needs no copy of its own:
/// - a **preview** draw is compared with the committed layer: before each preview draw the
///   host has restored the preview from committed wherever the last preview draw reported
///   (restore-then-redraw), so there the two are equal.
/// - a **committed** draw (and a tick's) is compared with the preview, which the session
///   allocates when the audit starts: the host copies every committed change into it (each
///   committed draw's reported rectangles, undo, redo, clear) and restores what preview draws
///   reported before the next draw, so before a committed draw the preview equals committed.
///
/// Both rest on the draws' services drawing inside what the draws report, as the ABI asks
/// (the conformance harness checks it). A draw whose services returned a rectangle not inside
/// one of its reported rectangles (clipped to the layer) may leave the layers different where
/// the host does not copy: from then on committed draws are compared with a shadow instead, a
/// copy of committed taken after that draw and kept equal to it (every host change of
/// committed repeated into it, each compared draw bringing it up to date where it was
/// compared). Preview draws stay compared with committed; there, pixels such a brush left in
/// the preview outside what it reported count as changed again when a later preview draw
/// covers them.
///
/// The comparison reads 32 bytes (eight pixels) at a time while they are equal; per draw the
/// cost is one pass over the union of its rectangles (writing into the shadow, once there is
/// one, only the words that differ).
final class PixelAudit {
    private let committed: Layer
    private let preview: Layer
    /// Committed's bytes (same size and stride) as they were after the last committed draw or
    /// host change, once a draw's services strayed outside what it reported (see the type).
    private var shadow: UnsafeMutablePointer<UInt8>?
    /// Whether a draw's services strayed; true without ``shadow`` when there was no memory
    /// for it (then committed draws are not counted).
    private var strayed = false
    /// Scratch kept between draws (taken out while counting, so it is used as a local).
    private var scratch = Scratch()

    private struct Scratch {
        var rects: [PixelRect] = []
        var edges: [Int] = []
        var spans: [(start: Int, end: Int)] = []
    }

    /// Starts auditing draws into `committed` and `preview` (of its size), which the session
    /// keeps equal outside what preview draws reported (see the type).
    init(committed: Layer, preview: Layer) {
        self.committed = committed
        self.preview = preview
    }

    deinit { free(shadow) }

    /// Repeats a host change of `layer` inside `rect` into the shadow, when there is one and
    /// `layer` is committed.
    func sync(_ layer: Layer, in rect: PixelRect) {
        guard layer === committed, let shadow else { return }
        let r = rect.intersection(layer.bounds)
        guard !r.isEmpty else { return }
        for y in Int(r.y)..<Int(r.maxY) {
            let offset = y * layer.strideBytes + Int(r.x) * 4
            (shadow + offset).update(from: layer.pixels + offset, count: Int(r.width) * 4)
        }
    }

    /// The pixels of `layer` (committed or the preview) that its last draw changed inside the
    /// rectangles it `reported` and those its services drew into `layer` according to
    /// `timeline` since call index `firstCall`; nil for committed once a draw strayed and
    /// there was no memory for the shadow.
    func changedPixels(_ layer: Layer, reported: [PixelRect], timeline: HookTimeline, since firstCall: Int) -> Int? {
        let isCommitted = layer === committed
        if isCommitted && strayed && shadow == nil { return nil }
        var s = scratch
        scratch = Scratch()
        defer { scratch = s }
        s.rects.removeAll(keepingCapacity: true)
        s.rects.append(contentsOf: reported)
        timeline.appendServiceRects(since: firstCall, layer: isCommitted ? .committed : .preview, to: &s.rects)
        let strays = !strayed && Self.servicesStray(reported: reported.count, in: layer.bounds, s.rects)
        let reference = isCommitted ? shadow ?? preview.pixels : committed.pixels
        let changed = Self.count(layer, against: reference, updating: isCommitted && shadow != nil, &s)
        if strays { startShadow() }
        return changed
    }

    /// Whether one of the service rectangles (`rects` after the first `reported`), clipped to
    /// `bounds`, lies inside none of the reported ones.
    private static func servicesStray(reported: Int, in bounds: PixelRect, _ rects: [PixelRect]) -> Bool {
        for i in reported..<rects.count {
            let r = rects[i].intersection(bounds)
            guard !r.isEmpty else { continue }
            var inside = false
            for j in 0..<reported where contains(rects[j], r) {
                inside = true
                break
            }
            if !inside { return true }
        }
        return false
    }

    /// Takes the shadow: committed as it is now, after the draw that strayed.
    private func startShadow() {
        strayed = true
        let bytes = committed.strideBytes * committed.height
        shadow = malloc(bytes)?.assumingMemoryBound(to: UInt8.self)
        shadow?.update(from: committed.pixels, count: bytes)
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
        insertionSort(&s.edges) { $0 < $1 }
        var lower = s.edges.first ?? 0
        for e in s.edges.indices.dropFirst() where s.edges[e] > lower {
            let upper = s.edges[e]
            s.spans.removeAll(keepingCapacity: true)
            for i in 0..<kept where Int(s.rects[i].y) <= lower && Int(s.rects[i].maxY) >= upper {
                s.spans.append((Int(s.rects[i].x), Int(s.rects[i].maxX)))
            }
            insertionSort(&s.spans) { $0.start < $1.start }
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

    /// Sorts `values` by `less`: a draw has a few rectangles, and the library's sort costs
    /// more than the comparisons for so few.
    @inline(__always)
    private static func insertionSort<T>(_ values: inout [T], by less: (T, T) -> Bool) {
        for i in values.indices.dropFirst() {
            let v = values[i]
            var j = i
            while j > 0, less(v, values[j - 1]) {
                values[j] = values[j - 1]
                j -= 1
            }
            values[j] = v
        }
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
