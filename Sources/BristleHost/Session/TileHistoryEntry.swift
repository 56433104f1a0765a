import Glibc

/// One undoable step of a ``TileHistory``: the 64x64 tiles the step changed, with the content
/// each tile has *on the other side* of the step.
///
/// While the entry is on the undo side it holds the tiles as they were before the step; once
/// undone it holds them as they were after it. Undo and redo are therefore the same operation,
/// a byte swap between the entry and the layer (``swap(with:grid:)``), so a step costs one copy
/// of its changed tiles, never two.
struct TileHistoryEntry {
    /// Tile indices (row-major in the grid), in the order their pixels appear in ``pixels``.
    private(set) var tiles: [Int32] = []
    /// The tiles' pixels, tightly packed: each tile's clipped rows, top row first.
    private(set) var pixels: [UInt8] = []

    /// The memory the entry holds: its pixels plus its tile indices. Counts, not capacities:
    /// ``append(_:from:grid:)`` allocates exactly, and what the allocator rounds a buffer up to
    /// varies with the heap's state, while the budget must drop the same steps on every run.
    var bytes: Int { pixels.count + tiles.count * MemoryLayout<Int32>.stride }

    /// The ``bytes`` an entry holding exactly `tiles` would have.
    static func bytes(of tiles: [Int32], grid: TileGrid) -> Int {
        tiles.reduce(0) { total, tile in
            let r = grid.rect(of: tile)
            return total + Int(r.width) * Int(r.height) * 4 + MemoryLayout<Int32>.stride
        }
    }

    /// Appends `newTiles` (none already held), copying their pixels out of `layer`. The
    /// buffers grow to exactly the size needed, so the history's memory is what it reports.
    mutating func append(_ newTiles: [Int32], from layer: Layer, grid: TileGrid) {
        guard !newTiles.isEmpty else { return }
        let added = newTiles.reduce(0) { total, tile in
            let r = grid.rect(of: tile)
            return total + Int(r.width) * Int(r.height) * 4
        }
        // Written once each, straight into the new buffer: the old pixels, then the tiles' rows
        // (no zero fill first: appending a repeated zero went byte by byte).
        let old = pixels
        pixels = [UInt8](unsafeUninitializedCapacity: old.count + added) { buffer, count in
            var out = buffer.baseAddress!
            old.withUnsafeBufferPointer { kept in
                if let start = kept.baseAddress { out.initialize(from: start, count: kept.count) }
            }
            out += old.count
            for tile in newTiles {
                let rect = grid.rect(of: tile)
                let rowBytes = Int(rect.width) * 4
                for y in Int(rect.y)..<Int(rect.maxY) {
                    out.initialize(from: layer.pixels + y * layer.strideBytes + Int(rect.x) * 4, count: rowBytes)
                    out += rowBytes
                }
            }
            count = old.count + added
        }
        var indices = [Int32]()
        indices.reserveCapacity(tiles.count + newTiles.count)
        indices.append(contentsOf: tiles)
        indices.append(contentsOf: newTiles)
        tiles = indices
    }

    /// Exchanges the entry's tiles with the same tiles of `layer`, then copies each swapped tile
    /// from `layer` into every layer of `mirrors`. Returns the union of the swapped tiles'
    /// rectangles (empty when the entry holds no tile).
    mutating func swap(with layer: Layer, mirroring mirrors: [Layer], grid: TileGrid) -> PixelRect {
        var dirty = PixelRect.empty
        var scratch = [UInt8](repeating: 0, count: grid.tileSize * 4)
        var offset = 0
        pixels.withUnsafeMutableBufferPointer { buffer in
            scratch.withUnsafeMutableBufferPointer { temp in
                for tile in tiles {
                    let rect = grid.rect(of: tile)
                    let rowBytes = Int(rect.width) * 4
                    for y in Int(rect.y)..<Int(rect.maxY) {
                        let row = layer.pixels + y * layer.strideBytes + Int(rect.x) * 4
                        let stored = buffer.baseAddress! + offset
                        temp.baseAddress!.update(from: row, count: rowBytes)
                        row.update(from: stored, count: rowBytes)
                        stored.update(from: temp.baseAddress!, count: rowBytes)
                        offset += rowBytes
                    }
                    for mirror in mirrors { mirror.copy(from: layer, in: rect) }
                    dirty = dirty.union(rect)
                }
            }
        }
        return dirty
    }
}
