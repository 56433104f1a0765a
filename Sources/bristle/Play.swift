import ArgumentParser
import BristleHost
import BristlePlay
import Dispatch
import Glibc

/// `bristle play`: draw live in a browser with a real pen; the brushes run in a worker
/// process and are reloaded when a build replaces them.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw with your brushes live in a browser, with hot reload (a local server on 127.0.0.1).",
        discussion: """
            Prints `bristle play: http://127.0.0.1:PORT/#token=TOKEN` first on stdout: open it in a \
            browser. Brushes come from the plugin search path and from each --brushes folder, whose \
            .so files are watched: when a build replaces one, the next stroke uses the new version. \
            Brushes run in a worker process: a brush that crashes or hangs ends only the worker.

            It serves until Ctrl-C or SIGTERM. Exit status when it cannot start: 64 usage, 66 a \
            --brushes folder not found, 71 cannot listen or start, 73 cannot create the folder for \
            library copies.
            """)

    @Option(help: ArgumentHelp("The port on 127.0.0.1 (0 picks a free one).", valueName: "N"))
    var port: UInt16 = 0

    @Option(name: .customLong("brushes"), help: ArgumentHelp("A folder of brush .so files to watch and hot-reload (repeatable).", valueName: "DIR"))
    var brushes: [String] = []

    @Option(help: ArgumentHelp("The canvas size in pixels (default 1024x768).", valueName: "WxH"))
    var canvas: String?

    @Flag(help: "Open the page in the default browser (xdg-open).")
    var open = false

    @Option(help: ArgumentHelp("Seconds a brush may take for one input event before it counts as hung.", valueName: "S", visibility: .hidden))
    var hookTimeout: Double = 5

    @Flag(help: ArgumentHelp("Benchmark only: answer every input message at once with a fixed patch, drawing nothing.", visibility: .hidden))
    var standIn = false

    @Option(help: ArgumentHelp("Benchmark only: with --stand-in, answer this many microseconds after a message arrived.", valueName: "US", visibility: .hidden))
    var standInDelay: Double = 0

    func run() throws {
        // Ctrl-C and kill stop the server even when the parent started it with those signals
        // blocked or ignored (test runners do); the workers end with it.
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            sigaddset(&stopping, signal)
            Glibc.signal(signal, SIG_DFL)
        }
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
        var options = PlayOptions()
        options.port = port
        options.brushDirectories = brushes
        options.hookTimeout = hookTimeout
        options.standIn = standIn
        options.standInDelay = standInDelay / 1e6
        if let canvas {
            guard let size = CLIParsing.size(canvas) else {
                throw ValidationError("--canvas must look like 1024x768, not '\(canvas)'")
            }
            (options.canvasWidth, options.canvasHeight) = size
        }
        let server: PlayServer
        do { server = try PlayServer(options: options) } catch {
            throw Failure.report(error.description, hint: nil, status: error.exitStatus)
        }
        let open = self.open
        let outcome = PlayOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(PlayError) {
                try await server.serve { url in
                    // Straight to fd 1: stdout is block-buffered when it is not a terminal.
                    let line = Array("bristle play: \(url)\n".utf8)
                    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                    StandardError.write("bristle play: library copies go to \(server.session.libraryDirectory) (kept, so recording.json renders later); Ctrl-C stops\n")
                    Task { StandardError.write("bristle play: scheduling: \(await server.session.scheduling())\n") }
                    if open { openInBrowser(url) }
                }
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw Failure.report(error.description, hint: nil, status: error.exitStatus) }
    }
}

/// Starts `xdg-open URL` and leaves it; says so on stderr when it cannot.
private func openInBrowser(_ url: String) {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("xdg-open"), strdup(url), nil]
    defer { argv.forEach { free($0) } }
    // The browser it starts must not inherit the real-time guard's RLIMIT_RTTIME.
    if ThreadPriority.withoutGuard({ posix_spawnp(&pid, "xdg-open", nil, nil, argv, environ) }) != 0 {
        StandardError.write("bristle play: cannot run xdg-open; open the URL above yourself\n")
    }
}

/// The server's end, handed from its task to the command.
private final class PlayOutcome: @unchecked Sendable {
    var error: PlayError?
}

/// `bristle play-worker` (hidden): the brush worker of `bristle play`, started by it with its
/// pipes on fds 3 and 4 and the hook trace on fd 5.
struct PlayWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-worker", abstract: "Run brushes for bristle play (internal).", shouldDisplay: false)

    func run() throws {
        let status = PlayWorker.run()
        if status != 0 { throw ExitCode(status) }
    }
}
