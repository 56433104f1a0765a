import CBristleProcess
import Glibc

/// Anonymous temporary files for handing data to and from child processes: created in
/// ``directory``, unlinked at once (nothing is left behind, whatever happens to the process)
/// and close-on-exec from the moment they exist, so a child that another thread starts
/// meanwhile does not inherit them.
public enum UnlinkedFile {
    /// `$TMPDIR` when set and not empty (without a trailing slash), else `/tmp`.
    public static var directory: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 {
            let s = String(cString: t)
            return s.count > 1 && s.hasSuffix("/") ? String(s.dropLast()) : s
        }
        return "/tmp"
    }

    /// A new empty file named `prefix` plus six random characters in ``directory``, open for
    /// reading and writing and already unlinked; its descriptor (the caller closes it), or nil
    /// with `errno` set when it cannot be created.
    public static func create(prefix: String) -> Int32? {
        var template = Array("\(directory)/\(prefix)XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { CBristleProcess_make_temporary($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}
