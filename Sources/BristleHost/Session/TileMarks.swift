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

    /// Adds every tile of `grid` that `rect` overlaps.
    mutating func insert(covering rect: PixelRect, of grid: TileGrid) {
        grid.forEachTile(covering: rect) { insert($0) }
    }

    /// Empties the set, in time proportional to what it held.
    mutating func removeAll() {
        for tile in tiles { bits[Int(tile) >> 6] = 0 }
        tiles.removeAll(keepingCapacity: true)
    }
}
