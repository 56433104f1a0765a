import BristleHost

/// The peers' canvas: a premultiplied RGBA8 layer reset to opaque white before each
/// repetition, saved as an opaque PNG (so PNG bytes equal the premultiplied pixels).
final class BenchCanvas {
    let layer: Layer

    /// A `width x height` canvas; fails with exit status 70 when memory is short.
    init(width: Int, height: Int) throws(BenchError) {
        guard let layer = Layer(width: width, height: height) else {
            throw BenchError("cannot allocate a \(width)x\(height) canvas", exitStatus: 70)
        }
        self.layer = layer
    }

    /// Every byte 0xFF.
    func resetToWhite() {
        layer.pixels.update(repeating: 0xFF, count: layer.strideBytes * layer.height)
    }

    /// Writes the canvas as a PNG atomically (default options: fast, durable).
    func writePNG(to path: String, options: PNGWriteOptions = .default) throws(BenchError) {
        do {
            try PNGCodec.write(premultipliedRGBA: UnsafeRawBufferPointer(start: layer.pixels,
                                                                        count: layer.strideBytes * layer.height),
                               width: layer.width, height: layer.height, strideBytes: layer.strideBytes,
                               to: path, options: options)
        } catch {
            throw BenchError.png(error)
        }
    }
}
