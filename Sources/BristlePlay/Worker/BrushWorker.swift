import BristleHost
import Glibc

/// The server's handle on one worker process (`bristle play-worker`): starts it (see
/// ``ChildSpawn``), sends ``WorkerRequest``s and waits for each reply with a time limit. When
/// the worker dies or does not answer in time, its group is killed and reaped and the request
/// fails with a ``WorkerFailure`` naming the hook it was in. A failed worker is not used again.
final class BrushWorker {
    private let pid: pid_t
    private let requests: Int32
    private let replies: Int32
    private let trace: HookTrace
    private let canvas: PixelRect
    private(set) var failure: WorkerFailure?
    /// `F_SETPIPE_SZ` of <linux/fcntl.h>, which Glibc's module does not export.
    private static let setPipeSize: Int32 = 1031

    /// Starts `command` (the `bristle` executable and `play-worker`); what the worker prints
    /// (brushes' messages) goes to this process's stderr.
    init(command: [String], canvas: PixelRect) throws(WorkerFailure) {
        ChildSpawn.lock.lock()
        defer { ChildSpawn.lock.unlock() }
        guard let trace = HookTrace() else {
            throw WorkerFailure(ending: .notStarted("cannot create a temporary file in \(UnlinkedFile.directory) (set TMPDIR)"))
        }
        guard let toWorker = ChildSpawn.pipe() else {
            throw WorkerFailure(ending: .notStarted(String(cString: strerror(errno))))
        }
        guard let fromWorker = ChildSpawn.pipe() else {
            close(toWorker.read); close(toWorker.write)
            throw WorkerFailure(ending: .notStarted(String(cString: strerror(errno))))
        }
        // 1 MiB pipes (what /proc/sys/fs/pipe-max-size allows by default) take a stroke's committed
        // pixels in one write instead of a ping-pong of 64 KiB pieces between the two processes.
        for fd in [toWorker.write, fromWorker.write] { _ = fcntl(fd, Self.setPipeSize, 1 << 20) }
        // Sources above 9, so that no dup2 overwrites a later source.
        let sources = [toWorker.read, fromWorker.write, trace.fd].map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
        let started = ChildLaunch.start(command, redirect: [
            (1, 2), (PlayWorker.requestDescriptor, sources[0]), (PlayWorker.replyDescriptor, sources[1]),
            (PlayWorker.traceDescriptor, sources[2]),
        ])
        (sources + [toWorker.read, fromWorker.write]).forEach { close($0) }
        switch started {
        case .success(let pid): self.pid = pid
        case .failure(let failure):
            close(toWorker.write); close(fromWorker.read)
            throw WorkerFailure(ending: .notStarted(failure.reason))
        }
        self.trace = trace
        self.canvas = canvas
        requests = toWorker.write
        replies = fromWorker.read
    }

    deinit {
        close(requests)
        close(replies)
        if failure == nil { ChildSpawn.reap(pid, killFirst: true) }
    }

    /// The worker's scheduling (``ThreadPriority``); nil when it is gone.
    var scheduling: ThreadPriority.Scheduling? { failure == nil ? .of(pid) : nil }

    /// Sends a request and waits at most `timeout` seconds for its reply.
    func send(_ request: WorkerRequest, payload: [UInt8] = [], timeout: Double) -> Result<WorkerReply, WorkerFailure> {
        if let failure { return .failure(failure) }
        guard WorkerPipe.write(requests, code: request.rawValue, payload: payload) else {
            return .failure(fail(.closed))
        }
        switch WorkerPipe.read(replies, deadline: Clock.seconds() + timeout) {
        case .frame(let code, let bytes):
            guard let reply = WorkerReply(code: code, payload: bytes, canvas: canvas) else { return .failure(fail(.garbled)) }
            return .success(reply)
        case .closed:
            return .failure(fail(.closed))
        case .timedOut:
            return .failure(fail(.hung(seconds: timeout)))
        }
    }

    private enum Loss { case closed, garbled, hung(seconds: Double) }

    /// Ends the worker (killing it unless it is already gone), records how it ended and in
    /// which hook, and returns that.
    private func fail(_ loss: Loss) -> WorkerFailure {
        let hook = trace.hook
        let ending: WorkerFailure.Ending
        switch loss {
        case .hung(let seconds):
            ChildSpawn.reap(pid, killFirst: true)
            ending = .hung(seconds: seconds)
        case .garbled:
            ChildSpawn.reap(pid, killFirst: true)
            ending = .garbled
        case .closed:
            let status = ChildSpawn.reap(pid, killFirst: false)
            ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        }
        let f = WorkerFailure(ending: ending, hook: hook)
        failure = f
        return f
    }
}
