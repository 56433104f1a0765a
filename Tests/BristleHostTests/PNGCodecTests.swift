import BristleHost
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Helpers

/// Deterministic generator so that failures reproduce.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fresh folder under the system temporary folder, removed by `remove()`.
private struct TemporaryFolder {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/bristle-png-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
    /// Every entry, including hidden temporary files.
    func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

private func readBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

private func writeBytes(_ bytes: [UInt8], _ path: String) {
    precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
}

private func randomPixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    return (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
}

/// Pixels that look like a painting: flat areas, gradients, noise, transparent holes.
private func canvasPixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            switch (x / 37 + y / 23) % 4 {
            case 0: pixels[i] = 255; pixels[i + 1] = 255; pixels[i + 2] = 255; pixels[i + 3] = 255
            case 1: pixels[i] = UInt8(x & 255); pixels[i + 1] = UInt8(y & 255); pixels[i + 2] = 40; pixels[i + 3] = UInt8((x + y) & 255)
            case 2: for c in 0..<4 { pixels[i + c] = UInt8.random(in: 0...255, using: &rng) }
            default: break  // transparent black
            }
        }
    }
    return pixels
}

private func umaskFromProc() -> mode_t {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0o022 }
    for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
        return mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) ?? 0o022
    }
    return 0o022
}

private func fileMode(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// Compares byte buffers without dumping megabytes into the log on failure.
private func expectEqualBytes(_ actual: [UInt8], _ expected: [UInt8], _ what: String = "pixels",
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    if actual == expected { return }
    guard actual.count == expected.count else {
        Issue.record("\(what): \(actual.count) bytes, expected \(expected.count)", sourceLocation: sourceLocation)
        return
    }
    let differing = zip(actual, expected).enumerated().filter { $0.element.0 != $0.element.1 }
    let first = differing[0]
    let detail = "\(what): \(differing.count) bytes differ; the first is byte \(first.offset) "
        + "(pixel \(first.offset / 4)): got \(first.element.0), expected \(first.element.1)"
    Issue.record(Comment(rawValue: detail), sourceLocation: sourceLocation)
}

private func expectPNGError(_ kind: PNGError.Kind, _ body: () throws(PNGError) -> Void,
                    sourceLocation: Testing.SourceLocation = #_sourceLocation) -> PNGError? {
    do {
        try body()
        Issue.record("expected PNGError.\(kind), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        return error
    }
}

// MARK: - A minimal, independent PNG encoder for fixtures (stored deflate blocks)

private enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
    static func of(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

private func bigEndian32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    return bigEndian32(UInt32(data.count)) + typeBytes + data + bigEndian32(CRC32.of(typeBytes + data))
}

/// zlib stream made of stored (uncompressed) deflate blocks.
private func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65_535, data.count - offset)
        let final: UInt8 = offset + n == data.count ? 1 : 0
        out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += data[offset..<(offset + n)]
        offset += n
    } while offset < data.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
    return out + bigEndian32(b << 16 | a)
}

private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

private func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false) -> [UInt8] {
    chunk("IHDR", bigEndian32(width) + bigEndian32(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
}

private struct FixturePNG {
    var width: Int
    var height: Int
    var colorType: UInt8  // 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    var bitDepth: UInt8
    var interlaced = false
    var palette: [[UInt8]] = []  // [r, g, b]
    var transparency: [UInt8]? = nil  // raw tRNS payload
    /// Per pixel, row-major: the channel samples (an index for palette images).
    var samples: [[UInt16]]

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]! }

    func packRow(_ pixels: [[UInt16]]) -> [UInt8] {
        var out: [UInt8] = [0]  // filter type None
        if bitDepth == 16 {
            for p in pixels { for s in p { out += [UInt8(s >> 8), UInt8(s & 0xFF)] } }
        } else if bitDepth == 8 {
            for p in pixels { for s in p { out.append(UInt8(s)) } }
        } else {
            var acc = 0, bits = 0
            for p in pixels {
                for s in p {
                    acc = acc << Int(bitDepth) | Int(s); bits += Int(bitDepth)
                    if bits == 8 { out.append(UInt8(acc)); acc = 0; bits = 0 }
                }
            }
            if bits > 0 { out.append(UInt8(acc << (8 - bits))) }
        }
        return out
    }

    func encode() -> [UInt8] {
        var raw: [UInt8] = []
        let passes: [(Int, Int, Int, Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            guard x0 < width, y0 < height else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                raw += packRow(stride(from: x0, to: width, by: dx).map { samples[y * width + $0] })
            }
        }
        var file = pngSignature + ihdr(width: UInt32(width), height: UInt32(height), bitDepth: bitDepth,
                                       colorType: colorType, interlaced: interlaced)
        if colorType == 3 { file += chunk("PLTE", palette.flatMap { $0 }) }
        if let transparency { file += chunk("tRNS", transparency) }
        let stream = zlibStored(raw)
        // Two IDAT chunks, to exercise chunk boundaries.
        let half = stream.count / 2
        file += chunk("IDAT", Array(stream[..<half])) + chunk("IDAT", Array(stream[half...]))
        return file + chunk("IEND", [])
    }

    /// The RGBA8 straight-alpha pixels a correct decoder must produce, computed here
    /// independently of libpng.
    func expectedRGBA() -> [UInt8] {
        let maxSample = (1 << Int(bitDepth)) - 1
        func to8(_ s: UInt16) -> UInt8 {
            if bitDepth == 16 { return UInt8((Double(s) * 255 / 65_535).rounded()) }
            return UInt8(Int(s) * 255 / maxSample)
        }
        func trnsValue(_ k: Int) -> UInt16 { UInt16(transparency![2 * k]) << 8 | UInt16(transparency![2 * k + 1]) }
        var out: [UInt8] = []
        for p in samples {
            switch colorType {
            case 0:
                let alpha: UInt8 = transparency != nil && p[0] == trnsValue(0) ? 0 : 255
                out += [to8(p[0]), to8(p[0]), to8(p[0]), alpha]
            case 2:
                let alpha: UInt8 = transparency != nil && p[0] == trnsValue(0) && p[1] == trnsValue(1) && p[2] == trnsValue(2) ? 0 : 255
                out += [to8(p[0]), to8(p[1]), to8(p[2]), alpha]
            case 3:
                let index = Int(p[0])
                let alpha = transparency.map { index < $0.count ? $0[index] : 255 } ?? 255
                out += palette[index] + [alpha]
            case 4:
                out += [to8(p[0]), to8(p[0]), to8(p[0]), to8(p[1])]
            default:
                out += [to8(p[0]), to8(p[1]), to8(p[2]), to8(p[3])]
            }
        }
        return out
    }
}

