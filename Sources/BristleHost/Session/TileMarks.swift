/// A set of tiles of a ``TileGrid``: one bit per tile plus the list of marked tiles, so that
/// marking, testing and visiting the marked tiles cost what is marked, never the canvas.
struct TileMarks {
    private var bits: [UInt64]
    /// The marked tiles, each once, in the order they were first marked.
    private(set) var tiles: [Int32] = []

    /// An empty set for a grid of `count` tiles.
    init(count: Int) {
        bits = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    var isEmpty: Bool { tiles.isEmpty }

    func contains(_ tile: Int32) -> Bool {
        bits[Int(tile) >> 6] & (1 << UInt64(Int(tile) & 63)) != 0
    }

    /// Adds `tile` (nothing when it is already marked).
    mutating func insert(_ tile: Int32) {
        let word = Int(tile) >> 6, bit = UInt64(1) << UInt64(Int(tile) & 63)
        guard bits[word] & bit == 0 else { return }
        bits[word] |= bit
        tiles.append(tile)
    }

    /// The tile span of the last ``insert(covering:of:)`` (all of it marked), or an empty span
    /// (`c0 > c1`) after ``removeAll()``: a drawing event's rectangle usually lies in the same
    /// tiles as the one before, and then marks nothing new.
    private var lastSpan = (c0: 1, c1: 0, r0: 1, r1: 0)

    /// Adds every tile of `grid` that `rect` overlaps (nothing to do when they all lie in the
    /// span the previous call marked).
    mutating func insert(covering rect: PixelRect, of grid: TileGrid) {
        guard let s = grid.span(covering: rect) else { return }
        let last = lastSpan
        if s.c0 >= last.c0 && s.c1 <= last.c1 && s.r0 >= last.r0 && s.r1 <= last.r1 { return }
        grid.forEachTile(in: s) { insert($0) }
        lastSpan = s
    }

    /// Empties the set, in time proportional to what it held.
    mutating func removeAll() {
        for tile in tiles { bits[Int(tile) >> 6] = 0 }
        tiles.removeAll(keepingCapacity: true)
        lastSpan = (1, 0, 1, 0)
    }
}
