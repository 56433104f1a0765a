import BristleHost
import Glibc

/// Runs a short command to completion with a time limit, capturing its standard output and
/// error (`bristle inspect --json` on a new library). A command past its limit is killed with
/// its process group.
struct CommandRun {
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
        case notStarted(String)
    }

    var ending: Ending
    var output: [UInt8] = []
    var errors: [UInt8] = []

    /// The most either stream may hold; more is dropped.
    static let captureLimit = 8 << 20

    init(_ command: [String], timeout: Double) {
        ChildSpawn.lock.lock()
        guard let out = ChildSpawn.pipe() else {
            ChildSpawn.lock.unlock()
            ending = .notStarted(String(cString: strerror(errno)))
            return
        }
        guard let err = ChildSpawn.pipe() else {
            ChildSpawn.lock.unlock()
            close(out.read); close(out.write)
            ending = .notStarted(String(cString: strerror(errno)))
            return
        }
        let started = ChildLaunch.start(command, redirect: [(1, out.write), (2, err.write)])
        ChildSpawn.lock.unlock()
        close(out.write)
        close(err.write)
        defer { close(out.read); close(err.read) }
        let pid: pid_t
        switch started {
        case .success(let p): pid = p
        case .failure(let failure):
            ending = .notStarted(failure.reason)
            return
        }
        let deadline = Clock.seconds() + timeout
        var open = [out.read, err.read]
        var timedOut = false
        while !open.isEmpty {
            let left = deadline - Clock.seconds()
            guard left > 0 else {
                timedOut = true
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), Int32(left * 1000 + 1)) > 0 else { continue }
            for p in fds where p.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = read(p.fd, &chunk, chunk.count)
                if n <= 0 {
                    open.removeAll { $0 == p.fd }
                } else if p.fd == out.read {
                    if output.count < Self.captureLimit { output += chunk[0..<n] }
                } else if errors.count < Self.captureLimit {
                    errors += chunk[0..<n]
                }
            }
        }
        let status = ChildSpawn.reap(pid, killFirst: timedOut)
        ending = timedOut ? .timedOut
            : status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }
}
