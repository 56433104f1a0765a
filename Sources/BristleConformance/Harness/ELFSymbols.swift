import Glibc

/// The symbols a shared library exports, read from its ELF dynamic symbol table (`.dynsym`)
/// without loading it, as `nm -D --defined-only` would list them. 64-bit little-endian ELF
/// only (what the host loads on x86-64 and AArch64 Linux).
public enum ELFSymbols {
    /// One defined, global or weak dynamic symbol.
    public struct Symbol: Sendable, Equatable {
        public var name: String
        /// ELF symbol type: 0 none, 1 object, 2 function, ...
        public var type: UInt8
        /// Section index; 0xFFF1 (SHN_ABS) marks absolute symbols such as version nodes.
        public var section: UInt16
    }

    /// The exported (defined, global or weak, default or protected visibility) symbols of the
    /// file, or a sentence saying why they could not be read.
    public static func exported(path: String) -> Result<[Symbol], CheckFailure> {
        guard let bytes = readFile(path) else { return .failure(CheckFailure("cannot read \(path)")) }
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else {
            return .failure(CheckFailure("\(path) is not an ELF file"))
        }
        guard bytes[4] == 2, bytes[5] == 1 else {
            return .failure(CheckFailure("\(path) is not a 64-bit little-endian ELF file"))
        }
        func u16(_ o: Int) -> Int { o + 2 <= bytes.count ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : 0 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func u64(_ o: Int) -> Int { u32(o) | u32(o + 4) << 32 }
        // Offsets and sizes come from the file: a range is checked without adding them, so
        // hostile values (up to 2^64 - 1, negative as Int) cannot overflow.
        func inFile(_ start: Int, _ length: Int) -> Bool {
            start >= 0 && length >= 0 && start <= bytes.count && length <= bytes.count - start
        }
        let shoff = u64(0x28), shentsize = u16(0x3A), shnum = u16(0x3C)
        guard shoff > 0, shentsize >= 64, inFile(shoff, shnum * shentsize) else {
            return .failure(CheckFailure("\(path) has no readable section headers"))
        }
        var symbols: [Symbol] = []
        for i in 0..<shnum {
            let sh = shoff + i * shentsize
            guard u32(sh + 4) == 11 else { continue } // SHT_DYNSYM
            let offset = u64(sh + 24), size = u64(sh + 32), link = u32(sh + 40)
            let entsize = max(u64(sh + 56), 24)
            guard link < shnum else { continue }
            let strtab = shoff + link * shentsize
            let strOffset = u64(strtab + 24), strSize = u64(strtab + 32)
            guard inFile(offset, size), inFile(strOffset, strSize) else { continue }
            var s = offset
            while s + 24 <= offset + size {
                let nameOffset = u32(s), info = bytes[s + 4], other = bytes[s + 5], shndx = UInt16(u16(s + 6))
                let binding = info >> 4, visibility = other & 3
                if shndx != 0, binding == 1 || binding == 2, visibility == 0 || visibility == 3,
                   nameOffset < strSize {
                    var end = strOffset + nameOffset
                    while end < strOffset + strSize, bytes[end] != 0 { end += 1 }
                    let name = String(decoding: bytes[(strOffset + nameOffset)..<end], as: UTF8.self)
                    if !name.isEmpty { symbols.append(Symbol(name: name, type: info & 0xF, section: shndx)) }
                }
                guard entsize <= offset + size - s else { break }
                s += entsize
            }
        }
        return .success(symbols)
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count { break }
            if bytes.count > 512 << 20 { return nil }
        }
        return bytes
    }
}
