import CBristlePNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes PNG files through the system libpng (via the `CBristlePNG` C shim,
/// which owns libpng's setjmp/longjmp error handling, so damaged files raise ``PNGError``
/// and never abort the process).
///
/// Pixels are always 8-bit RGBA with **straight** alpha. Writes are atomic (see
/// ``AtomicFileWriter``): an existing file is either replaced whole or left untouched.
public enum PNGCodec {
    /// Largest width or height accepted when reading or writing.
    public static let maximumSide = 65_536
    /// Largest `width * height` accepted (2^28 pixels = 1 GiB of RGBA8).
    public static let maximumPixelCount = 1 << 28

    /// The libpng version in use, e.g. `"1.6.39"` (wraps `CBristlePNG_libpng_version`).
    public static var libpngVersion: String { String(cString: CBristlePNG_libpng_version()) }

    // MARK: - Reading

    /// Decodes the PNG at `path` into RGBA8 straight alpha.
    ///
    /// Any colour type and bit depth is accepted: palette and gray are expanded, `tRNS`
    /// becomes alpha, 16-bit samples are scaled to 8-bit with rounding, interlaced images
    /// are de-interlaced, images without alpha get 255. Gamma and colour profiles are
    /// ignored (samples are returned as stored). Sizes above ``maximumSide`` or
    /// ``maximumPixelCount`` are refused before any pixel memory is allocated.
    ///
    /// Wraps `open(2)`, then `CBristlePNG_reader_open` (libpng `png_read_info` plus
    /// transforms) and `CBristlePNG_reader_read_rgba8` (`png_read_image`, `png_read_end`).
    public static func read(path: String) throws(PNGError) -> PNGImage {
        func error(_ kind: PNGError.Kind, _ message: String) -> PNGError {
            PNGError(kind: kind, path: path, message: message, operation: .read)
        }
        if path.isEmpty { throw error(.notFound, "the path is empty") }

        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw openFailure(path: path, code: errno) }
        defer { _ = close(fd) }

        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            let what = FileKind(path: path).notRegularDescription ?? "not a file"
            throw error(.notRegularFile, "not a regular file (it is \(what)); give a PNG file")
        }

        var reader: OpaquePointer?
        var width: UInt32 = 0
        var height: UInt32 = 0
        let (openStatus, openMessage) = callShim { buffer, capacity in
            CBristlePNG_reader_open(fd, UInt32(maximumSide), UInt64(maximumPixelCount),
                                    &reader, &width, &height, buffer, capacity)
        }
        guard openStatus == Int32(CBristlePNG_OK), let reader else {
            throw error(kind(forStatus: openStatus), openMessage)
        }
        defer { CBristlePNG_reader_close(reader) }

        let w = Int(width), h = Int(height)
        let byteCount = w * h * 4
        var status = Int32(CBristlePNG_OK)
        var message = ""
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            (status, message) = callShim { text, capacity in
                CBristlePNG_reader_read_rgba8(reader, buffer.baseAddress!, w * 4, text, capacity)
            }
            initialized = status == Int32(CBristlePNG_OK) ? byteCount : 0
        }
        guard status == Int32(CBristlePNG_OK) else { throw error(kind(forStatus: status), message) }
        return PNGImage(width: w, height: h, pixels: pixels)
    }

    // MARK: - Writing

    /// Encodes RGBA8 straight-alpha pixels as a PNG and atomically replaces `path` with it.
    ///
    /// Row `y` starts at byte `y * strideBytes` of `pixels`; only the first `width * 4`
    /// bytes of each row are read (the last row needs no padding). The file is written to a
    /// temporary file next to the destination, synced (unless `options.durable` is false)
    /// and renamed into place; on failure the temporary file is removed and an existing
    /// destination keeps its bytes. Arguments are checked before any file is created.
    ///
    /// Wraps `CBristlePNG_write_rgba8` (rows filtered and deflated with zlib in parallel
    /// strips using the options' level, strategy and filter; chunks written by libpng
    /// `png_write_info` / `png_write_chunk_*`) inside
    /// ``AtomicFileWriter/write(to:durable:mapFailure:_:)`` (`mkstemp`, `fsync`, `rename`).
    public static func write(rgba pixels: UnsafeRawBufferPointer, width: Int, height: Int,
                             strideBytes: Int, to path: String,
                             options: PNGWriteOptions = .default) throws(PNGError) {
        try writeAtomically(pixels, premultiplied: false, width: width, height: height,
                            strideBytes: strideBytes, to: path, options: options)
    }

    /// Array form of ``write(rgba:width:height:strideBytes:to:options:)``; `strideBytes`
    /// defaults to `width * 4` (tightly packed). Wraps `CBristlePNG_write_rgba8` inside
    /// ``AtomicFileWriter`` (`mkstemp`, `fsync`, `rename`).
    public static func write(rgba pixels: [UInt8], width: Int, height: Int, strideBytes: Int? = nil,
                             to path: String, options: PNGWriteOptions = .default) throws(PNGError) {
        try withBytes(pixels) { (raw) throws(PNGError) in
            try writeAtomically(raw, premultiplied: false, width: width, height: height,
                                strideBytes: strideBytes ?? width * 4, to: path, options: options)
        }
    }

    /// Writes `image` atomically to `path`. Wraps `CBristlePNG_write_rgba8` inside
    /// ``AtomicFileWriter`` (`mkstemp`, `fsync`, `rename`).
    public static func write(_ image: PNGImage, to path: String,
                             options: PNGWriteOptions = .default) throws(PNGError) {
        try write(rgba: image.pixels, width: image.width, height: image.height,
                  strideBytes: image.width * 4, to: path, options: options)
    }

    /// Like ``write(rgba:width:height:strideBytes:to:options:)``, for **premultiplied**
    /// RGBA8 (a layer as Bristle stores it). Each row is unpremultiplied while encoding
    /// (`min(255, round(c * 255 / a))`, all zero when `a == 0`, exactly as
    /// ``PixelConversion`` does), so no straight copy of the image is made.
    ///
    /// Wraps `CBristlePNG_write_rgba8` with `CBristlePNG_PREMULTIPLIED` inside
    /// ``AtomicFileWriter/write(to:durable:mapFailure:_:)`` (`mkstemp`, `fsync`, `rename`).
    public static func write(premultipliedRGBA pixels: UnsafeRawBufferPointer, width: Int, height: Int,
                             strideBytes: Int, to path: String,
                             options: PNGWriteOptions = .default) throws(PNGError) {
        try writeAtomically(pixels, premultiplied: true, width: width, height: height,
                            strideBytes: strideBytes, to: path, options: options)
    }

    /// Array form of ``write(premultipliedRGBA:width:height:strideBytes:to:options:)``;
    /// `strideBytes` defaults to `width * 4`. Wraps `CBristlePNG_write_rgba8` with
    /// `CBristlePNG_PREMULTIPLIED` inside ``AtomicFileWriter``.
    public static func write(premultipliedRGBA pixels: [UInt8], width: Int, height: Int,
                             strideBytes: Int? = nil, to path: String,
                             options: PNGWriteOptions = .default) throws(PNGError) {
        try withBytes(pixels) { (raw) throws(PNGError) in
            try writeAtomically(raw, premultiplied: true, width: width, height: height,
                                strideBytes: strideBytes ?? width * 4, to: path, options: options)
        }
    }

    /// Supplies row `y` of an image being encoded: writes `width * 4` bytes of RGBA8 into `row`.
    /// Called from several threads at once, for different rows, in no particular order, and
    /// possibly twice for a row; it must not fail.
    public typealias RowSource = (_ y: Int, _ row: UnsafeMutablePointer<UInt8>) -> Void

    /// Encodes an image that `rows` supplies row by row (straight RGBA8, or premultiplied when
    /// `premultiplied`) and atomically replaces `path` with it, as
    /// ``write(rgba:width:height:strideBytes:to:options:)`` does. The image is never held whole:
    /// memory is a few rows per thread plus a few compressed strips.
    ///
    /// Wraps `CBristlePNG_write_rgba8_rows` inside ``AtomicFileWriter`` (`mkstemp`, `fsync`,
    /// `rename`).
    public static func write(rows: @escaping RowSource, width: Int, height: Int, premultiplied: Bool,
                             to path: String, options: PNGWriteOptions = .default) throws(PNGError) {
        try validate(width: width, height: height, path: path)
        try atomically(to: path, durable: options.durable) { (fd: Int32) throws(PNGError) in
            try encode(.rows(rows), premultiplied: premultiplied, width: width, height: height,
                       fileDescriptor: fd, options: options, path: path)
        }
    }

    /// ``write(rows:width:height:premultiplied:to:options:)`` into an open file descriptor, not
    /// atomically (see ``write(rgba:width:height:strideBytes:premultiplied:toFileDescriptor:options:)``).
    public static func write(rows: @escaping RowSource, width: Int, height: Int, premultiplied: Bool,
                             toFileDescriptor fd: Int32, options: PNGWriteOptions = .default) throws(PNGError) {
        let label = "file descriptor \(fd)"
        try validate(width: width, height: height, path: label)
        try encode(.rows(rows), premultiplied: premultiplied, width: width, height: height,
                   fileDescriptor: fd, options: options, path: label)
    }

    /// Encodes a PNG into an already open file descriptor (a pipe, a socket, stdout, a file
    /// the caller manages) at its current offset. Not atomic; the descriptor is neither
    /// synced nor closed (`options.durable` is ignored). Errors name the path
    /// `"file descriptor N"`. Wraps `CBristlePNG_write_rgba8`.
    public static func write(rgba pixels: UnsafeRawBufferPointer, width: Int, height: Int,
                             strideBytes: Int, premultiplied: Bool = false,
                             toFileDescriptor fd: Int32,
                             options: PNGWriteOptions = .default) throws(PNGError) {
        let label = "file descriptor \(fd)"
        try validate(byteCount: pixels.count, width: width, height: height,
                     strideBytes: strideBytes, path: label)
        try encode(.buffer(pixels, strideBytes: strideBytes), premultiplied: premultiplied, width: width,
                   height: height, fileDescriptor: fd, options: options, path: label)
    }

    // MARK: - Internals

    static func writeAtomically(_ pixels: UnsafeRawBufferPointer, premultiplied: Bool, width: Int,
                                height: Int, strideBytes: Int, to path: String,
                                options: PNGWriteOptions) throws(PNGError) {
        try validate(byteCount: pixels.count, width: width, height: height,
                     strideBytes: strideBytes, path: path)
        try atomically(to: path, durable: options.durable) { (fd: Int32) throws(PNGError) in
            try encode(.buffer(pixels, strideBytes: strideBytes), premultiplied: premultiplied, width: width,
                       height: height, fileDescriptor: fd, options: options, path: path)
        }
    }

    /// ``AtomicFileWriter/write(to:durable:mapFailure:_:)`` with the writer's failures as
    /// ``PNGError``s.
    static func atomically(to path: String, durable: Bool,
                           _ body: (Int32) throws(PNGError) -> Void) throws(PNGError) {
        try AtomicFileWriter.write(
            to: path, durable: durable,
            mapFailure: { failure in
                PNGError(kind: failure.kind == .cannotCreate ? .cannotCreate : .io, path: path,
                         message: failure.message, operation: .write)
            }, body)
    }

    /// `Array.withUnsafeBytes` with a typed error (the standard one only rethrows `any Error`).
    static func withBytes(_ array: [UInt8],
                          _ body: (UnsafeRawBufferPointer) throws(PNGError) -> Void) throws(PNGError) {
        let failure: PNGError? = array.withUnsafeBytes { raw in
            do throws(PNGError) {
                try body(raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Checks the size of an image to write.
    static func validate(width: Int, height: Int, path: String) throws(PNGError) {
        func error(_ kind: PNGError.Kind, _ message: String) -> PNGError {
            PNGError(kind: kind, path: path, message: message, operation: .write)
        }
        guard width >= 1, height >= 1 else {
            throw error(.invalidArgument, "the image is \(width)x\(height) pixels; a PNG needs at least 1x1")
        }
        guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixelCount else {
            throw error(.tooLarge, "the image is \(width)x\(height) pixels; the limit is \(maximumSide) "
                        + "pixels on each side and \(maximumPixelCount) pixels in total")
        }
    }

    /// Checks the size of an image to write and that its buffer holds it.
    static func validate(byteCount: Int, width: Int, height: Int, strideBytes: Int,
                         path: String) throws(PNGError) {
        func error(_ kind: PNGError.Kind, _ message: String) -> PNGError {
            PNGError(kind: kind, path: path, message: message, operation: .write)
        }
        try validate(width: width, height: height, path: path)
        guard strideBytes >= width * 4 else {
            throw error(.invalidArgument, "the row stride is \(strideBytes) bytes, less than width * 4 = \(width * 4)")
        }
        let (rows, overflow) = (height - 1).multipliedReportingOverflow(by: strideBytes)
        guard !overflow, byteCount >= rows + width * 4 else {
            throw error(.invalidArgument, "the pixel buffer holds \(byteCount) bytes, but \(width)x\(height) "
                        + "pixels with a row stride of \(strideBytes) bytes need \(overflow ? "more" : String(rows + width * 4))")
        }
    }

    /// Where the encoder takes the pixels from.
    enum Pixels {
        case buffer(UnsafeRawBufferPointer, strideBytes: Int)
        case rows(RowSource)
    }

    /// Holds a ``RowSource`` for the C callback, which gets it back from its context pointer.
    private final class RowSourceBox {
        let body: RowSource
        init(_ body: @escaping RowSource) { self.body = body }
    }

    static func encode(_ pixels: Pixels, premultiplied: Bool, width: Int, height: Int,
                       fileDescriptor fd: Int32, options: PNGWriteOptions,
                       path: String) throws(PNGError) {
        let filters: Int
        switch options.filter {
        case .none: filters = CBristlePNG_FILTER_NONE
        case .sub: filters = CBristlePNG_FILTER_SUB
        case .up: filters = CBristlePNG_FILTER_UP
        case .average: filters = CBristlePNG_FILTER_AVG
        case .paeth: filters = CBristlePNG_FILTER_PAETH
        case .adaptive: filters = CBristlePNG_FILTER_ALL
        }
        let strategy: Int
        switch options.strategy {
        case .standard: strategy = CBristlePNG_STRATEGY_DEFAULT
        case .filtered: strategy = CBristlePNG_STRATEGY_FILTERED
        case .huffmanOnly: strategy = CBristlePNG_STRATEGY_HUFFMAN_ONLY
        case .runLength: strategy = CBristlePNG_STRATEGY_RLE
        }
        let level = Int32(min(max(options.compressionLevel, 0), 9))
        let flags = premultiplied ? Int32(CBristlePNG_PREMULTIPLIED) : 0
        let threads = Int32(clamping: max(0, options.threads))
        let (status, message): (Int32, String)
        switch pixels {
        case .buffer(let buffer, let strideBytes):
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            (status, message) = callShim { text, capacity in
                CBristlePNG_write_rgba8(fd, base, UInt32(width), UInt32(height), strideBytes, flags, level,
                                        Int32(strategy), Int32(filters), threads,
                                        UInt32(maximumSide), UInt64(maximumPixelCount), text, capacity)
            }
        case .rows(let rows):
            let box = RowSourceBox(rows)
            (status, message) = withExtendedLifetime(box) {
                callShim { text, capacity in
                    CBristlePNG_write_rgba8_rows(
                        fd, { context, y, row in
                            Unmanaged<RowSourceBox>.fromOpaque(context!).takeUnretainedValue().body(Int(y), row!)
                        }, Unmanaged.passUnretained(box).toOpaque(), UInt32(width), UInt32(height), flags, level,
                        Int32(strategy), Int32(filters), threads, UInt32(maximumSide), UInt64(maximumPixelCount),
                        text, capacity)
                }
            }
        }
        guard status == Int32(CBristlePNG_OK) else {
            var text = message
            if text.contains(errorText(ENOSPC)) { text += " (the disk is full; free some space)" }
            throw PNGError(kind: kind(forStatus: status), path: path, message: text, operation: .write)
        }
    }

    /// Runs a shim call with a message buffer and returns its status and message.
    static func callShim(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (Int32, String) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            buffer[0] = 0
            let status = body(buffer.baseAddress!, buffer.count)
            buffer[buffer.count - 1] = 0
            var message = String(cString: buffer.baseAddress!)
            if status != Int32(CBristlePNG_OK) && message.isEmpty { message = "unknown error (status \(status))" }
            return (status, message)
        }
    }

    static func kind(forStatus status: Int32) -> PNGError.Kind {
        switch Int(status) {
        case CBristlePNG_NOT_PNG: return .notPNG
        case CBristlePNG_CORRUPT: return .corrupt
        case CBristlePNG_TOO_LARGE: return .tooLarge
        case CBristlePNG_INVALID_ARGUMENT: return .invalidArgument
        default: return .io  // CBristlePNG_IO, CBristlePNG_NO_MEMORY
        }
    }

    static func openFailure(path: String, code: Int32) -> PNGError {
        func error(_ kind: PNGError.Kind, _ message: String) -> PNGError {
            PNGError(kind: kind, path: path, message: message, operation: .read)
        }
        let (folder, _) = AtomicFileWriter.split(path)
        let where_ = AtomicFileWriter.describeFolder(folder)
        switch code {
        case ENOENT:
            var info = stat()
            if stat(folder, &info) != 0 {
                return error(.notFound, "\(where_) does not exist")
            }
            return error(.notFound, "there is no file with this name in \(where_)")
        case ENOTDIR:
            return error(.notFound, "part of the folder path is a file, not a folder")
        case EACCES, EPERM:
            return error(.io, "permission denied; check the file's permissions")
        default:
            return error(.io, "opening the file failed: \(errorText(code))")
        }
    }
}
