import BristleHost
import FlyingFox
import Foundation

/// The `bristle play` server: FlyingFox's HTTP and WebSocket server on 127.0.0.1, serving the
/// page, the token-protected API and the `/ws` socket of the ``PlaySession``.
///
/// | route | token | answer |
/// |---|---|---|
/// | `GET /`, `/play.js`, `/play.css` | no | the page (no secret in it) |
/// | `GET /api/canvas.png` | yes | the committed canvas as `bristle render` exports it |
/// | `GET /api/recording.json` | yes | the session as a stroke script |
/// | `GET /api/brushes` | yes | the brushes: id, name, params... |
/// | `GET /api/stats` | yes | host-side time from input message to patch, patch bytes (`?reset=1` restarts) |
/// | `GET /ws` (upgrade) | yes, in the query | the page's WebSocket; a foreign `Origin` is refused |
///
/// Every request must name the server as `127.0.0.1:PORT` or `localhost:PORT` in `Host` (403
/// otherwise); a missing or wrong token is 401.
public final class PlayServer: Sendable {
    public let session: PlaySession
    private let access = PlayAccess()
    private let options: PlayOptions

    /// Prepares the session (brushes, first worker); nothing listens yet.
    public init(options: PlayOptions) throws(PlayError) {
        self.options = options
        session = try PlaySession(options: options)
    }

    /// Listens on 127.0.0.1 and serves until the task is cancelled; `listening` gets the
    /// page's URL (with the token) as soon as connections are accepted.
    public func serve(listening: @Sendable (String) -> Void) async throws(PlayError) {
        let address: sockaddr_in
        do { address = try .inet(ip4: "127.0.0.1", port: options.port) } catch {
            throw .system("cannot make the address 127.0.0.1:\(options.port): \(error)")
        }
        let pool = NoDelaySocketPool(DirectSocketPool())
        let server = HTTPServer(config: HTTPServer.Configuration(address: address, timeout: 60, pool: pool, logger: .disabled),
                                handler: ClosureHTTPHandler { [self] request in await handle(request) })
        let running = Task { try await server.run() }
        do {
            try await server.waitUntilListening(timeout: 30)
        } catch {
            running.cancel()
            var reason = "it did not start listening"
            if case .failure(let why) = await running.result { reason = "\(why)" }
            throw .system("cannot listen on 127.0.0.1:\(options.port): \(reason)")
        }
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            running.cancel()
            throw .system("the server has no address")
        }
        // No connection before the listening socket has TCP_NODELAY (its connections inherit it).
        let deadline = Clock.seconds() + 30
        while !pool.listenerReady, Clock.seconds() < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        guard pool.listenerReady else {
            running.cancel()
            throw .system("the server did not start accepting connections")
        }
        if let problem = pool.problem { StandardError.write("bristle play: cannot turn off Nagle's algorithm (\(problem)); answers may lag\n") }
        access.port = port
        listening("http://127.0.0.1:\(port)/#token=\(access.token)")
        do { try await running.value } catch is CancellationError {} catch {
            throw .system("the server stopped: \(error)")
        }
    }

    private func handle(_ request: HTTPRequest) async -> HTTPResponse {
        guard access.hostAllowed(request) else {
            return text(.forbidden, "bristle play answers to 127.0.0.1 and localhost on its port only\n")
        }
        guard request.method == .GET else { return text(.methodNotAllowed, "only GET\n") }
        if let file = PlayPage.file(request.path) {
            return HTTPResponse(statusCode: .ok, headers: [.contentType: file.contentType, .cacheControl: "no-store"],
                                body: Data(file.bytes))
        }
        let api = ["/api/canvas.png", "/api/recording.json", "/api/brushes", "/api/stats", "/ws"]
        guard api.contains(request.path) else { return text(.notFound, "no such page\n") }
        guard access.authorized(request) else {
            return text(.unauthorized, "a token is required: ?token=TOKEN or Authorization: Bearer TOKEN\n")
        }
        switch request.path {
        case "/api/canvas.png":
            switch await session.canvasPNG() {
            case .success(let png):
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"], body: Data(png))
            case .failure(let error):
                return text(.internalServerError, "\(error)\n")
            }
        case "/api/recording.json":
            return json(await session.recordingJSON())
        case "/api/brushes":
            return json(await session.brushesJSON())
        case "/api/stats":
            return json(await session.statsJSON(reset: request.query["reset"] == "1"))
        default:
            guard access.originAllowed(request) else {
                return text(.forbidden, "WebSocket connections from other origins are refused\n")
            }
            do { return try await WebSocketHTTPHandler(handler: PlayConnection(session: session)).handleRequest(request) } catch {
                return text(.badRequest, "\(error)\n")
            }
        }
    }

    private func text(_ status: HTTPStatusCode, _ body: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(body.utf8))
    }

    private func json(_ body: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: Data(body.utf8))
    }
}
