import Glibc

/// A host-owned premultiplied RGBA8 pixel buffer the size of the canvas (bristle.h, PIXELS).
///
/// Rows are padded to an odd multiple of 64 bytes (``stride(width:)``), so `strideBytes`
/// usually exceeds `width * 4`: brushes must honour the stride. The memory is zeroed
/// (transparent black; untouched pages cost nothing) and freed with the layer: from `calloc`
/// below 2 MiB, and from 2 MiB up a mapping aligned to 2 MiB and advised to use transparent
/// huge pages where the kernel has them on (``PlaneMemory``).
public final class Layer {
    public let width: Int
    public let height: Int
    public let strideBytes: Int
    public let pixels: UnsafeMutablePointer<UInt8>
    /// Where the pixels live, and how to give them back.
    let memory: PlaneMemory

    /// The largest canvas side the host accepts.
    public static let maximumSide = 65536
    /// The largest canvas area the host accepts (2^28 pixels = 1 GiB per layer).
    public static let maximumArea = 1 << 28

    /// Allocates a transparent layer, or returns nil when the size is out of range or memory
    /// is short.
    public init?(width: Int, height: Int) {
        guard width > 0, height > 0, width <= Layer.maximumSide, height <= Layer.maximumSide,
              width * height <= Layer.maximumArea else { return nil }
        let stride = Layer.stride(width: width)
        guard let memory = PlaneMemory.allocate(byteCount: stride * height) else { return nil }
        self.width = width
        self.height = height
        self.strideBytes = stride
        self.memory = memory
        self.pixels = memory.base.assumingMemoryBound(to: UInt8.self)
    }

    deinit { memory.release() }

    /// The row stride of a layer `width` pixels wide: `width * 4` rounded up to a multiple of
    /// 64 bytes, and then to an odd one. A stride that is an even multiple of 64 (8,192 bytes on
    /// a 2048-pixel canvas, a multiple of 4,096) puts the same column of successive rows into
    /// the same few sets of the CPU's 64-set level 1 data cache, so the rows of a dirty
    /// rectangle evict one another; with an odd multiple successive rows use successive sets
    /// (measured: 38 % fewer simulated L1 misses per pencil event on 2048x1536,
    /// docs/PERFORMANCE.md "The pencil's event, what it waits on").
    public static func stride(width: Int) -> Int {
        let lines = (width * 4 + 63) / 64
        return (lines | 1) * 64
    }

    /// The whole layer as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)) }

    /// The layer as a rasteriser plane.
    public var plane: RGBAPlane {
        RGBAPlane(base: pixels, width: width, height: height, strideBytes: strideBytes)
    }

    /// Copies `rect` (clipped) from another layer of the same size.
    public func copy(from source: Layer, in rect: PixelRect) {
        precondition(source.width == width && source.height == height && source.strideBytes == strideBytes)
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let offset = Int(r.x) * 4, count = Int(r.width) * 4
        for y in Int(r.y)..<Int(r.maxY) {
            let row = y * strideBytes + offset
            (pixels + row).update(from: source.pixels + row, count: count)
        }
    }

    /// Sets every pixel inside `rect` (clipped) to the premultiplied colour.
    public func fill(_ color: RGBAColor, in rect: PixelRect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let p = color.premultiplied8
        let word = UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16 | UInt32(p.a) << 24
        for y in Int(r.y)..<Int(r.maxY) {
            let row = UnsafeMutableRawPointer(pixels + y * strideBytes + Int(r.x) * 4)
            row.withMemoryRebound(to: UInt32.self, capacity: Int(r.width)) {
                $0.update(repeating: UInt32(littleEndian: word), count: Int(r.width))
            }
        }
    }

    /// True when the two layers hold the same pixels (padding ignored).
    public func hasSamePixels(as other: Layer) -> Bool {
        guard other.width == width, other.height == height else { return false }
        for y in 0..<height where memcmp(pixels + y * strideBytes, other.pixels + y * other.strideBytes, width * 4) != 0 {
            return false
        }
        return true
    }

    /// The pixels as a tightly packed premultiplied RGBA array, top row first.
    public func packedPixels() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                (buffer.baseAddress! + y * width * 4).update(from: pixels + y * strideBytes, count: width * 4)
            }
        }
        return out
    }
}