private func randomFixture(colorType: UInt8, bitDepth: UInt8, width: Int, height: Int, seed: UInt64,
                   interlaced: Bool = false, transparency: Bool = false) -> FixturePNG {
    var rng = SplitMix64(seed: seed)
    let maxSample = UInt16((1 << Int(bitDepth)) - 1)
    var fixture = FixturePNG(width: width, height: height, colorType: colorType, bitDepth: bitDepth,
                             interlaced: interlaced, samples: [])
    let channels = fixture.channels
    if colorType == 3 {
        let count = Int(maxSample) + 1
        fixture.palette = (0..<count).map { _ in (0..<3).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        if transparency {  // shorter than the palette: later entries are opaque
            fixture.transparency = (0..<max(1, count / 2)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        }
    } else if transparency {
        // The transparent colour is the first pixel's, so that it certainly occurs.
        fixture.transparency = []
    }
    fixture.samples = (0..<(width * height)).map { _ in
        (0..<channels).map { _ in UInt16.random(in: 0...maxSample, using: &rng) }
    }
    if transparency && colorType != 3 {
        let key = fixture.samples[0]
        fixture.transparency = key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        fixture.samples[width * height - 1] = key
    }
    return fixture
}

// MARK: - Round trips

@Suite("PNG codec")
struct PNGCodecTests {
    @Test("write then read is pixel-identical", arguments: [(1, 1), (3, 7), (7, 3), (2, 1), (64, 33), (257, 5)])
    func roundTrip(size: (Int, Int)) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (w, h) = size
        let pixels = randomPixels(width: w, height: h, seed: UInt64(w * 1000 + h))
        let path = folder.file("out.png")
        try PNGCodec.write(rgba: pixels, width: w, height: h, to: path)
        let image = try PNGCodec.read(path: path)
        #expect(image.width == w)
        #expect(image.height == h)
        expectEqualBytes(image.pixels, pixels)  // including colour under alpha 0: straight alpha is kept
        #expect(folder.entries() == ["out.png"])
    }

    @Test("a padded row stride is honoured and padding is not written")
    func paddedStride() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (w, h, stride) = (5, 4, 5 * 4 + 12)
        let tight = randomPixels(width: w, height: h, seed: 7)
        var padded = [UInt8](repeating: 0xEE, count: stride * h)
        for y in 0..<h { padded[(y * stride)..<(y * stride + w * 4)] = tight[(y * w * 4)..<((y + 1) * w * 4)] }
        let path = folder.file("padded.png")
        try PNGCodec.write(rgba: padded, width: w, height: h, strideBytes: stride, to: path)
        let image = try PNGCodec.read(path: path)
        expectEqualBytes(image.pixels, tight)
        #expect(image.pixel(x: 4, y: 3).a == tight[(3 * w + 4) * 4 + 3])

        // The last row needs only width * 4 bytes, not a whole stride.
        let short = Array(padded[..<(stride * (h - 1) + w * 4)])
        try PNGCodec.write(rgba: short, width: w, height: h, strideBytes: stride, to: path)
        expectEqualBytes(try PNGCodec.read(path: path).pixels, tight)
    }

    static let optionCases: [PNGWriteOptions] = {
        var all: [PNGWriteOptions] = []
        for filter in PNGWriteOptions.Filter.allCases {
            for strategy in PNGWriteOptions.Strategy.allCases {
                for level in [0, 1, 9] {
                    for threads in [1, 3] {
                        all.append(PNGWriteOptions(compressionLevel: level, filter: filter, strategy: strategy,
                                                   durable: false, threads: threads))
                    }
                }
            }
        }
        return all + [.default, .smallest, PNGWriteOptions(compressionLevel: -5), PNGWriteOptions(compressionLevel: 42)]
    }()

    @Test("every filter, strategy, level and thread count round-trips", arguments: optionCases)
    func everyOption(options: PNGWriteOptions) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 300 x 700 x 4 bytes is above the 512 KiB threshold, so threads > 1 makes strips.
        let (w, h) = (300, 700)
        let pixels = canvasPixels(width: w, height: h, seed: 11)
        let path = folder.file("options.png")
        try PNGCodec.write(rgba: pixels, width: w, height: h, to: path, options: options)
        expectEqualBytes(try PNGCodec.read(path: path).pixels, pixels)
    }

    @Test("compression settings matter: level 0 stores, level 1 compresses")
    func compressionIsApplied() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (w, h) = (256, 256)
        let pixels = canvasPixels(width: w, height: h, seed: 3)
        try PNGCodec.write(rgba: pixels, width: w, height: h, to: folder.file("a.png"),
                           options: PNGWriteOptions(compressionLevel: 0, filter: .none, strategy: .standard))
        try PNGCodec.write(rgba: pixels, width: w, height: h, to: folder.file("b.png"))
        let stored = readBytes(folder.file("a.png"))!.count, compressed = readBytes(folder.file("b.png"))!.count
        #expect(stored > w * h * 4)
        #expect(compressed < stored / 2)
    }

    @Test("a large image written with several threads round-trips")
    func largeImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (w, h) = (1024, 768)
        let pixels = canvasPixels(width: w, height: h, seed: 5)
        let path = folder.file("large.png")
        try PNGCodec.write(rgba: pixels, width: w, height: h, to: path, options: PNGWriteOptions(threads: 4))
        let image = try PNGCodec.read(path: path)
        #expect(image.width == w && image.height == h)
        expectEqualBytes(image.pixels, pixels)
    }

    @Test("premultiplied input is unpremultiplied while encoding, as PixelConversion does")
    func premultipliedWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (w, h, stride) = (130, 1100, 130 * 4 + 8)
        var rng = SplitMix64(seed: 99)
        var premultiplied = [UInt8](repeating: 0x55, count: stride * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * stride + x * 4
                let a = [0, 255, UInt8.random(in: 0...255, using: &rng)][(x + y) % 3]
                premultiplied[i + 3] = a
                for c in 0..<3 { premultiplied[i + c] = UInt8.random(in: 0...a, using: &rng) }
            }
        }
        let path = folder.file("premultiplied.png")
        try PNGCodec.write(premultipliedRGBA: premultiplied, width: w, height: h, strideBytes: stride, to: path)
        let expected = PixelConversion.unpremultiplied(premultiplied, width: w, height: h, strideBytes: stride)
        expectEqualBytes(try PNGCodec.read(path: path).pixels, expected)
        #expect(expected[3] == 0 && expected[0] == 0)  // pixel (0,0) has a = 0: all zero
    }

    @Test("PNGImage convenience write")
    func imageWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = PNGImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 1, 2, 3, 4])
        try PNGCodec.write(image, to: folder.file("i.png"))
        #expect(try PNGCodec.read(path: folder.file("i.png")) == image)
        #expect(image.pixel(x: 1, y: 1) == (1, 2, 3, 4))
    }

    // MARK: - Reading other colour types

    @Test("gray at every bit depth, with and without tRNS", arguments: [UInt8(1), 2, 4, 8, 16], [false, true])
    func gray(bitDepth: UInt8, transparency: Bool) throws {
        try checkFixture(randomFixture(colorType: 0, bitDepth: bitDepth, width: 13, height: 5,
                                       seed: UInt64(bitDepth), transparency: transparency))
    }

    @Test("every 16-bit value is scaled to 8 bits with rounding")
    func sixteenBitScaling() throws {
        var fixture = FixturePNG(width: 256, height: 256, colorType: 0, bitDepth: 16, samples: [])
        fixture.samples = (0..<65_536).map { [UInt16($0)] }
        try checkFixture(fixture)
    }

    @Test("gray + alpha, RGB and RGBA at 8 and 16 bits", arguments: [UInt8(4), 2, 6], [UInt8(8), 16])
    func colour(colorType: UInt8, bitDepth: UInt8) throws {
        try checkFixture(randomFixture(colorType: colorType, bitDepth: bitDepth, width: 9, height: 6,
                                       seed: UInt64(colorType) * 100 + UInt64(bitDepth)))
    }

    @Test("RGB with a tRNS colour key", arguments: [UInt8(8), 16])
    func rgbColourKey(bitDepth: UInt8) throws {
        let fixture = randomFixture(colorType: 2, bitDepth: bitDepth, width: 4, height: 4, seed: 21, transparency: true)
        let expected = fixture.expectedRGBA()
        #expect(expected[3] == 0 && expected[expected.count - 1] == 0)
        try checkFixture(fixture)
    }

    @Test("palette at every bit depth, with partial tRNS", arguments: [UInt8(1), 2, 4, 8], [false, true])
    func palette(bitDepth: UInt8, transparency: Bool) throws {
        try checkFixture(randomFixture(colorType: 3, bitDepth: bitDepth, width: 11, height: 7,
                                       seed: 40 + UInt64(bitDepth), transparency: transparency))
    }

    @Test("interlaced (Adam7) images", arguments: [
        (UInt8(6), UInt8(8), 13, 11), (6, 16, 1, 1), (3, 2, 9, 17), (0, 1, 3, 2), (2, 8, 8, 8), (4, 8, 33, 3),
    ])
    func interlaced(spec: (UInt8, UInt8, Int, Int)) throws {
        try checkFixture(randomFixture(colorType: spec.0, bitDepth: spec.1, width: spec.2, height: spec.3,
                                       seed: 77, interlaced: true, transparency: spec.0 == 3))
    }

    private func checkFixture(_ fixture: FixturePNG, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("fixture.png")
        writeBytes(fixture.encode(), path)
        let image = try PNGCodec.read(path: path)
        #expect(image.width == fixture.width, sourceLocation: sourceLocation)
        #expect(image.height == fixture.height, sourceLocation: sourceLocation)
        let expected = fixture.expectedRGBA()
        expectEqualBytes(image.pixels, expected, sourceLocation: sourceLocation)
    }

    // MARK: - Bad input

    @Test("a missing file is notFound, and the message says whether the folder exists")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error1 = expectPNGError(.notFound) { () throws(PNGError) in _ = try PNGCodec.read(path: folder.file("nope.png")) }
        #expect(error1?.message.contains("no file with this name") == true)
        #expect(error1?.description.contains(folder.file("nope.png")) == true)
        #expect(error1?.operation == .read)
        let missing = folder.file("no-such-folder")
        let error2 = expectPNGError(.notFound) { () throws(PNGError) in _ = try PNGCodec.read(path: missing + "/x.png") }
        #expect(error2?.message.contains("\"\(missing)\" does not exist") == true)
        _ = expectPNGError(.notFound) { () throws(PNGError) in _ = try PNGCodec.read(path: "") }
    }

    @Test("reading a directory, a FIFO or a device is notRegularFile, at once, saying which")
    func readNotARegularFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.path + "/pipe.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, what) in [(folder.path, "a directory"), (fifo, "a FIFO"), ("/dev/null", "a character device")] {
            let error = expectPNGError(.notRegularFile) { () throws(PNGError) in _ = try PNGCodec.read(path: path) }
            #expect(error?.message.contains("not a regular file (it is \(what)") == true, "\(path)")
        }
    }

    @Test("files that are not PNGs are notPNG", arguments: [
        ([UInt8](), "empty"),
        (Array("hello, world\n".utf8), "signature"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46], "JPEG"),
        (Array("GIF89a....".utf8), "GIF"),
        (Array(pngSignature[..<7]), "signature"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x0A, 0x0A, 0, 0, 0, 0], "text mode"),
    ])
    func notPNG(bytes: [UInt8], mentions: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("not.png")
        writeBytes(bytes, path)
        let error = expectPNGError(.notPNG) { () throws(PNGError) in _ = try PNGCodec.read(path: path) }
        #expect(error?.message.contains(mentions) == true, "\(String(describing: error))")
    }

    @Test("every truncation of a valid PNG is an error, never a crash")
    func truncated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = folder.file("good.png")
        try PNGCodec.write(rgba: randomPixels(width: 9, height: 9, seed: 1), width: 9, height: 9, to: good)
        let bytes = readBytes(good)!
        let path = folder.file("cut.png")
        for length in 0..<bytes.count {
            writeBytes(Array(bytes[..<length]), path)
            let expected: PNGError.Kind = length < 8 ? .notPNG : .corrupt
            let error = expectPNGError(expected) { () throws(PNGError) in _ = try PNGCodec.read(path: path) }
            if length > 60, let error {  // past the header: the data itself ends early
                #expect(error.message.contains("truncated") || error.message.contains("damaged"), "\(error)")
            }
        }
    }

    @Test("damaged chunks are corrupt: bad CRC, bad zlib data, bad IHDR")
    func damaged() throws {
        let fixture = randomFixture(colorType: 6, bitDepth: 8, width: 8, height: 8, seed: 5)
        let bytes = fixture.encode()
        let idat = 8 + 25 + 8  // signature, IHDR chunk, then the first IDAT's data starts here

        var badCRC = bytes
        badCRC[idat + 10] ^= 0x40
        try expectCorrupt(badCRC, mentions: "CRC")

        // Break the zlib header of the image data but keep the chunk CRC right.
        var badZlib = bytes
        let length = Int(bytes[33]) << 24 | Int(bytes[34]) << 16 | Int(bytes[35]) << 8 | Int(bytes[36])
        badZlib[idat] = 0x77
        let crc = bigEndian32(CRC32.of(badZlib[(idat - 4)..<(idat + length)]))
        badZlib.replaceSubrange((idat + length)..<(idat + length + 4), with: crc)
        try expectCorrupt(badZlib, mentions: "damaged")

        // An invalid bit depth in IHDR with a correct CRC.
        let badHeader = pngSignature + ihdr(width: 8, height: 8, bitDepth: 3, colorType: 6) + Array(bytes[33...])
        try expectCorrupt(badHeader, mentions: "damaged")

        // Zero width.
        try expectCorrupt(pngSignature + ihdr(width: 0, height: 8, bitDepth: 8, colorType: 6) + Array(bytes[33...]),
                          mentions: "damaged")
    }

    private func expectCorrupt(_ bytes: [UInt8], mentions: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("bad.png")
        writeBytes(bytes, path)
        let error = expectPNGError(.corrupt, { () throws(PNGError) in _ = try PNGCodec.read(path: path) },
                                   sourceLocation: sourceLocation)
        #expect(error?.message.contains(mentions) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test("random damage with repaired CRCs never crashes the reader")
    func fuzz() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = folder.file("good.png")
        try PNGCodec.write(rgba: canvasPixels(width: 40, height: 30, seed: 2), width: 40, height: 30, to: good,
                           options: PNGWriteOptions(filter: .paeth, strategy: .standard))
        let original = readBytes(good)!
        var fixtures = [original]
        fixtures.append(randomFixture(colorType: 3, bitDepth: 4, width: 17, height: 9, seed: 8, interlaced: true,
                                      transparency: true).encode())
        var rng = SplitMix64(seed: 1234)
        let path = folder.file("fuzz.png")
        var outcomes: [String: Int] = [:]
        for round in 0..<400 {
            var bytes = fixtures[round % fixtures.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 8..<bytes.count, using: &rng)
                bytes[i] = UInt8.random(in: 0...255, using: &rng)
            }
            // Repair every chunk CRC so that libpng goes past the CRC check into the data.
            var p = 8
            while p + 12 <= bytes.count {
                let length = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
                guard length >= 0, p + 12 + length <= bytes.count else { break }
                bytes.replaceSubrange((p + 8 + length)..<(p + 12 + length), with: bigEndian32(CRC32.of(bytes[(p + 4)..<(p + 8 + length)])))
                p += 12 + length
            }
            writeBytes(bytes, path)
            do {
                let image = try PNGCodec.read(path: path)
                #expect(image.pixels.count == image.width * image.height * 4)
                outcomes["decoded", default: 0] += 1
            } catch {
                #expect(error.kind != .notFound && error.kind != .invalidArgument, "\(error)")
                outcomes[error.kind.rawValue, default: 0] += 1
            }
        }
        #expect(outcomes["corrupt", default: 0] > 0)  // the damage really reached the decoder
    }

    @Test("huge dimensions are refused from the header, before allocating", arguments: [
        (UInt32(70_000), UInt32(1)), (1, 70_000), (20_000, 20_000), (65_536, 4_097), (0x7FFF_FFFF, 0x7FFF_FFFF),
    ])
    func tooLarge(size: (UInt32, UInt32)) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("huge.png")
        writeBytes(pngSignature + ihdr(width: size.0, height: size.1, bitDepth: 8, colorType: 6)
                   + chunk("IDAT", zlibStored([0, 0, 0, 0, 0])) + chunk("IEND", []), path)
        let error = expectPNGError(.tooLarge) { () throws(PNGError) in _ = try PNGCodec.read(path: path) }
        #expect(error?.message.contains("\(size.0)x\(size.1)") == true, "\(String(describing: error))")
    }

    @Test("the largest allowed side is accepted by the size check")
    func largestSideAllowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("wide.png")
        // 65536 x 1 passes the limit; its data is missing, so it is corrupt, not tooLarge.
        writeBytes(pngSignature + ihdr(width: 65_536, height: 1, bitDepth: 8, colorType: 6)
                   + chunk("IDAT", zlibStored([0])) + chunk("IEND", []), path)
        _ = expectPNGError(.corrupt) { () throws(PNGError) in _ = try PNGCodec.read(path: path) }
    }

    // MARK: - Atomic writing

    @Test("writing into a folder that does not exist is cannotCreate and names the folder")
    func writeMissingFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.file("missing/deeper")
        let error = expectPNGError(.cannotCreate) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: missing + "/out.png")
        }
        #expect(error?.message.contains("the folder \"\(missing)\" does not exist") == true)
        #expect(error?.description.hasPrefix("cannot write PNG \"\(missing)/out.png\"") == true)
        #expect(error?.operation == .write)
        #expect(folder.entries().isEmpty)
    }

    @Test("writing onto a directory is cannotCreate and leaves it alone")
    func writeOntoDirectory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("image.png")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let error = expectPNGError(.cannotCreate) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: target)
        }
        #expect(error?.message.contains("is a directory") == true)
        #expect(folder.entries() == ["image.png"])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && isDirectory.boolValue)
        _ = expectPNGError(.cannotCreate) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: folder.path + "/")
        }
        #expect(folder.entries() == ["image.png"])
    }

    @Test("a folder that refuses new files gives cannotCreate", arguments: ["/proc/self/x.png", "/proc/x.png"])
    func writeIntoProc(path: String) throws {
        let error = expectPNGError(.cannotCreate) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: path)
        }
        #expect(error?.message.contains("cannot create a file in") == true, "\(String(describing: error))")
    }

    @Test("a path through a regular file, or to a device, is refused")
    func writeThroughFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        writeBytes([1, 2, 3], folder.file("plain"))
        _ = expectPNGError(.cannotCreate) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: folder.file("plain/x.png"))
        }
        _ = expectPNGError(.cannotCreate) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: "/dev/null")
        }
        #expect(readBytes(folder.file("plain")) == [1, 2, 3])
    }

    @Test("an existing file is replaced whole, keeps its mode, and no temporary file remains")
    func replaceExisting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("canvas.png")
        writeBytes(Array(repeating: 0xAB, count: 100_000), path)
        chmod(path, 0o640)
        let pixels = randomPixels(width: 20, height: 10, seed: 3)
        try PNGCodec.write(rgba: pixels, width: 20, height: 10, to: path)
        expectEqualBytes(try PNGCodec.read(path: path).pixels, pixels)
        #expect(readBytes(path)!.count < 100_000)
        #expect(fileMode(path) == 0o640)
        #expect(folder.entries() == ["canvas.png"])
    }

    @Test("a new file gets 0666 minus the umask, not mkstemp's 0600")
    func newFileMode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("new.png")
        try PNGCodec.write(rgba: [1, 2, 3, 4], width: 1, height: 1, to: path)
        #expect(fileMode(path) == Int(0o666 & ~umaskFromProc()))
    }

    @Test("a symbolic link is followed: its target is replaced and the link stays")
    func symlinkDestination() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: false)
        writeBytes([0], folder.file("real/target.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.png"), withDestinationPath: "real/target.png")
        try PNGCodec.write(rgba: [9, 8, 7, 6], width: 1, height: 1, to: folder.file("link.png"))
        #expect(try PNGCodec.read(path: folder.file("real/target.png")).pixels == [9, 8, 7, 6])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.png"))) == "real/target.png")
        #expect(folder.entries() == ["link.png", "real"])
    }

    @Test("a write that fails midway leaves the old file byte-identical and no temporary file")
    func failedWriteKeepsOldFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("keep.png")
        let old = Array("old contents".utf8)
        writeBytes(old, path)

        struct Boom: Error {}
        var sawDescriptor: Int32 = -1
        #expect(throws: Boom.self) {
            try AtomicFileWriter.write(to: path, mapFailure: { _ in Boom() }) { (fd: Int32) throws(Boom) in
                sawDescriptor = fd
                _ = write(fd, "partial new bytes", 17)
                throw Boom()
            }
        }
        #expect(sawDescriptor >= 0)  // the body ran (other tests may reuse the closed descriptor number)
        #expect(readBytes(path) == old)
        #expect(folder.entries() == ["keep.png"])

        // Invalid arguments are refused before anything is created.
        _ = expectPNGError(.invalidArgument) { () throws(PNGError) in
            try PNGCodec.write(rgba: [1, 2, 3, 4], width: 2, height: 1, to: path)
        }
        #expect(readBytes(path) == old)
        #expect(folder.entries() == ["keep.png"])
    }

    @Test("AtomicFileWriter writes bytes and reports its own failures")
    func atomicBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try AtomicFileWriter.write(Array("hello".utf8), to: folder.file("a.txt"))
        #expect(readBytes(folder.file("a.txt")) == Array("hello".utf8))
        #expect(throws: AtomicFileWriter.Failure(kind: .cannotCreate, path: folder.file("x/a.txt"),
                                                 message: "the folder \"\(folder.file("x"))\" does not exist; create it first or choose another folder")) {
            try AtomicFileWriter.write([1], to: folder.file("x/a.txt"))
        }
        #expect(folder.entries() == ["a.txt"])
    }

    @Test("a write error from the disk is io and says why (/dev/full)")
    func diskFull() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let pixels = canvasPixels(width: 64, height: 64, seed: 1)
        let error = expectPNGError(.io) { () throws(PNGError) in
            let failure: PNGError? = pixels.withUnsafeBytes { raw in
                do throws(PNGError) {
                    try PNGCodec.write(rgba: raw, width: 64, height: 64, strideBytes: 256, toFileDescriptor: fd)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
        #expect(error?.message.contains(String(cString: strerror(ENOSPC))) == true, "\(String(describing: error))")
        #expect(error?.path == "file descriptor \(fd)")
    }

    @Test("impossible arguments are refused", arguments: [
        (0, 1, 0, 4, PNGError.Kind.invalidArgument), (1, 0, 4, 4, .invalidArgument), (2, 2, 7, 64, .invalidArgument),
        (2, 2, 8, 15, .invalidArgument), (70_000, 1, 280_000, 280_000, .tooLarge), (-3, 2, 8, 64, .invalidArgument),
    ])
    func invalidArguments(w: Int, h: Int, stride: Int, count: Int, kind: PNGError.Kind) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pixels = [UInt8](repeating: 0, count: count)
        _ = expectPNGError(kind) { () throws(PNGError) in
            try PNGCodec.write(rgba: pixels, width: w, height: h, strideBytes: stride, to: folder.file("x.png"))
        }
        #expect(folder.entries().isEmpty)
    }

    @Test("the written file has standard chunks with valid CRCs")
    func chunkLayout() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("layout.png")
        let (w, h) = (600, 500)  // 1.2 MB raw: several strips and more than one IDAT piece
        try PNGCodec.write(rgba: randomPixels(width: w, height: h, seed: 4), width: w, height: h, to: path,
                           options: PNGWriteOptions(compressionLevel: 0, filter: .none, strategy: .standard, threads: 2))
        let bytes = readBytes(path)!
        #expect(Array(bytes[..<8]) == pngSignature)
        var types: [String] = []
        var p = 8
        while p + 12 <= bytes.count {
            let length = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            let body = bytes[(p + 4)..<(p + 8 + length)]
            #expect(Array(bytes[(p + 8 + length)..<(p + 12 + length)]) == bigEndian32(CRC32.of(body)))
            types.append(String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self))
            p += 12 + length
        }
        #expect(p == bytes.count)
        #expect(types.first == "IHDR" && types.last == "IEND")
        #expect(types.contains("sRGB"))
        #expect(types.filter { $0 == "IDAT" }.count >= 2)
        #expect(Array(bytes[16..<29]) == bigEndian32(UInt32(w)) + bigEndian32(UInt32(h)) + [8, 6, 0, 0, 0])
    }

    @Test("concurrent writes to one path leave one complete image and no temporary files")
    func concurrentWrites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("shared.png")
        let images = (0..<6).map { randomPixels(width: 64, height: 64, seed: UInt64(100 + $0)) }
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            try? PNGCodec.write(rgba: images[i % images.count], width: 64, height: 64, to: path,
                                options: PNGWriteOptions(durable: false))
        }
        let result = try PNGCodec.read(path: path).pixels
        #expect(images.firstIndex(of: result) != nil)  // no torn or mixed file
        #expect(folder.entries() == ["shared.png"])
    }

    @Test("libpng 1.6 is in use")
    func version() {
        #expect(PNGCodec.libpngVersion.hasPrefix("1.6."))
    }
}

