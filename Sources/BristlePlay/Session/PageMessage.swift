import BristleHost

/// The binary message that carries pixels to the page:
///
/// ```
/// u8 kind (1), u8 flags (bit 0: committed pixels), u16 0, u32 first seq, u32 last seq,
/// u32 count, count x { u32 x, u32 y, u32 width, u32 height, width*height*4 bytes RGBA }
/// ```
///
/// little-endian, pixels row by row, already flattened over the canvas background (opaque, so
/// the page's canvas holds exactly the pixels of `canvas.png`). It answers the page's input
/// messages numbered first...last (0...0: none).
enum PageMessage {
    static let patchKind: UInt8 = 1

    static func patches(_ patches: [LayerPatch], seqs: ClosedRange<UInt32>, background: RGBAColor) -> [UInt8] {
        var w = ByteWriter(capacity: 16 + patches.reduce(0) { $0 + 16 + $1.pixels.count })
        w.u8(patchKind)
        w.u8(patches.contains { $0.kind == .committed } ? 1 : 0)
        w.u8(0)
        w.u8(0)
        w.u32(seqs.lowerBound)
        w.u32(seqs.upperBound)
        w.u32(UInt32(patches.count))
        for p in patches {
            w.u32(UInt32(p.rect.x))
            w.u32(UInt32(p.rect.y))
            w.u32(UInt32(p.rect.width))
            w.u32(UInt32(p.rect.height))
            var flat = [UInt8](repeating: 0, count: p.pixels.count)
            let rowBytes = Int(p.rect.width) * 4
            p.pixels.withUnsafeBytes { source in
                flat.withUnsafeMutableBytes { destination in
                    PixelConversion.flatten(premultiplied: source, sourceStrideBytes: rowBytes, over: background,
                                            into: destination, destinationStrideBytes: rowBytes,
                                            width: Int(p.rect.width), height: Int(p.rect.height))
                }
            }
            w.raw(flat)
        }
        return w.bytes
    }

    /// A status line: `{"type": "status", "level": "info"|"error", "text": ...}`.
    static func status(_ text: String, error: Bool) -> String {
        JSONText.object([("type", JSONText.string("status")), ("level", JSONText.string(error ? "error" : "info")),
                         ("text", JSONText.string(text))])
    }
}
