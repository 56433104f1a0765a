import BristleHost
import Glibc

/// A premultiplied RGBA8 pixel buffer laid out to catch a brush writing where it must not.
///
/// - Rows are `width * 4 + paddingBytes` apart, and every padding byte holds a sentinel.
/// - The buffer sits between two `PROT_NONE` guard pages, aligned against the one after it
///   (``Placement/endAligned``, catching overruns such as a row past the end) or the one
///   before it (``Placement/startAligned``, catching underruns). A write into a guard page is
///   a SIGSEGV: the harness's child process dies and the parent reports a crash.
/// - The slack between the buffer and the guard page on its other side holds the sentinel
///   too, and ``damage()`` checks it along with the padding.
///
/// Every comparison works row by row with `memcmp`, so the checks after each draw cost a few
/// microseconds on the small canvases the tests use.
public final class GuardedCanvas {
    /// Where the buffer sits in its mapping.
    public enum Placement: String, Sendable {
        case endAligned, startAligned
    }

    public let width: Int
    public let height: Int
    public let strideBytes: Int
    public let pixels: UnsafeMutablePointer<UInt8>
    public let placement: Placement

    /// The byte every padding and slack byte holds.
    public static let sentinel: UInt8 = 0xA7
    /// Padding at the end of each row (a multiple of 4 that is not a multiple of 64, so that
    /// a brush assuming `stride == width * 4` or a 64-byte stride draws skewed).
    public static let paddingBytes = 20

    private let mapping: UnsafeMutableRawPointer
    private let mappingSize: Int
    private let dataStart: UnsafeMutablePointer<UInt8>
    private let dataSize: Int

    /// Maps a transparent canvas; nil when the mapping fails.
    public init?(width: Int, height: Int, placement: Placement = .endAligned) {
        guard width > 0, height > 0 else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let stride = width * 4 + Self.paddingBytes
        let size = stride * height
        let dataPages = (size + page - 1) / page * page
        let total = dataPages + 2 * page
        guard let map = mmap(nil, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              map != MAP_FAILED else { return nil }
        guard mprotect(map + page, dataPages, PROT_READ | PROT_WRITE) == 0 else {
            munmap(map, total)
            return nil
        }
        mapping = map
        mappingSize = total
        dataStart = (map + page).assumingMemoryBound(to: UInt8.self)
        dataSize = dataPages
        self.width = width
        self.height = height
        self.strideBytes = stride
        self.placement = placement
        pixels = placement == .endAligned ? dataStart + (dataPages - size) : dataStart
        dataStart.initialize(repeating: Self.sentinel, count: dataPages)
        for y in 0..<height { (pixels + y * stride).initialize(repeating: 0, count: width * 4) }
    }

    deinit { munmap(mapping, mappingSize) }

    /// The canvas as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)) }

    /// Sets every pixel to one premultiplied RGBA value.
    public func fill(_ rgba: (UInt8, UInt8, UInt8, UInt8)) {
        var row = [UInt8](repeating: 0, count: width * 4)
        for x in 0..<width {
            row[x * 4] = rgba.0
            row[x * 4 + 1] = rgba.1
            row[x * 4 + 2] = rgba.2
            row[x * 4 + 3] = rgba.3
        }
        for y in 0..<height { (pixels + y * strideBytes).update(from: row, count: width * 4) }
    }

    /// Copies `rect` (clipped) from a canvas of the same size.
    public func copy(from source: GuardedCanvas, in rect: PixelRect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let offset = Int(r.x) * 4, count = Int(r.width) * 4
        for y in Int(r.y)..<Int(r.maxY) {
            (pixels + y * strideBytes + offset).update(from: source.pixels + y * source.strideBytes + offset,
                                                       count: count)
        }
    }

    /// The pixels, tightly packed, top row first (padding left out).
    public func snapshot() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        snapshot(into: &out)
        return out
    }

