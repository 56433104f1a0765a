import BristleHost
import CBristleHarness
import Glibc

/// A premultiplied RGBA8 pixel buffer laid out to catch a brush touching memory it must not.
///
/// - Rows are `width * 4 + padding` bytes apart (``defaultPadding`` unless told: odd paddings
///   catch a brush that assumes a stride divisible by 4 or 64), every padding byte holding a
///   sentinel.
/// - The buffer sits between `PROT_NONE` guard pages (each at least a row long). ``Placement/endAligned`` puts the last
///   byte of the last pixel flush against the page after it (the last row's padding is not
///   mapped, which the ABI allows: it belongs to the host), so even a one-byte overrun or
///   over-read there is a SIGSEGV; ``Placement/startAligned`` puts the first pixel flush
///   after the page before it; ``Placement/rowGuarded`` ends *every* row flush against a guard
///   page of its own, so a brush that writes into the padding and restores it before
///   returning, or merely reads it, dies at once.
/// - The slack between the buffer and a guard page holds the sentinel too, and ``damage()``
///   checks it along with the readable padding.
/// - The pixels start transparent; untouched pages of a large canvas cost no memory.
/// - The mapping is registered with the fault handler (`bristle_guard_register`): a SIGSEGV in
///   it is reported as "wrote byte 0 past the last pixel of the committed pixels ...".
///
/// Every comparison works row by row with `memcmp`, so the checks after each draw cost a few
/// microseconds on the small canvases most tests use.
public final class GuardedCanvas {
    /// Where the buffer sits in its mapping.
    public enum Placement: String, Sendable {
        case endAligned, startAligned, rowGuarded
    }

    public let width: Int
    public let height: Int
    public let strideBytes: Int
    public let pixels: UnsafeMutablePointer<UInt8>
    public let placement: Placement
    /// What the canvas is, for messages: "committed", "base", ...
    public let name: String

    /// The byte every padding and slack byte holds.
    public static let sentinel: UInt8 = 0xA7
    /// Padding at the end of each row unless told otherwise (a multiple of 4 that is not a
    /// multiple of 64, so that a brush assuming `stride == width * 4` or a 64-byte stride draws
    /// skewed).
    public static let defaultPadding = 20

    private let mapping: UnsafeMutableRawPointer
    private let mappingSize: Int
    /// The read-write parts of the mapping (one, or one per row when row-guarded).
    private let writable: [(start: UnsafeMutableRawPointer, size: Int)]
    /// The sentinel-holding bytes: readable padding of rows 0..<height-1 starts this far into
    /// each row and runs to the next row; slack runs before the first pixel and after the last.
    private let paddingStart: Int
    private let slackBefore: (start: UnsafeMutablePointer<UInt8>, count: Int)
    private let slackAfter: (start: UnsafeMutablePointer<UInt8>, count: Int)
    private let sentinelRow: [UInt8]
    private let faultRegion: Int32

