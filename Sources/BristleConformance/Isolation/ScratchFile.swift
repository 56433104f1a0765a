import BristleHost
import Glibc

/// An anonymous temporary file (``BristleHost/UnlinkedFile``: in `$TMPDIR`, else `/tmp`,
/// unlinked at once, close-on-exec from the start) that a child process gets as one of its
/// file descriptors: the hook record, the result, stderr.
final class ScratchFile {
    let fd: Int32

    init?() {
        guard let fd = UnlinkedFile.create(prefix: "bristle-conform-") else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// `count` bytes from `offset` (fewer when the file is shorter).
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
        return n > 0 ? Array(bytes.prefix(n)) : []
    }

    /// The whole file (at most `limit` bytes, the last ones when it is longer).
    func contents(limit: Int = 1 << 20) -> [UInt8] {
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0 else { return [] }
        let start = max(0, size - limit)
        var bytes = [UInt8](repeating: 0, count: size - start)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        return n > 0 ? Array(bytes.prefix(n)) : []
    }
}
