import Glibc

/// The first bytes of an ELF file, read before `dlopen` so that a wrong file gets a precise
/// message ("not a shared object", "built for aarch64") instead of the dynamic linker's.
struct ELFHeader {
    /// 1 = 32-bit, 2 = 64-bit (`EI_CLASS`).
    var wordSize: UInt8
    /// `e_type`: 2 executable, 3 shared object (or PIE).
    var fileType: UInt16
    /// `e_machine`: 62 x86-64, 183 AArch64, ...
    var machine: UInt16

    /// The `e_machine` this process was built for.
    static var hostMachine: UInt16 {
        #if arch(x86_64)
        return 62
        #elseif arch(arm64)
        return 183
        #elseif arch(i386)
        return 3
        #elseif arch(arm)
        return 40
        #else
        return 0
        #endif
    }

    /// A readable name for an `e_machine` value.
    static func machineName(_ machine: UInt16, wordSize: UInt8) -> String {
        switch machine {
        case 3: return "i386 (32-bit x86)"
        case 62: return "x86-64"
        case 183: return "aarch64"
        case 40: return "arm (32-bit)"
        case 243: return "riscv\(wordSize == 1 ? 32 : 64)"
        case 8: return "mips"
        case 20: return "powerpc"
        case 21: return "powerpc64"
        default: return "ELF machine \(machine)"
        }
    }

    /// Reads the header, or explains why the file is not an ELF shared object.
    static func read(path: String) -> Result<ELFHeader, PluginLoadError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            return .failure(.loadFailed(path: path, reason: String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            return .failure(.notSharedObject(path: path, reason: "it is a directory"))
        }
        var bytes = [UInt8](repeating: 0, count: 20)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 20) }
        guard n >= 20, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46 else {
            return .failure(.notSharedObject(path: path, reason: "no ELF header"))
        }
        // e_type and e_machine are little-endian on every Linux target we run on (EI_DATA 1).
        guard bytes[5] == 1 else {
            return .failure(.wrongArchitecture(path: path, found: "a big-endian machine",
                                               expected: machineName(hostMachine, wordSize: 2)))
        }
        let header = ELFHeader(wordSize: bytes[4],
                               fileType: UInt16(bytes[16]) | UInt16(bytes[17]) << 8,
                               machine: UInt16(bytes[18]) | UInt16(bytes[19]) << 8)
        return .success(header)
    }

    /// Checks that the file can be a plugin for this process.
    static func check(path: String) -> PluginLoadError? {
        switch read(path: path) {
        case .failure(let error):
            return error
        case .success(let header):
            let hostWordSize: UInt8 = MemoryLayout<Int>.size == 8 ? 2 : 1
            if header.machine != hostMachine || header.wordSize != hostWordSize {
                return .wrongArchitecture(
                    path: path, found: machineName(header.machine, wordSize: header.wordSize),
                    expected: machineName(hostMachine, wordSize: hostWordSize))
            }
            if header.fileType != 3 {
                let kind = header.fileType == 1 ? "a relocatable object (.o)"
                    : header.fileType == 2 ? "an executable" : "ELF type \(header.fileType)"
                return .notSharedObject(path: path, reason: "it is \(kind)")
            }
            return nil
        }
    }
}