    /// Maps a transparent canvas; nil when the mapping fails. `padding` is ignored for
    /// ``Placement/rowGuarded``, whose rows are a whole number of pages apart.
    public init?(width: Int, height: Int, placement: Placement = .endAligned, padding: Int = defaultPadding,
                 name: String = "canvas") {
        guard width > 0, height > 0, padding >= 0 else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let rowBytes = width * 4
        let stride = placement == .rowGuarded ? (rowBytes + page - 1) / page * page + page : rowBytes + padding
        let size = stride * (height - 1) + rowBytes
        let dataPages = placement == .rowGuarded ? stride * height - page : (size + page - 1) / page * page
        // Each guard is at least a row long, so that a whole row written past either end of a
        // wide canvas faults too instead of reaching a neighbouring mapping (costs no memory).
        let guardBytes = (stride + page - 1) / page * page
        let total = dataPages + 2 * guardBytes
        guard let map = mmap(nil, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), map != MAP_FAILED else { return nil }
        let dataStart = map + guardBytes
        var writable: [(start: UnsafeMutableRawPointer, size: Int)] = [(dataStart, dataPages)]
        if placement == .rowGuarded { writable = (0..<height).map { (dataStart + $0 * stride, stride - page) } }
        for part in writable where mprotect(part.start, part.size, PROT_READ | PROT_WRITE) != 0 {
            munmap(map, total)
            return nil
        }
        let first: UnsafeMutableRawPointer = switch placement {
        case .endAligned: dataStart + (dataPages - size)
        case .startAligned: dataStart
        case .rowGuarded: dataStart + (stride - page - rowBytes)
        }
        mapping = map
        mappingSize = total
        self.writable = writable
        self.width = width
        self.height = height
        self.strideBytes = stride
        self.placement = placement
        self.name = name
        pixels = first.assumingMemoryBound(to: UInt8.self)
        paddingStart = rowBytes + (placement == .rowGuarded ? page : 0)
        let bytes = dataStart.assumingMemoryBound(to: UInt8.self)
        slackBefore = (bytes, pixels - bytes)
        let end = pixels + size
        slackAfter = (end, placement == .rowGuarded ? 0 : bytes + dataPages - end)
        sentinelRow = [UInt8](repeating: Self.sentinel, count: max(stride - paddingStart, page))
        slackBefore.start.initialize(repeating: Self.sentinel, count: slackBefore.count)
        slackAfter.start.initialize(repeating: Self.sentinel, count: slackAfter.count)
        for y in 0..<(height - 1) {
            (pixels + y * stride + paddingStart).initialize(repeating: Self.sentinel, count: stride - paddingStart)
        }
        faultRegion = bristle_guard_register(map, map + total, pixels, end, stride, rowBytes, height, "")
        label(nil)
    }

    deinit {
        bristle_guard_unregister(faultRegion)
        munmap(mapping, mappingSize)
    }

    /// The canvas as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)) }

    // MARK: Handing the buffer out and taking it back

    /// Makes every pixel, padding and slack byte inaccessible: the buffer was handed to `call`,
    /// which has returned, and a later access is reported as using memory after the hook
    /// returned.
    public func retire(after call: String) {
        label(call)
        for part in writable { mprotect(part.start, part.size, PROT_NONE) }
    }

    /// Makes the buffer accessible again (to be handed out anew).
    public func reinstate() {
        for part in writable { mprotect(part.start, part.size, PROT_READ | PROT_WRITE) }
        label(nil)
    }

    private func label(_ retiredAfter: String?) {
        let what = "the \(name) pixels (\(width)x\(height), stride \(strideBytes))"
        if let call = retiredAfter {
            bristle_guard_relabel(faultRegion, "\(what) handed to \(call), after that call returned", 1)
        } else {
            bristle_guard_relabel(faultRegion, placement == .rowGuarded ? "\(what), whose rows each end at a guard page" : what, 0)
        }
    }

