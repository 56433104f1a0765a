import BristleHost
import Glibc

/// The worker side of `bristle play` (the hidden `bristle play-worker`): it owns the brushes
/// and runs them on a ``DrawingSession`` exactly as `bristle render` does, request by request.
///
/// Requests come on fd 3, replies go to fd 4 (``WorkerPipe`` frames), fd 5 is the
/// ``HookTrace``. A brush that crashes, aborts or hangs ends this process only: the server
/// names the hook from the trace and starts a fresh worker.
public enum PlayWorker {
    public static let requestDescriptor: Int32 = 3
    public static let replyDescriptor: Int32 = 4
    public static let traceDescriptor: Int32 = 5

    /// Serves requests until the server closes the pipe; returns the exit status.
    public static func run() -> Int32 {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore) // a crashing brush is expected; no core files
        ChildLaunch.endWithParent()
        // The page waits for every reply: the worker answers at the session thread's priority,
        // real-time where permitted, guarded by RLIMIT_RTTIME (see ThreadPriority).
        ThreadPriority.guardAgainstBrushes()
        ThreadPriority.raise()
        guard let trace = HookTrace(fd: traceDescriptor) else {
            StandardError.write("bristle play-worker: fd \(traceDescriptor) is not the hook trace (this command is started by bristle play)\n")
            return 64
        }
        let state = WorkerState(trace: trace)
        while case .frame(let code, let payload) = WorkerPipe.read(requestDescriptor, deadline: nil) {
            ThreadPriority.reassert()  // the previous request may have run too long for real time
            let reply: WorkerReply
            if let request = WorkerRequest(rawValue: code) {
                reply = state.handle(request, payload: String(decoding: payload, as: UTF8.self))
            } else {
                reply = .failed("unknown request \(code)")
            }
            guard WorkerPipe.write(replyDescriptor, code: reply.status.rawValue, payload: reply.encoded) else {
                return 74
            }
        }
        return 0
    }
}
