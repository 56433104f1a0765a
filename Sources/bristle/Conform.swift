import ArgumentParser
import BristleConformance
import BristleHost
import Foundation
import Glibc

/// `bristle conform`: runs the conformance harness on a plugin file and reports each test.
/// Exit status (issue #5, unlike the other subcommands): 0 conformant at the tier, 1 not
/// conformant (including a file that does not load), 2 could not run.
struct Conform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a brush plugin against the ABI: load, descriptors, strokes, canvas safety, determinism, fuzzing.",
        discussion: """
            Every test runs in a child process with a timeout, so a crash, abort, exit() or hang \
            becomes a verdict naming the plugin call in flight. Tiers: basic (library and \
            descriptors), standard (the default: strokes, canvas safety, dirty rectangles, cancel, \
            predicted samples), strict (determinism, threads, odd sizes, fuzzing, times). \
            See docs/CONFORMANCE.md.

            Exit status: 0 conformant at the tier, 1 not conformant (also when the file cannot be \
            loaded), 2 could not run (usage error, file not found).
            """)

    @Argument(help: ArgumentHelp("The plugin .so file to check, or FILE.so#ID for one of its brushes.", valueName: "PLUGIN"))
    var plugin: String?

    @Option(help: ArgumentHelp("Only test this brush: an id (without PLUGIN: looked up on the search path) or FILE.so#ID.", valueName: "ID"))
    var brush: String?

    @Option(help: "basic, standard or strict.")
    var tier: String = ConformanceTier.standard.rawValue

    @Flag(help: "Print the report as JSON (schema in docs/CONFORMANCE.md).")
    var json = false

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Run only tests whose id matches this regular expression.", valueName: "REGEX"))
    var include: String?

    @Option(help: ArgumentHelp("Skip tests whose id matches this regular expression.", valueName: "REGEX"))
    var exclude: String?

    @Option(help: ArgumentHelp("Seed for every random choice (default: a fresh one, printed).", valueName: "N"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Replay a run: the seed a report printed.", valueName: "SEED"))
    var reproduce: UInt64?

    @Option(help: ArgumentHelp("Per-test time limit in seconds.", valueName: "SECONDS"))
    var timeout: Double = ConformanceOptions.defaultTimeout

    @Option(help: ArgumentHelp("Child processes run at once.", valueName: "N"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp("Scale fuzzing iteration counts (the project's own tests use < 1).", valueName: "X"))
    var fuzzScale: Double = 1

    @Flag(help: "Run every test in this process (debugging: a crash ends the run).")
    var inProcess = false

    @Flag(help: "List the tests instead of running them (with --json: as JSON).")
    var listTests = false

    func run() throws {
        if listTests {
            if json { print(try JSONOutput.encode(TestListing.all)) } else { print(TestListing.text, terminator: "") }
            return
        }
        let (plugin, brush) = try target()
        guard let tier = ConformanceTier(rawValue: tier) else {
            throw usage("--tier must be basic, standard or strict, not '\(self.tier)'")
        }
        guard seed == nil || reproduce == nil else { throw usage("give --seed or --reproduce, not both") }
        guard timeout > 0, timeout.isFinite else { throw usage("--timeout must be a positive number of seconds") }
        guard jobs >= 1, jobs <= 64 else { throw usage("--jobs must be 1...64") }
        guard fuzzScale > 0, fuzzScale <= 100 else { throw usage("--fuzz-scale must be in (0, 100]") }
        var st = stat()
        guard stat(plugin, &st) == 0 else { throw usage("\(plugin): no such file") }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw usage("\(plugin) is not a file (a folder or a device); give the plugin's .so file")
        }
        if let junit {
            do {
                try AtomicFileWriter.checkDestinationIsWritable(junit)
            } catch {
                throw usage("cannot write the JUnit report: \(error.description)")
            }
        }
        var options = ConformanceOptions(pluginPath: plugin)
        options.brushID = brush
        options.tier = tier
        options.include = include
        options.exclude = exclude
        options.seed = reproduce ?? seed ?? UInt64.random(in: 0..<1_000_000)
        options.timeout = timeout
        options.jobs = jobs
        options.fuzzScale = fuzzScale
        options.inProcess = inProcess
        var report: ConformanceReport
        do {
            report = try ConformanceRunner.run(options) { result in
                if !json { print(HumanReport.lines(for: result), terminator: "") }
                fflush(nil)
            }
        } catch {
            throw usage(error.description)
        }
        if report.conformant, include == nil, exclude == nil, !listTests {
            ConformStatistics.measure(plugin: plugin, brush: brush, into: &report)
        }
        if json {
            print(try JSONOutput.encode(report))
        } else {
            print(report.summaryLine)
            if let rows = report.hookStatistics {
                print("per hook, the standard sheet (bristle sheet) drawn through the brush:")
                print(HookStatistics(rows: rows).table)
            } else if let error = report.hookStatisticsError {
                print("per hook: not measured: \(error)")
            }
        }
        if let junit {
            do {
                try AtomicFileWriter.write(Array(JUnitReport.render(report).utf8), to: junit)
            } catch {
                StandardError.line("bristle: error: cannot write the JUnit report: \(error.description)")
                throw ExitCode(2)
            }
        }
        if !report.conformant { throw ExitCode(1) }
    }

    /// The plugin file and the brush to check, from PLUGIN and --brush: PLUGIN may be
    /// `FILE.so#ID`; --brush may be an id, or `FILE.so#ID` in place of PLUGIN; with no PLUGIN,
    /// --brush ID is looked up on the plugin search path (warning when several plugins provide it).
    private func target() throws -> (plugin: String, brush: String?) {
        var file: String?, id: String?
        if let plugin {
            switch BrushReference(plugin) {
            case .file(let path, let chosen): (file, id) = (path, chosen)
            case .id: (file, id) = (plugin, nil)
            }
        }
        if let brush {
            let chosen: String?
            switch BrushReference(brush) {
            case .file(let path, let named):
                guard file == nil || file == path else {
                    throw usage("--brush \(brush) names another file than PLUGIN \(plugin ?? ""); give one of them")
                }
                (file, chosen) = (path, named)
            case .id(let named):
                chosen = named
                if file == nil {
                    let catalog = PluginCatalog()
                    do { file = try catalog.library(forBrush: named).path } catch {
                        let status = usage(error.description)
                        StandardError.line("bristle: hint: \(error.hint)")
                        throw status
                    }
                    if let warning = catalog.clashWarning(id: named) { StandardError.line("bristle: warning: \(warning)") }
                }
            }
            guard id == nil || chosen == nil || id == chosen else {
                throw usage("PLUGIN names brush '\(id!)' and --brush '\(chosen!)'; give one of them")
            }
            id = id ?? chosen
        }
        guard let file else { throw usage("missing PLUGIN: give the .so file to check (or --brush ID)") }
        return (file, id)
    }

    private func usage(_ message: String) -> ExitCode {
        StandardError.line("bristle: error: \(message)")
        return ExitCode(2)
    }

    /// True when the command line runs `conform`, whose parser errors exit with 2, not EX_USAGE.
    static func isConform(_ arguments: [String]) -> Bool { arguments.dropFirst().first == "conform" }
}
