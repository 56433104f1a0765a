/// Appends little-endian integers, byte strings and UTF-8 text to a byte buffer (the worker
/// pipes' and the page's binary messages).
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }

    /// A length (u32) then the bytes.
    mutating func blob(_ b: [UInt8]) {
        u32(UInt32(b.count))
        bytes.append(contentsOf: b)
    }

    mutating func text(_ s: String) { blob(Array(s.utf8)) }

    mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }
}

/// Reads what a ``ByteWriter`` wrote; every read fails (nil) instead of reading past the end.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * i) }
        offset += 4
        return v
    }

    mutating func i32() -> Int32? { u32().map { Int32(bitPattern: $0) } }

    mutating func raw(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func blob() -> [UInt8]? {
        guard let n = u32(), let b = raw(Int(n)) else { return nil }
        return Array(b)
    }

    mutating func text() -> String? { blob().map { String(decoding: $0, as: UTF8.self) } }
}