// MARK: - Premultiplied conversions

@Suite("Pixel conversion")
struct PixelConversionTests {
    /// One pixel per (value, alpha) pair with value <= alpha.
    static let allPremultipliedPairs: [UInt8] = {
        var out: [UInt8] = []
        for a in 0...255 { for v in 0...a { out += [UInt8(v), UInt8(v), UInt8(a - v), UInt8(a)] } }
        return out
    }()

    @Test("premultiplied -> straight -> premultiplied is the identity for every v <= a")
    func roundTripIdentity() {
        let pixels = Self.allPremultipliedPairs
        let count = pixels.count / 4
        let straight = PixelConversion.unpremultiplied(pixels, width: count, height: 1)
        let back = PixelConversion.premultiplied(straight, width: count, height: 1)
        expectEqualBytes(back, pixels)
        #expect(zip(straight, pixels).contains { $0 != $1 })  // it really converted something
    }

    @Test("premultiply rounds c * a / 255 to nearest")
    func premultiplyReference() {
        var pixels: [UInt8] = []
        for a in 0...255 { for c in 0...255 { pixels += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] } }
        let out = PixelConversion.premultiplied(pixels, width: 65_536, height: 1)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Double(pixels[i + 3])
            for k in 0..<3 where out[i + k] != UInt8((Double(pixels[i + k]) * a / 255).rounded()) {
                Issue.record("premultiply(\(pixels[i + k]), a: \(pixels[i + 3])) = \(out[i + k])")
                return
            }
            if out[i + 3] != pixels[i + 3] {
                Issue.record("premultiply changed alpha \(pixels[i + 3]) to \(out[i + 3])")
                return
            }
        }
    }

    @Test("unpremultiply rounds p * 255 / a to nearest, clamps p > a, and zeroes a = 0")
    func unpremultiplyReference() {
        var pixels: [UInt8] = []
        for a in 0...255 { for p in 0...255 { pixels += [UInt8(p), UInt8(p), UInt8(p), UInt8(a)] } }
        let out = PixelConversion.unpremultiplied(pixels, width: 65_536, height: 1)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let p = Double(pixels[i]), a = Double(pixels[i + 3])
            let expected: [UInt8] = a == 0 ? [0, 0, 0, 0]
                : [UInt8(min(255, (p * 255 / a).rounded())), UInt8(min(255, (p * 255 / a).rounded())),
                   UInt8(min(255, (p * 255 / a).rounded())), pixels[i + 3]]
            if Array(out[i..<(i + 4)]) != expected {
                Issue.record("unpremultiply(\(pixels[i]), a: \(pixels[i + 3])) = \(out[i..<(i + 4)]), expected \(expected)")
                return
            }
        }
    }

    @Test("strides: padding is neither read into nor written; in place equals out of place")
    func stridesAndInPlace() {
        let (w, h, srcStride, dstStride) = (7, 5, 7 * 4 + 5, 7 * 4 + 3)
        var rng = SplitMix64(seed: 17)
        var source = [UInt8](repeating: 0, count: srcStride * h)
        for i in source.indices { source[i] = UInt8.random(in: 0...255, using: &rng) }
        var destination = [UInt8](repeating: 0xCD, count: dstStride * h)
        source.withUnsafeBytes { s in
            destination.withUnsafeMutableBytes { d in
                PixelConversion.premultiply(s, sourceStrideBytes: srcStride, into: d, destinationStrideBytes: dstStride,
                                            width: w, height: h)
            }
        }
        var inPlace = source
        PixelConversion.premultiply(&inPlace, width: w, height: h, strideBytes: srcStride)
        let tight = PixelConversion.premultiplied(source, width: w, height: h, strideBytes: srcStride)
        for y in 0..<h {
            #expect(Array(destination[(y * dstStride)..<(y * dstStride + w * 4)]) == Array(tight[(y * w * 4)..<((y + 1) * w * 4)]))
            #expect(Array(inPlace[(y * srcStride)..<(y * srcStride + w * 4)]) == Array(tight[(y * w * 4)..<((y + 1) * w * 4)]))
            #expect(destination[(y * dstStride + w * 4)..<(y * dstStride + dstStride)].allSatisfy { $0 == 0xCD } || y == h - 1)
            #expect(Array(inPlace[(y * srcStride + w * 4)..<(y * srcStride + srcStride)])
                    == Array(source[(y * srcStride + w * 4)..<(y * srcStride + srcStride)]))
        }
        var back = tight
        PixelConversion.unpremultiply(&back, width: w, height: h)
        #expect(back == PixelConversion.unpremultiplied(tight, width: w, height: h))
    }

    @Test("flatten over white: known values")
    func flattenKnown() {
        let layer: [UInt8] = [
            0, 0, 0, 0,  // transparent -> white
            255, 0, 0, 255,  // opaque red stays
            0, 0, 0, 128,  // half black -> 127 gray
            64, 32, 0, 128,  // half (128, 64, 0) -> 64 + 127, 32 + 127, 0 + 127
        ]
        let flat = PixelConversion.flattened(layer, width: 4, height: 1, over: .white)
        #expect(flat == [255, 255, 255, 255, 255, 0, 0, 255, 127, 127, 127, 255, 191, 159, 127, 255])
        #expect(PixelConversion.flattened(layer, width: 4, height: 1, over: .transparent) == layer)
    }

    @Test("flatten matches source-over with rounding for every pair, over any background",
          arguments: [RGBAColor.white, .black, RGBAColor(red: 0.2, green: 0.6, blue: 1, alpha: 0.5)])
    func flattenReference(background: RGBAColor) {
        let pixels = Self.allPremultipliedPairs
        let count = pixels.count / 4
        let out = PixelConversion.flattened(pixels, width: count, height: 1, over: background)
        let bg = background.premultiplied8
        let bgc = [bg.r, bg.g, bg.b, bg.a]
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let k = Double(255 - Int(pixels[i + 3]))
            for c in 0..<4 {
                let expected = UInt8(min(255, Double(pixels[i + c]) + (Double(bgc[c]) * k / 255).rounded()))
                if out[i + c] != expected {
                    Issue.record("flatten \(pixels[i..<(i + 4)]) channel \(c): \(out[i + c]) != \(expected)")
                    return
                }
            }
            if bg.a == 255 { #expect(out[i + 3] == 255) }
        }
    }

    @Test("tightly packed conveniences equal the strided functions")
    func tightOverloads() {
        let pixels = randomPixels(width: 33, height: 3, seed: 8)
        expectEqualBytes(PixelConversion.premultiplied(pixels), PixelConversion.premultiplied(pixels, width: 33, height: 3))
        expectEqualBytes(PixelConversion.unpremultiplied(pixels), PixelConversion.unpremultiplied(pixels, width: 33, height: 3))
        var inPlace = pixels
        PixelConversion.flatten(premultiplied: &inPlace, over: .white)
        expectEqualBytes(inPlace, PixelConversion.flattened(pixels, width: 33, height: 3, over: .white))
    }

    @Test("flatten over a background image matches source-over, and a uniform image matches its colour")
    func flattenOverImage() {
        let layer = Self.allPremultipliedPairs
        let count = layer.count / 4
        var rng = SplitMix64(seed: 31)
        var background = [UInt8](repeating: 0, count: layer.count)
        for i in stride(from: 0, to: background.count, by: 4) {
            let a = UInt8.random(in: 0...255, using: &rng)
            background[i + 3] = a
            for c in 0..<3 { background[i + c] = UInt8.random(in: 0...a, using: &rng) }
        }
        var out = layer
        PixelConversion.flatten(premultiplied: &out, over: background)
        for i in stride(from: 0, to: layer.count, by: 4) {
            let k = Double(255 - Int(layer[i + 3]))
            for c in 0..<4 {
                let expected = UInt8(min(255, Double(layer[i + c]) + (Double(background[i + c]) * k / 255).rounded()))
                if out[i + c] != expected {
                    Issue.record("flatten \(layer[i..<(i + 4)]) over \(background[i..<(i + 4)]): channel \(c) is \(out[i + c]), expected \(expected)")
                    return
                }
            }
        }
        let color = RGBAColor(red8: 200, green8: 100, blue8: 50, alpha8: 255)
        let p = color.premultiplied8
        let uniform = [UInt8]((0..<count).flatMap { _ in [p.r, p.g, p.b, p.a] })
        var overImage = layer
        PixelConversion.flatten(premultiplied: &overImage, over: uniform)
        expectEqualBytes(overImage, PixelConversion.flattened(layer, width: count, height: 1, over: color))
    }

    @Test("empty images are a no-op")
    func empty() {
        #expect(PixelConversion.premultiplied([], width: 0, height: 0).isEmpty)
        #expect(PixelConversion.unpremultiplied([], width: 0, height: 5).isEmpty)
    }
}
