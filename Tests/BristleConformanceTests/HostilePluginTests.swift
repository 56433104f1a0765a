import BristleConformance
import BristleTestSupport
import Foundation
import Glibc
import Testing

/// The harness under hostile or extreme plugins and command lines: it must give each the
/// verdict or status it deserves, never one that blames the wrong party, and its reproduce
/// commands must reproduce.
@Suite struct HostilePluginTests {
    static func conform(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["conform"] + arguments, currentDirectory: directory)
    }

    @Test func theLoadersLimitsLoad() throws {
        // 4096 brushes with 255-byte ids: more than 1 MiB of outcome JSON from library.load.
        let report = try ZooTests.run(ZooTests.zoo("MANY_BRUSHES"), tier: .basic, include: "^library\\.load$")
        let load = try #require(report.results.first)
        #expect(load.verdict == .pass, "\(load.message.prefix(300))")
        #expect(load.message.hasPrefix("4096 brush(es): test.zoo, ") && load.message.hasSuffix(" and 4088 more"),
                "\(load.message.prefix(300))")
    }

    @Test func aChildThatCannotStartIsTheHarnessNotThePlugin() throws {
        // A harness that cannot start its children has not judged the plugin: no verdict, a
        // RunError (status 2 from the CLI), and nothing left running.
        var options = ConformanceOptions(pluginPath: try ZooTests.zoo(nil))
        options.tier = .basic
        options.childCommand = ["/nonexistent/bristle", "conform-child"]
        #expect(throws: ConformanceRunner.RunError.harness("cannot start /nonexistent/bristle: No such file or directory")) {
            try ConformanceRunner.run(options)
        }
    }

    @Test func anUnusableTemporaryFolderIsStatusTwo() throws {
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path,
                                      ["conform", try ZooTests.zoo(nil), "--tier", "basic"],
                                      environment: ["TMPDIR": "/nonexistent/tmp"])
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("could not run a test: cannot create temporary files in /nonexistent/tmp"), "\(r.stderr)")
    }

    @Test func aPluginFloodingItsOutputIsStoppedAtTheFileSizeLimit() throws {
        let report = try ZooTests.run(ZooTests.zoo("FLOODS_OUTPUT"), tier: .standard,
                                      include: "^lifecycle\\.single-stroke$")
        let r = try #require(report.results.first)
        #expect(r.verdict == .crash)
        #expect(r.message.contains("SIGXFSZ") && r.message.contains("moved("), "\(r.message)")
    }

    @Test func closingTheHarnessDescriptorsCannotCutTheHarnessOff() throws {
        // The result travels through a mapping taken before the test, so the test that checks
        // descriptors names them, and the others still report (ZooDefectTests has the full run).
        let report = try ZooTests.run(ZooTests.zoo("CLOSES_HARNESS_FDS"), tier: .strict,
                                      include: "^(lifecycle\\.single-stroke|hygiene\\.file-descriptors)$")
        #expect(ZooTests.nonPassing(report) == ["hygiene.file-descriptors": .fail])
        let r = try #require(report.results.first { $0.test == "hygiene.file-descriptors" })
        #expect(r.message.contains("closed file descriptor 3") && r.message.contains("closed file descriptor 4")
                    && r.message.contains("which it does not own"), "\(r.message)")
    }

    @Test func aDamagedSectionHeaderOffsetIsAFailNotAHarnessCrash() throws {
        // dlopen never reads section headers, so the library still loads; the harness's own
        // ELF reader must not trap on an offset near 2^63.
        let path = try ZooTests.zoo(nil)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 0..<8 { bytes[0x28 + i] = i == 7 ? 0x7F : (i == 0 ? 0xF0 : 0xFF) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let report = try ZooTests.run(path, tier: .basic, include: "^library\\.(load|entry-present|exports-only-entry)$")
        #expect(ZooTests.nonPassing(report) == ["library.entry-present": .fail, "library.exports-only-entry": .fail],
                "\(report.results.map { "\($0.test): \($0.message)" })")
    }

    @Test func aPluginNamedWithoutASlashIsFoundInTheCurrentFolder() throws {
        let path = URL(fileURLWithPath: try ZooTests.zoo(nil))
        let r = try Self.conform([path.lastPathComponent, "--tier", "basic", "--seed", "2", "--exclude", ZooTests.timeTests],
                                 in: path.deletingLastPathComponent())
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("PASS    library.rtld-now"))
    }

    @Test func aSelectionOfNoTestIsAUsageErrorNotAConformantRun() throws {
        let path = try ZooTests.zoo(nil)
        for arguments in [["--include", "^no-such-test$"], ["--exclude", "."], ["--tier", "basic", "--include", "^canvas\\."]] {
            let r = try Self.conform([path, "--seed", "1"] + arguments)
            #expect(r.status == 2, "\(arguments): \(r.stdout)")
            #expect(r.stderr.contains("leave no test of tier"), "\(r.stderr)")
            #expect(!r.stdout.contains("CONFORMANT"))
        }
    }

    @Test func aFolderGivenAsThePluginIsNotCalledMissing() throws {
        let dir = TestEnvironment.scratchDirectory("conform-folder")
        let r = try Self.conform([dir.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("is not a file") && !r.stderr.contains("no such file"), "\(r.stderr)")
        #expect(try Self.conform([dir.appendingPathComponent("missing.so").path]).stderr.contains("no such file"))
    }

    @Test func anUnwritableJUnitFileIsRefusedBeforeAnyTestRuns() throws {
        let path = try ZooTests.zoo(nil)
        let dir = TestEnvironment.scratchDirectory("conform-junit-dir")
        for junit in [dir.path, dir.appendingPathComponent("missing/report.xml").path] {
            let r = try Self.conform([path, "--seed", "1", "--junit", junit])
            #expect(r.status == 2)
            #expect(r.stderr.contains("cannot write the JUnit report"), "\(r.stderr)")
            #expect(r.stdout.isEmpty, "no test ran: \(r.stdout.prefix(200))")
        }
    }

    @Test func aTimeoutsReproduceCommandCarriesTheTimeoutAndReproduces() throws {
        let path = try ZooTests.zoo("HANG_IN_MOVED")
        let r = try Self.conform([path, "--seed", "4", "--timeout", "0.5", "--include", "^lifecycle\\.single-stroke$"])
        #expect(r.status == 1)
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("reproduce: ") })
        let command = String(line.split(separator: "reproduce: ", maxSplits: 1)[1])
        #expect(command.contains("--timeout 0.5"), "\(command)")
        let again = try ProcessResult.run("/bin/sh", ["-c", command],
                                          environment: ["PATH": TestEnvironment.bristleExecutable.deletingLastPathComponent().path
                                                            + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
        #expect(again.status == 1 && again.stdout.contains("TIMEOUT lifecycle.single-stroke"), "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("no result after 0.5 s of its own time"), "the reproduction used the run's timeout: \(again.stdout)")
    }

    @Test func killingTheHarnessEndsAChildStuckInAHook() throws {
        // The parent's deadline dies with it: the child must not spin on as an orphan.
        let path = try ZooTests.zoo("HANG_IN_MOVED")
        let arguments = [TestEnvironment.bristleExecutable.path, "conform", path, "--seed", "1", "--timeout", "300",
                         "--include", "^lifecycle\\.single-stroke$"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var parent: pid_t = 0
        try #require(posix_spawn(&parent, arguments[0], &actions, nil, argv, environ) == 0)
        func children() -> [pid_t] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry in
                guard let pid = pid_t(entry),
                      let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
                let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return words.contains("conform-child") && words.contains(path) ? pid : nil
            }
        }
        func waitFor(_ condition: () -> Bool) -> Bool {
            for _ in 0..<200 where !condition() { usleep(50_000) }
            return condition()
        }
        #expect(waitFor { !children().isEmpty }, "the child started")
        kill(parent, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(parent, &status, 0)
        let ended = waitFor { children().isEmpty }
        for orphan in children() { kill(orphan, SIGKILL) }
        #expect(ended, "the child ended with its parent")
    }
}
