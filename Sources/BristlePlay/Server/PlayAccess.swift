import FlyingFox
import Synchronization

/// Who may use the server: requests must name it as 127.0.0.1 or localhost on its port (no
/// DNS rebinding), the API and the WebSocket need the session's token (`?token=` or
/// `Authorization: Bearer`), and a WebSocket upgrade from a page of another origin is refused.
final class PlayAccess: Sendable {
    /// 128 random bits in hex: the secret of the URL printed at start.
    let token: String
    private let boundPort = Mutex<UInt16?>(nil)

    init(token: String = PlayAccess.newToken()) { self.token = token }

    /// A fresh token from the system's random generator.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ -> String in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// The port once the server listens.
    var port: UInt16? {
        get { boundPort.withLock { $0 } }
        set { boundPort.withLock { $0 = newValue } }
    }

    /// The origins a page of this server has.
    private var origins: [String] {
        guard let port else { return [] }
        return ["http://127.0.0.1:\(port)", "http://localhost:\(port)"]
    }

    /// True when the Host header names this server by loopback address.
    func hostAllowed(_ request: HTTPRequest) -> Bool {
        guard let host = request.headers[.host], let port else { return false }
        return host == "127.0.0.1:\(port)" || host == "localhost:\(port)"
    }

    /// True when the request carries the token, in the query or as a bearer token.
    func authorized(_ request: HTTPRequest) -> Bool {
        if let given = request.query["token"], Self.same(given, token) { return true }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
           Self.same(String(header.dropFirst(7)), token) { return true }
        return false
    }

    /// True when the request has no Origin (not a browser page) or this server's.
    func originAllowed(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers[HTTPHeader("Origin")] else { return true }
        return origins.contains(origin)
    }

    /// Compares in time independent of where the strings differ.
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
