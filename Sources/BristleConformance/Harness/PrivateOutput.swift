import BristleHost
import Glibc

/// Points stdout and stderr at two private scratch files for the length of a test, so that
/// what a brush writes to each is seen apart from the other and from the harness's output.
/// ``restore()`` points them back and passes on what was written.
final class PrivateOutput {
    private let saved: [Int32]
    private let files: [ScratchFile]

    /// The harness's own descriptors behind the redirection (they share offsets with 1 and 2).
    var descriptors: Set<Int32> { Set(files.map(\.fd) + saved) }

    init() throws(CheckFailure) {
        guard let out = ScratchFile(), let err = ScratchFile() else {
            throw CheckFailure("the harness could not create scratch files in \(UnlinkedFile.directory)")
        }
        fflush(nil)
        files = [out, err]
        saved = [dup(1), dup(2)]
        dup2(out.fd, 1)
        dup2(err.fd, 2)
    }

    /// What was written to `stream` (1 or 2) so far, quoted and cut to 80 bytes; nil for nothing.
    func written(stream: Int32) -> String? {
        fflush(nil)
        let bytes = files[Int(stream) - 1].bytes(at: 0, count: 80)
        guard !bytes.isEmpty else { return nil }
        return "\"" + String(decoding: bytes, as: UTF8.self).replacingNewlines + (bytes.count == 80 ? "..." : "") + "\""
    }

    /// Puts stdout and stderr back and copies what was written to them there.
    func restore() {
        fflush(nil)
        for (i, file) in files.enumerated() where saved[i] >= 0 {
            let fd = Int32(i + 1)
            dup2(saved[i], fd)
            close(saved[i])
            let bytes = file.contents(limit: 1 << 16)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }
}

private extension String {
    var replacingNewlines: String { split(whereSeparator: \.isNewline).joined(separator: "\\n") }
}
