/// Conversions between premultiplied RGBA8 (how layers store pixels) and straight RGBA8
/// (how PNG files store them), plus flattening a layer over a background.
///
/// Every function works on whole buffers with a row stride in bytes and touches only the
/// first `width * 4` bytes of each row. Source and destination may be the *same* memory
/// with the same stride (in-place conversion); any other overlap is not allowed.
/// No function allocates per pixel.
///
/// Rounding: premultiplying gives `round(c * a / 255)`; unpremultiplying gives
/// `min(255, round(p * 255 / a))` and all zeros for `a == 0`. For every premultiplied pair
/// `p <= a`, premultiply(unpremultiply(p)) == p.
public enum PixelConversion {
    /// `unpremultiplyTable[a << 8 | p] == min(255, round(p * 255 / a))`; row `a == 0` is 0.
    static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for p in 0..<256 {
                table[a << 8 | p] = UInt8(min(255, (p * 255 + a / 2) / a))
            }
        }
        return table
    }()

    /// `round(x * y / 255)` for `x, y` in `0...255`, exactly.
    @inline(__always)
    static func mul255(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let t = x * y + 128
        return (t + (t >> 8)) >> 8
    }

    // MARK: - Premultiplied -> straight

    /// Converts premultiplied RGBA8 to straight RGBA8.
    public static func unpremultiply(_ source: UnsafeRawBufferPointer, sourceStrideBytes: Int,
                                     into destination: UnsafeMutableRawBufferPointer,
                                     destinationStrideBytes: Int, width: Int, height: Int) {
        guard checkLayout(source.count, sourceStrideBytes, destination.count, destinationStrideBytes,
                          width, height) else { return }
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
        unpremultiplyTable.withUnsafeBufferPointer { table in
            let table = table.baseAddress!
            for y in 0..<height {
                let s = src + y * sourceStrideBytes
                let d = dst + y * destinationStrideBytes
                for i in stride(from: 0, to: width * 4, by: 4) {
                    let a = s[i + 3]
                    if a == 255 {
                        d[i] = s[i]; d[i + 1] = s[i + 1]; d[i + 2] = s[i + 2]; d[i + 3] = 255
                    } else {
                        let row = table + Int(a) << 8
                        d[i] = row[Int(s[i])]
                        d[i + 1] = row[Int(s[i + 1])]
                        d[i + 2] = row[Int(s[i + 2])]
                        d[i + 3] = a
                    }
                }
            }
        }
    }

    /// Converts premultiplied RGBA8 to straight RGBA8 in place.
    public static func unpremultiply(_ pixels: inout [UInt8], width: Int, height: Int, strideBytes: Int? = nil) {
        let rowBytes = strideBytes ?? width * 4
        pixels.withUnsafeMutableBytes { buffer in
            unpremultiply(UnsafeRawBufferPointer(buffer), sourceStrideBytes: rowBytes, into: buffer,
                          destinationStrideBytes: rowBytes, width: width, height: height)
        }
    }

    /// Returns straight RGBA8, tightly packed, from premultiplied `pixels`.
    public static func unpremultiplied(_ pixels: [UInt8], width: Int, height: Int,
                                       strideBytes: Int? = nil) -> [UInt8] {
        convertedCopy(pixels, width: width, height: height, strideBytes: strideBytes, unpremultiply)
    }

    /// Returns straight RGBA8 from tightly packed premultiplied `pixels` (whole pixels, any
    /// image shape: every pixel converts on its own).
    public static func unpremultiplied(_ pixels: [UInt8]) -> [UInt8] {
        precondition(pixels.count % 4 == 0, "\(pixels.count) bytes is not a whole number of RGBA8 pixels")
        return unpremultiplied(pixels, width: pixels.count / 4, height: 1)
    }

    // MARK: - Straight -> premultiplied

    /// Converts straight RGBA8 to premultiplied RGBA8 (`round(c * a / 255)`).
    public static func premultiply(_ source: UnsafeRawBufferPointer, sourceStrideBytes: Int,
                                   into destination: UnsafeMutableRawBufferPointer,
                                   destinationStrideBytes: Int, width: Int, height: Int) {
        guard checkLayout(source.count, sourceStrideBytes, destination.count, destinationStrideBytes,
                          width, height) else { return }
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            let s = src + y * sourceStrideBytes
            let d = dst + y * destinationStrideBytes
            for i in stride(from: 0, to: width * 4, by: 4) {
                let a = s[i + 3]
                if a == 255 {
                    d[i] = s[i]; d[i + 1] = s[i + 1]; d[i + 2] = s[i + 2]; d[i + 3] = 255
                } else if a == 0 {
                    d[i] = 0; d[i + 1] = 0; d[i + 2] = 0; d[i + 3] = 0
                } else {
                    let a32 = UInt32(a)
                    d[i] = UInt8(truncatingIfNeeded: mul255(UInt32(s[i]), a32))
                    d[i + 1] = UInt8(truncatingIfNeeded: mul255(UInt32(s[i + 1]), a32))
                    d[i + 2] = UInt8(truncatingIfNeeded: mul255(UInt32(s[i + 2]), a32))
                    d[i + 3] = a
                }
            }
        }
    }

    /// Converts straight RGBA8 to premultiplied RGBA8 in place.
    public static func premultiply(_ pixels: inout [UInt8], width: Int, height: Int, strideBytes: Int? = nil) {
        let rowBytes = strideBytes ?? width * 4
        pixels.withUnsafeMutableBytes { buffer in
            premultiply(UnsafeRawBufferPointer(buffer), sourceStrideBytes: rowBytes, into: buffer,
                        destinationStrideBytes: rowBytes, width: width, height: height)
        }
    }

    /// Returns premultiplied RGBA8, tightly packed, from straight `pixels`.
    public static func premultiplied(_ pixels: [UInt8], width: Int, height: Int,
                                     strideBytes: Int? = nil) -> [UInt8] {
        convertedCopy(pixels, width: width, height: height, strideBytes: strideBytes, premultiply)
    }

    /// Returns premultiplied RGBA8 from tightly packed straight `pixels` (whole pixels, any
    /// image shape).
    public static func premultiplied(_ pixels: [UInt8]) -> [UInt8] {
        precondition(pixels.count % 4 == 0, "\(pixels.count) bytes is not a whole number of RGBA8 pixels")
        return premultiplied(pixels, width: pixels.count / 4, height: 1)
    }

    // MARK: - Flattening

    /// Composites a premultiplied layer over a solid `background` (source-over) and writes
    /// premultiplied RGBA8: `out = src + background * (1 - src.a)`, each term rounded to
    /// nearest. Over an opaque background every output alpha is 255, so the result is also
    /// valid straight RGBA8 (ready for ``PNGCodec``). Over a transparent background the layer
    /// is copied unchanged.
    public static func flatten(premultiplied source: UnsafeRawBufferPointer, sourceStrideBytes: Int,
                               over background: RGBAColor,
                               into destination: UnsafeMutableRawBufferPointer,
                               destinationStrideBytes: Int, width: Int, height: Int) {
        guard checkLayout(source.count, sourceStrideBytes, destination.count, destinationStrideBytes,
                          width, height) else { return }
        let bg = background.premultiplied8
        let br = UInt32(bg.r), bgG = UInt32(bg.g), bb = UInt32(bg.b), ba = UInt32(bg.a)
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            let s = src + y * sourceStrideBytes
            let d = dst + y * destinationStrideBytes
            for i in stride(from: 0, to: width * 4, by: 4) {
                let a = s[i + 3]
                if a == 255 {
                    d[i] = s[i]; d[i + 1] = s[i + 1]; d[i + 2] = s[i + 2]; d[i + 3] = 255
                } else if a == 0 && s[i] == 0 && s[i + 1] == 0 && s[i + 2] == 0 {
                    d[i] = bg.r; d[i + 1] = bg.g; d[i + 2] = bg.b; d[i + 3] = bg.a
                } else {
                    let k = 255 - UInt32(a)
                    d[i] = UInt8(min(255, UInt32(s[i]) + mul255(br, k)))
                    d[i + 1] = UInt8(min(255, UInt32(s[i + 1]) + mul255(bgG, k)))
                    d[i + 2] = UInt8(min(255, UInt32(s[i + 2]) + mul255(bb, k)))
                    d[i + 3] = UInt8(min(255, UInt32(a) + mul255(ba, k)))
                }
            }
        }
    }

    /// Returns `pixels` (premultiplied) flattened over `background`, tightly packed,
    /// premultiplied (and straight too when `background` is opaque).
    public static func flattened(_ pixels: [UInt8], width: Int, height: Int, strideBytes: Int? = nil,
                                 over background: RGBAColor) -> [UInt8] {
        convertedCopy(pixels, width: width, height: height, strideBytes: strideBytes) {
            flatten(premultiplied: $0, sourceStrideBytes: $1, over: background, into: $2,
                    destinationStrideBytes: $3, width: $4, height: $5)
        }
    }

    /// Flattens tightly packed premultiplied `pixels` over `background` in place (see
    /// ``flatten(premultiplied:sourceStrideBytes:over:into:destinationStrideBytes:width:height:)``).
    public static func flatten(premultiplied pixels: inout [UInt8], over background: RGBAColor) {
        precondition(pixels.count % 4 == 0, "\(pixels.count) bytes is not a whole number of RGBA8 pixels")
        let count = pixels.count / 4
        pixels.withUnsafeMutableBytes { buffer in
            flatten(premultiplied: UnsafeRawBufferPointer(buffer), sourceStrideBytes: count * 4,
                    over: background, into: buffer, destinationStrideBytes: count * 4,
                    width: count, height: 1)
        }
    }

    /// Composites a premultiplied layer over a premultiplied background *image* of the same
    /// size (source-over): `out = src + bg * (1 - src.a)` per channel including alpha, each
    /// product rounded to nearest; output premultiplied. `destination` may be the same memory
    /// as `source` or as `background` (with the same stride).
    public static func flatten(premultiplied source: UnsafeRawBufferPointer, sourceStrideBytes: Int,
                               overPremultiplied background: UnsafeRawBufferPointer,
                               backgroundStrideBytes: Int,
                               into destination: UnsafeMutableRawBufferPointer,
                               destinationStrideBytes: Int, width: Int, height: Int) {
        guard checkLayout(source.count, sourceStrideBytes, destination.count, destinationStrideBytes,
                          width, height) else { return }
        precondition(backgroundStrideBytes >= width * 4
                     && background.count >= (height - 1) * backgroundStrideBytes + width * 4,
                     "background buffer too small for \(width)x\(height) with stride \(backgroundStrideBytes)")
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let bgr = background.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            let s = src + y * sourceStrideBytes
            let b = bgr + y * backgroundStrideBytes
            let d = dst + y * destinationStrideBytes
            for i in stride(from: 0, to: width * 4, by: 4) {
                let a = s[i + 3]
                if a == 255 {
                    d[i] = s[i]; d[i + 1] = s[i + 1]; d[i + 2] = s[i + 2]; d[i + 3] = 255
                } else if a == 0 && s[i] == 0 && s[i + 1] == 0 && s[i + 2] == 0 {
                    d[i] = b[i]; d[i + 1] = b[i + 1]; d[i + 2] = b[i + 2]; d[i + 3] = b[i + 3]
                } else {
                    let k = 255 - UInt32(a)
                    d[i] = UInt8(min(255, UInt32(s[i]) + mul255(UInt32(b[i]), k)))
                    d[i + 1] = UInt8(min(255, UInt32(s[i + 1]) + mul255(UInt32(b[i + 1]), k)))
                    d[i + 2] = UInt8(min(255, UInt32(s[i + 2]) + mul255(UInt32(b[i + 2]), k)))
                    d[i + 3] = UInt8(min(255, UInt32(a) + mul255(UInt32(b[i + 3]), k)))
                }
            }
        }
    }

    /// Flattens tightly packed premultiplied `pixels` in place over `background`, a tightly
    /// packed premultiplied image with the same number of pixels.
    public static func flatten(premultiplied pixels: inout [UInt8], over background: [UInt8]) {
        precondition(pixels.count % 4 == 0 && background.count == pixels.count,
                     "layer (\(pixels.count) bytes) and background (\(background.count) bytes) differ in size")
        let count = pixels.count / 4
        background.withUnsafeBytes { bg in
            pixels.withUnsafeMutableBytes { buffer in
                flatten(premultiplied: UnsafeRawBufferPointer(buffer), sourceStrideBytes: count * 4,
                        overPremultiplied: bg, backgroundStrideBytes: count * 4, into: buffer,
                        destinationStrideBytes: count * 4, width: count, height: 1)
            }
        }
    }

    // MARK: - Helpers

    /// Checks buffer sizes (a programming error traps); false when there is nothing to do.
    static func checkLayout(_ sourceCount: Int, _ sourceStride: Int, _ destinationCount: Int,
                            _ destinationStride: Int, _ width: Int, _ height: Int) -> Bool {
        precondition(width >= 0 && height >= 0, "negative size \(width)x\(height)")
        if width == 0 || height == 0 { return false }
        precondition(sourceStride >= width * 4 && destinationStride >= width * 4,
                     "row stride smaller than width * 4")
        precondition(sourceCount >= (height - 1) * sourceStride + width * 4,
                     "source buffer too small for \(width)x\(height) with stride \(sourceStride)")
        precondition(destinationCount >= (height - 1) * destinationStride + width * 4,
                     "destination buffer too small for \(width)x\(height) with stride \(destinationStride)")
        return true
    }

    static func convertedCopy(
        _ pixels: [UInt8], width: Int, height: Int, strideBytes: Int?,
        _ convert: (UnsafeRawBufferPointer, Int, UnsafeMutableRawBufferPointer, Int, Int, Int) -> Void
    ) -> [UInt8] {
        let count = width * height * 4
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pixels.withUnsafeBytes { source in
                convert(source, strideBytes ?? width * 4, UnsafeMutableRawBufferPointer(buffer),
                        width * 4, width, height)
            }
            initialized = count
        }
    }
}
