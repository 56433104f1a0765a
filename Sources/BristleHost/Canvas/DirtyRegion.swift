/// The pixels one draw changed, as a small list of rectangles (at most ``capacity``): what a
/// brush reported in its dirty list (bristle.h, `bristle_target_t.dirty_list`, since 1.2), or
/// its one `*dirty` rectangle. The host restores and copies only inside these rectangles, so a
/// rubber-band outline costs its strips, not its bounding box.
///
/// Adding merges sensibly: a rectangle inside another is dropped; two that overlap or lie close
/// become their union when that union wastes little (at most an eighth of their area, plus 64
/// pixels), so the same pixels are rarely copied twice; past ``capacity`` the two rectangles
/// whose union wastes least are merged. The rectangles always cover everything added.
public struct DirtyRegion: Sendable, Equatable {
    /// The most rectangles a region keeps (the ABI's BRISTLE_MAX_DIRTY_RECTS).
    public static let capacity = Int(BRISTLE_MAX_DIRTY_RECTS)

    /// The rectangles, none empty; they may overlap a little.
    public private(set) var rects: [PixelRect] = []

    public init() { rects.reserveCapacity(Self.capacity + 1) }

    /// A region of one rectangle (none when it is empty).
    public init(_ rect: PixelRect) {
        self.init()
        add(rect)
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// The smallest rectangle containing the region (its one rectangle, a drawing event's
    /// usual region, without a union).
    public var bounds: PixelRect { rects.count == 1 ? rects[0] : rects.reduce(PixelRect.empty) { $0.union($1) } }

    /// True when `x`, `y` lies in one of the rectangles.
    public func contains(x: Int32, y: Int32) -> Bool {
        rects.contains { x >= $0.x && y >= $0.y && Int64(x) < $0.maxX && Int64(y) < $0.maxY }
    }

    /// Empties the region, keeping its storage. One `removeLast` per rectangle (a region holds
    /// a few): `removeAll(keepingCapacity:)` goes through the generic `replaceSubrange`, about
    /// a hundred instructions, once per drawing event.
    public mutating func removeAll() {
        while !rects.isEmpty { rects.removeLast() }
    }

    /// Adds `rect` (empty ones are ignored), merging as the type describes.
    public mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        var r = rect
        var i = 0
        while i < rects.count {
            let e = rects[i]
            if e.contains(r) { return }
            if r.contains(e) || Self.waste(e, r) <= Self.slack(e, r) {
                r = r.union(e)
                rects.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(r)
        if rects.count > Self.capacity { mergeCheapestPair() }
    }

    /// Pixels of `a ∪ b` in neither `a` nor `b`.
    static func waste(_ a: PixelRect, _ b: PixelRect) -> Int64 {
        a.union(b).area - a.area - b.area + a.intersection(b).area
    }

    /// How much waste a merge may add.
    static func slack(_ a: PixelRect, _ b: PixelRect) -> Int64 { 64 + (a.area + b.area) / 8 }

    private mutating func mergeCheapestPair() {
        var best = (0, 1), least = Int64.max
        for i in rects.indices {
            for j in rects.indices where j > i {
                let w = Self.waste(rects[i], rects[j])
                if w < least { least = w; best = (i, j) }
            }
        }
        let merged = rects[best.0].union(rects[best.1])
        rects.remove(at: best.1)
        rects.remove(at: best.0)
        add(merged)
    }
}

extension PixelRect {
    /// Width times height; 0 when empty.
    var area: Int64 { isEmpty ? 0 : Int64(width) * Int64(height) }
}
