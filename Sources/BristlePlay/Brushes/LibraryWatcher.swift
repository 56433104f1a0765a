import BristleHost
import Dispatch
import Glibc

/// Watches the `--brushes` folders for new versions of brush libraries, as a build writes them.
///
/// Every ``interval`` it looks at each `.so` directly in the folders (size, modification time,
/// inode). A file that changed, and then stayed the same for one more look (the linker has
/// finished writing it), is copied (``LibraryCopies``) and the copy probed
/// (``LibraryProbe``); the outcome goes to the change handler. A file that fails is not tried
/// again until it changes again. With the default 0.25 s, a new build is in use within about
/// a second.
final class LibraryWatcher: @unchecked Sendable {
    enum Change {
        /// A new version of `source` loads: its copy and what it holds.
        case loaded(source: String, library: String, report: PluginReport)
        /// A new version of `source` cannot be used; the previous one stays.
        case failed(source: String, reason: String)
        /// `source` was deleted.
        case removed(source: String)
    }

    private struct Signature: Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt
    }

    let directories: [String]
    let interval: Double
    private let copies: LibraryCopies
    private let bristle: String
    private let queue = DispatchQueue(label: "bristle.play.watcher")
    /// The signature of the version last tried, per file.
    private var tried: [String: Signature] = [:]
    /// A changed signature seen once, waiting to be seen again unchanged.
    private var settling: [String: Signature] = [:]
    private var timer: DispatchSourceTimer?

    init(directories: [String], copies: LibraryCopies, bristle: String, interval: Double = 0.25) {
        self.directories = directories
        self.copies = copies
        self.bristle = bristle
        self.interval = interval
    }

    /// Copies and probes every library in the folders now (at startup).
    func scanNow() -> [Change] {
        queue.sync {
            files().map { file, signature in
                tried[file] = signature
                return load(file)
            }
        }
    }

    /// Starts watching; `onChange` runs on the watcher's queue.
    func start(onChange: @escaping @Sendable (Change) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in self.look().forEach(onChange) }
        timer.resume()
        self.timer = timer
    }

    private func look() -> [Change] {
        var changes: [Change] = []
        let now = files()
        for (file, signature) in now where tried[file] != signature {
            if settling[file] == signature {
                settling[file] = nil
                tried[file] = signature
                changes.append(load(file))
            } else {
                settling[file] = signature
            }
        }
        for file in tried.keys where now[file] == nil {
            tried[file] = nil
            settling[file] = nil
            changes.append(.removed(source: file))
        }
        return changes
    }

    private func load(_ file: String) -> Change {
        switch copies.copy(file) {
        case .failure(let problem):
            return .failed(source: file, reason: problem.reason)
        case .success(let copy):
            switch LibraryProbe.probe(copy, bristle: bristle) {
            case .success(let report): return .loaded(source: file, library: copy, report: report)
            case .failure(let problem): return .failed(source: file, reason: problem.reason)
            }
        }
    }

    /// The `.so` files of the folders with their signatures.
    private func files() -> [String: Signature] {
        var out: [String: Signature] = [:]
        for directory in directories {
            for file in PluginSearchPath.pluginFiles(in: directory) {
                var st = stat()
                guard stat(file, &st) == 0 else { continue }
                out[file] = Signature(size: Int(st.st_size), seconds: Int(st.st_mtim.tv_sec),
                                      nanoseconds: Int(st.st_mtim.tv_nsec), inode: UInt(st.st_ino))
            }
        }
        return out
    }
}