    /// Fills `buffer` (resized if needed) with the packed pixels, reusing its storage.
    public func snapshot(into buffer: inout [UInt8]) {
        if buffer.count != width * height * 4 { buffer = [UInt8](repeating: 0, count: width * height * 4) }
        let rowBytes = width * 4
        buffer.withUnsafeMutableBufferPointer { out in
            for y in 0..<height { (out.baseAddress! + y * rowBytes).update(from: pixels + y * strideBytes, count: rowBytes) }
        }
    }

    /// True when the pixels equal a packed snapshot.
    public func matches(_ packed: [UInt8]) -> Bool { firstDifference(from: packed, outside: .empty) == nil }

    /// The first pixel (x, y) that differs from the packed snapshot and lies outside `rect`,
    /// or nil when every change is inside it.
    public func firstDifference(from packed: [UInt8], outside rect: PixelRect) -> (x: Int, y: Int)? {
        let r = rect.intersection(bounds)
        let rowBytes = width * 4
        return packed.withUnsafeBufferPointer { old -> (x: Int, y: Int)? in
            for y in 0..<height {
                let now = pixels + y * strideBytes, was = old.baseAddress! + y * rowBytes
                if r.isEmpty || y < Int(r.y) || y >= Int(r.maxY) {
                    if memcmp(now, was, rowBytes) != 0 { return (Self.firstColumn(now, was, 0, width), y) }
                    continue
                }
                let left = Int(r.x), right = Int(r.maxX)
                if left > 0, memcmp(now, was, left * 4) != 0 { return (Self.firstColumn(now, was, 0, left), y) }
                if right < width, memcmp(now + right * 4, was + right * 4, (width - right) * 4) != 0 {
                    return (Self.firstColumn(now, was, right, width), y)
                }
            }
            return nil
        }
    }

    private static func firstColumn(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var x = from
        while x < to, memcmp(a + x * 4, b + x * 4, 4) == 0 { x += 1 }
        return x
    }

    /// The pixel at (x, y) as "(r,g,b,a)".
    public func describePixel(x: Int, y: Int) -> String {
        let p = pixels + y * strideBytes + x * 4
        return "(\(p[0]),\(p[1]),\(p[2]),\(p[3]))"
    }

    /// Where a sentinel byte was overwritten: a row's padding or the slack around the buffer;
    /// nil when all are intact.
    public func damage() -> String? {
        let rowBytes = width * 4
        for y in 0..<height {
            let pad = pixels + y * strideBytes + rowBytes
            for i in 0..<Self.paddingBytes where pad[i] != Self.sentinel {
                return "padding byte \(i) after row \(y) (offset \(y * strideBytes + rowBytes + i) from pixels) "
                    + "changed from 0x\(String(Self.sentinel, radix: 16)) to 0x\(String(pad[i], radix: 16))"
            }
        }
        let before = pixels - dataStart
        for i in 0..<before where dataStart[i] != Self.sentinel {
            return "byte \(before - i) before the first pixel changed"
        }
        let end = before + strideBytes * height
        for i in end..<dataSize where dataStart[i] != Self.sentinel {
            return "byte \(i - end) after the end of the buffer changed"
        }
        return nil
    }

    /// The largest channel difference and the number of differing pixels against another canvas
    /// of the same size.
    public func difference(from other: GuardedCanvas) -> (maxDelta: Int, pixels: Int) {
        var maxDelta = 0, count = 0
        for y in 0..<height {
            let a = pixels + y * strideBytes, b = other.pixels + y * other.strideBytes
            if memcmp(a, b, width * 4) == 0 { continue }
            for x in 0..<width {
                var differs = false
                for c in 0..<4 {
                    let d = abs(Int(a[x * 4 + c]) - Int(b[x * 4 + c]))
                    if d > 0 { differs = true; maxDelta = max(maxDelta, d) }
                }
                if differs { count += 1 }
            }
        }
        return (maxDelta, count)
    }
}
