import BristleHost

/// A rectangle of a layer's pixels (premultiplied RGBA8, rows packed), as the worker sends
/// them to the server.
struct LayerPatch: Equatable {
    enum Kind: UInt8 {
        /// The committed layer: the drawing.
        case committed = 0
        /// The preview layer: what is shown (committed plus provisional pixels).
        case preview = 1
    }

    var kind: Kind
    var rect: PixelRect
    var pixels: [UInt8]

    /// Copies `rect` (inside the layer) out of `layer`.
    init(kind: Kind, layer: Layer, rect: PixelRect) {
        self.kind = kind
        self.rect = rect
        let rowBytes = Int(rect.width) * 4
        var out = [UInt8](repeating: 0, count: rowBytes * Int(rect.height))
        out.withUnsafeMutableBytes { buffer in
            for row in 0..<Int(rect.height) {
                let source = layer.pixels + (Int(rect.y) + row) * layer.strideBytes + Int(rect.x) * 4
                (buffer.baseAddress! + row * rowBytes).copyMemory(from: source, byteCount: rowBytes)
            }
        }
        pixels = out
    }

    init(kind: Kind, rect: PixelRect, pixels: [UInt8]) {
        self.kind = kind
        self.rect = rect
        self.pixels = pixels
    }

    /// Writes the pixels into `layer` (same size as the one they came from).
    func apply(to layer: Layer) {
        let rowBytes = Int(rect.width) * 4
        pixels.withUnsafeBytes { buffer in
            for row in 0..<Int(rect.height) {
                let destination = layer.pixels + (Int(rect.y) + row) * layer.strideBytes + Int(rect.x) * 4
                UnsafeMutableRawPointer(destination).copyMemory(from: buffer.baseAddress! + row * rowBytes,
                                                                byteCount: rowBytes)
            }
        }
    }
}
