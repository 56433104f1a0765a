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

    /// The memory the entry accounts for: its pixels plus its tile index list.
    var bytes: Int { pixels.count + tiles.count * MemoryLayout<Int32>.stride }

    /// True when the entry already holds `tile`.
    func contains(_ tile: Int32) -> Bool { tiles.contains(tile) }

    /// Appends `tile`, copying its pixels out of `layer`.
    mutating func append(_ tile: Int32, from layer: Layer, grid: TileGrid) {
        let rect = grid.rect(of: tile)
        let rowBytes = Int(rect.width) * 4
        let start = pixels.count
        pixels.append(contentsOf: repeatElement(0, count: rowBytes * Int(rect.height)))
        pixels.withUnsafeMutableBufferPointer { buffer in
            var out = buffer.baseAddress! + start
            for y in Int(rect.y)..<Int(rect.maxY) {
                out.update(from: layer.pixels + y * layer.strideBytes + Int(rect.x) * 4, count: rowBytes)
                out += rowBytes
            }
        }
        tiles.append(tile)
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
