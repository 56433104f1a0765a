import BristleHost
import Foundation
import Glibc

/// The child side of an isolated test: runs one test against one plugin (and brush), records
/// every plugin call into fd 3 and writes the ``TestOutcome`` as JSON to fd 4. If the plugin
/// crashes, aborts, exits or hangs, the parent reads the hook record and names the call.
public enum ConformanceChild {
    /// The file descriptor of the shared hook record.
    public static let hookDescriptor: Int32 = 3
    /// The file descriptor the JSON outcome goes to.
    public static let resultDescriptor: Int32 = 4
    /// The most a child may write to any file (its output and its outcome): a plugin that
    /// floods stdout is stopped by SIGXFSZ before it fills the temporary folder.
    public static let fileSizeLimit: rlim_t = 64 << 20

    /// Runs the test and returns the process exit status (0 when an outcome was written).
    public static func run(pluginPath: String, testID: String, brushID: String?, seed: UInt64,
                           fuzzScale: Double) -> Int32 {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore) // crashes are expected here; never write core files
        var fileSize = rlimit(rlim_cur: fileSizeLimit, rlim_max: fileSizeLimit)
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &fileSize)
        signal(SIGXFSZ, SIG_DFL)
        ChildLaunch.endWithParent()
        let outcome: TestOutcome
        if let test = ConformanceCatalog.test(testID) {
            let recorder = HookRecorder(sharedFileDescriptor: hookDescriptor) ?? HookRecorder()
            let context = TestContext(pluginPath: pluginPath, brushID: brushID, seed: seed, fuzzScale: fuzzScale,
                                      recorder: recorder)
            outcome = ConformanceRunner.execute(test, context)
        } else {
            outcome = .fail("the harness has no test '\(testID)'")
        }
        guard let data = try? JSONEncoder().encode(outcome) else { return 70 }
        let written = data.withUnsafeBytes { write(resultDescriptor, $0.baseAddress, $0.count) }
        guard written == data.count else {
            let reason = written < 0 ? String(cString: strerror(errno)) : "a short write"
            StandardError.write("bristle conform-child: cannot write the outcome to fd \(resultDescriptor): \(reason) "
                                + "(did the plugin close a file descriptor it does not own?)\n")
            return 74
        }
        return 0
    }
}
