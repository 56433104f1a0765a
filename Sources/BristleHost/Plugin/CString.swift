import Glibc

/// Reading C strings handed over by a plugin, which the host does not trust.
enum CString {
    /// Why a plugin string was refused.
    enum Problem: Error { case null, tooLong, notUTF8 }

    /// Copies a NUL-terminated UTF-8 string of at most `limit` bytes.
    static func read(_ pointer: UnsafePointer<CChar>?, limit: Int = 4096) -> Result<String, Problem> {
        guard let pointer else { return .failure(.null) }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { return .failure(.tooLong) }
        let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: length),
                                as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(text)
    }
}
