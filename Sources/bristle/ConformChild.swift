import ArgumentParser
import BristleConformance

/// `bristle conform-child` (hidden): the child side of one isolated conformance test. The
/// parent starts it with the hook record on fd 3 and the result file on fd 4.
struct ConformChild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform-child", abstract: "Run one conformance test (internal).", shouldDisplay: false)

    @Option var plugin: String
    @Option var test: String
    @Option var brush: String?
    @Option var seed: UInt64 = 0
    @Option var fuzzScale: Double = 1

    func run() throws {
        let status = ConformanceChild.run(pluginPath: plugin, testID: test, brushID: brush, seed: seed,
                                          fuzzScale: fuzzScale)
        if status != 0 { throw ExitCode(status) }
    }
}