    // MARK: Pixels

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
        var out: [UInt8] = []
        snapshot(into: &out)
        return out
    }

    /// Fills `buffer` (resized if needed) with the packed pixels of `window` (clipped; the whole
    /// canvas by default), reusing its storage.
    public func snapshot(into buffer: inout [UInt8], window: PixelRect? = nil) {
        let w = (window ?? bounds).intersection(bounds)
        let rowBytes = Int(w.width) * 4
        let count = rowBytes * Int(w.height)
        if buffer.count != count { buffer = [UInt8](repeating: 0, count: count) }
        guard count > 0 else { return }
        buffer.withUnsafeMutableBufferPointer { out in
            for y in 0..<Int(w.height) {
                (out.baseAddress! + y * rowBytes).update(from: pixel(Int(w.x), Int(w.y) + y), count: rowBytes)
            }
        }
    }

    /// True when the pixels equal a packed snapshot.
    public func matches(_ packed: [UInt8]) -> Bool { firstDifference(from: packed) == nil }

    /// The first pixel (x, y) that differs from a packed snapshot of the whole canvas, or nil.
    public func firstDifference(from packed: [UInt8]) -> (x: Int, y: Int)? {
        firstDifference(from: packed, outsideAll: DirtyRegion())
    }

    /// The first pixel outside `rect` that differs from the same pixel of `other` (a canvas of
    /// the same size), or nil. Parts of rows on pages neither canvas ever touched (zeros in
    /// both, see ``TouchedPages``) are skipped, so a large canvas costs what was drawn on it.
    public func firstDifference(from other: GuardedCanvas, outside rect: PixelRect) -> (x: Int, y: Int)? {
        let r = rect.intersection(bounds)
        let mine = TouchedPages(pixels, bytes: strideBytes * (height - 1) + width * 4)
        let theirs = TouchedPages(other.pixels, bytes: other.strideBytes * (height - 1) + width * 4)
        let chunk = max(1, TouchedPages.pageSize / 4)
        for y in 0..<height {
            let a = pixel(0, y), b = other.pixel(0, y)
            let inside = !r.isEmpty && y >= Int(r.y) && y < Int(r.maxY)
            var x = 0
            while x < width {
                var end = min(width, x + chunk)
                if inside, x < Int(r.maxX), end > Int(r.x) {
                    if x >= Int(r.x) { x = Int(r.maxX); continue }
                    end = Int(r.x)
                }
                if mine.any(a + x * 4, count: (end - x) * 4) || theirs.any(b + x * 4, count: (end - x) * 4),
                   memcmp(a + x * 4, b + x * 4, (end - x) * 4) != 0 {
                    return (Self.firstColumn(a, b, x, end), y)
                }
                x = end
            }
        }
        return nil
    }

    private static func firstColumn(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var x = from
        while x < to, memcmp(a + x * 4, b + x * 4, 4) == 0 { x += 1 }
        return x
    }

    /// The first pixel of `rect` (clipped) whose colour channels are not all <= its alpha
    /// (not premultiplied), or nil.
    public func firstUnpremultiplied(in rect: PixelRect) -> (x: Int, y: Int)? {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return nil }
        for y in Int(r.y)..<Int(r.maxY) {
            let row = pixel(0, y)
            for x in Int(r.x)..<Int(r.maxX) {
                let p = row + x * 4
                if p[0] > p[3] || p[1] > p[3] || p[2] > p[3] { return (x, y) }
            }
        }
        return nil
    }

    /// The pixel at (x, y) as "(r,g,b,a)".
    public func describePixel(x: Int, y: Int) -> String {
        let p = pixel(x, y)
        return "(\(p[0]),\(p[1]),\(p[2]),\(p[3]))"
    }

    @inline(__always)
    private func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> { pixels + y * strideBytes + x * 4 }

    // MARK: Sentinels

    /// Where a sentinel byte was overwritten: a row's padding or the slack around the buffer;
    /// nil when all are intact.
    public func damage() -> String? {
        let rowBytes = width * 4
        let count = strideBytes - paddingStart
        if count > 0 {
            for y in 0..<(height - 1) {
                let pad = pixels + y * strideBytes + paddingStart
                guard memcmp(pad, sentinelRow, count) != 0 else { continue }
                let i = (0..<count).first { pad[$0] != Self.sentinel }!
                let byte = paddingStart - rowBytes + i
                return "padding byte \(byte) after row \(y) (offset \(y * strideBytes + rowBytes + byte) from pixels) "
                    + "changed from 0x\(String(Self.sentinel, radix: 16)) to 0x\(String(pad[i], radix: 16))"
            }
        }
        if let i = firstChanged(slackBefore) { return "byte \(slackBefore.count - i - 1) before the first pixel changed" }
        if let i = firstChanged(slackAfter) { return "byte \(i) after the last pixel changed" }
        return nil
    }

    /// The index of the first byte of `span` that is not the sentinel, compared in chunks.
    private func firstChanged(_ span: (start: UnsafeMutablePointer<UInt8>, count: Int)) -> Int? {
        var offset = 0
        while offset < span.count {
            let n = min(sentinelRow.count, span.count - offset)
            if memcmp(span.start + offset, sentinelRow, n) != 0 {
                return offset + (0..<n).first { span.start[offset + $0] != Self.sentinel }!
            }
            offset += n
        }
        return nil
    }

    /// The largest channel difference and the number of differing pixels against another canvas
    /// of the same size.
    public func difference(from other: GuardedCanvas) -> (maxDelta: Int, pixels: Int) {
        var maxDelta = 0, count = 0
        for y in 0..<height {
            let a = pixel(0, y), b = other.pixel(0, y)
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
