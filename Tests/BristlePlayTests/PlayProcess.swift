import BristleTestSupport
import Foundation
import Testing

/// A `bristle play --port 0` process for a test: started with plugins found only beside the
/// executable, its URL line read, stopped (SIGTERM, then reaped) at the end.
final class PlayProcess {
    let port: UInt16
    let token: String
    let urlLine: String
    private let process: Process
    private let errors = Pipe()
    private let collected = Collected()

    /// What the server wrote to stderr, collected while it runs.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ d: Data) { lock.withLock { data.append(d) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// Starts the server with `arguments`, and `environment` over the test's own.
    init(_ arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = TestEnvironment.bristleExecutable
        process.arguments = ["play", "--port", "0"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BRISTLE_PATH"] = nil
        environment["HOME"] = TestEnvironment.scratchDirectory("play-home").path
        environment["TMPDIR"] = TestEnvironment.scratchDirectory("play-tmp").path
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let collected = self.collected
        errors.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        // The first line, read byte by byte (the server keeps the pipe open).
        var line = [UInt8]()
        let reader = output.fileHandleForReading
        while line.last != 10 {
            let byte = reader.readData(ofLength: 1)
            guard !byte.isEmpty else {
                throw TestSocket.Failure(description: "bristle play printed no URL; stderr: \(collected.text)")
            }
            line += byte
        }
        urlLine = String(decoding: line.dropLast(), as: UTF8.self)
        let pattern = /^bristle play: http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]{32})$/
        guard let match = urlLine.wholeMatch(of: pattern), let p = UInt16(match.1) else {
            throw TestSocket.Failure(description: "unexpected first line: \(urlLine)")
        }
        port = p
        token = String(match.2)
    }

    deinit { stop() }

    var stderr: String { collected.text }

    /// The server's process id.
    var pid: pid_t { process.processIdentifier }

    /// Stops the server with SIGTERM (as Ctrl-C would), SIGKILL if it is still there after 10 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<200 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// GET with the token in the query.
    func get(_ path: String) throws -> TestHTTP {
        try TestHTTP.get(port: port, path + (path.contains("?") ? "&" : "?") + "token=\(token)")
    }

    /// A page connected over the WebSocket, past its hello.
    func page() throws -> PageClient { try PageClient(port: port, token: token) }
}
