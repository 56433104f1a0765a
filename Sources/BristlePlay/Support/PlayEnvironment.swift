import BristleHost
import Glibc

/// What `bristle play` reads from its environment.
enum PlayEnvironment {
    /// `TMPDIR` when set and not empty, else /tmp.
    static var temporaryDirectory: String { UnlinkedFile.directory }
}
