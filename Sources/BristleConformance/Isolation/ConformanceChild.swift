import BristleHost
import Foundation
import Glibc

/// The child side of an isolated test: runs one test against one plugin (and brush), records
/// every plugin call into fd 3 (where the fault and exit handlers also leave their note) and
/// delivers the ``TestOutcome`` through the result file on fd 4 (``ResultChannel``). If the
/// plugin crashes, aborts, exits or hangs, the parent reads the hook record and names the call.
public enum ConformanceChild {
    /// The file descriptor of the shared hook record.
    public static let hookDescriptor: Int32 = 3
    /// The file descriptor of the result file.
    public static let resultDescriptor: Int32 = 4
    /// The most a child may write to any file (its output and its outcome): a plugin that
    /// floods stdout is stopped by SIGXFSZ before it fills the temporary folder.
    public static let fileSizeLimit: rlim_t = 64 << 20

    /// Runs the test and returns the process exit status (0 when an outcome was delivered).
    public static func run(pluginPath: String, testID: String, brushID: String?, seed: UInt64,
                           fuzzScale: Double) -> Int32 {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore) // crashes are expected here; never write core files
        var fileSize = rlimit(rlim_cur: fileSizeLimit, rlim_max: fileSizeLimit)
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &fileSize)
        signal(SIGXFSZ, SIG_DFL)
        ChildLaunch.endWithParent()
        let channel = ResultChannel(descriptor: resultDescriptor)
        let recorder = HookRecorder(sharedFileDescriptor: hookDescriptor) ?? HookRecorder()
        recorder.catchFaultsAndExits()
        let outcome: TestOutcome
        if let test = ConformanceCatalog.test(testID) {
            let context = TestContext(pluginPath: pluginPath, brushID: brushID, seed: seed, fuzzScale: fuzzScale,
                                      recorder: recorder)
            outcome = ConformanceRunner.execute(test, context)
        } else {
            outcome = .fail("the harness has no test '\(testID)'")
        }
        recorder.finish()
        if let problem = channel.deliver(outcome) {
            recorder.note("the harness could not deliver the test's result: \(problem)")
            return 74
        }
        return 0
    }
}
