import BristleHost
import Glibc

/// One `Int32` in memory shared by the server and its worker: the worker's brush writes the
/// ``BristleHost/BrushHook`` it is in (``BristleHost/Brush/hookTrace``), so when the worker
/// dies or hangs the server can say in which hook.
///
/// The memory is an unlinked temporary file (in `TMPDIR`, else /tmp) mapped shared by both;
/// the worker gets its descriptor as fd 5.
final class HookTrace {
    let fd: Int32
    let word: UnsafeMutablePointer<Int32>

    /// A new, zeroed trace (server side); nil when no temporary file can be made.
    convenience init?() {
        guard let fd = UnlinkedFile.create(prefix: "bristle-play-trace-") else { return nil }
        guard ftruncate(fd, 4096) == 0 else {
            close(fd)
            return nil
        }
        self.init(fd: fd)
    }

    /// Maps an inherited trace descriptor (worker side); nil when it cannot be mapped.
    init?(fd: Int32) {
        guard let memory = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              memory != MAP_FAILED else { return nil }
        self.fd = fd
        word = memory.assumingMemoryBound(to: Int32.self)
    }

    deinit {
        munmap(word, 4096)
        close(fd)
    }

    /// The hook being run now, nil when none.
    var hook: BrushHook? {
        BrushHook(rawValue: word.pointee)
    }

    func set(_ hook: BrushHook?) { word.pointee = hook?.rawValue ?? 0 }
}
