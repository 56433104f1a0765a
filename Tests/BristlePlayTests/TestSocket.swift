import Foundation
import Glibc

/// A blocking TCP connection to 127.0.0.1 for the tests' HTTP and WebSocket clients, with a
/// receive time limit so that a test fails instead of hanging.
final class TestSocket {
    struct Failure: Error, CustomStringConvertible { var description: String }

    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeout: Double = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed: \(String(cString: strerror(errno)))") }
            done += n
        }
    }

    /// Exactly `count` bytes.
    func receive(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Bytes up to and including `delimiter`.
    func receive(through delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let end = Self.find(delimiter, in: buffer) {
                defer { buffer.removeFirst(end) }
                return Array(buffer[0..<end])
            }
            try fill()
        }
    }

    /// Everything until the server closes the connection.
    func receiveAll() throws -> [UInt8] {
        while (try? fill()) != nil {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = recv(fd, &chunk, chunk.count, 0)
        if n == 0 { throw Failure(description: "the server closed the connection") }
        guard n > 0 else { throw Failure(description: "nothing received in time (\(String(cString: strerror(errno))))") }
        buffer += chunk[0..<n]
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle {
            return i + needle.count
        }
        return nil
    }
}

/// One HTTP/1.1 GET with `Connection: close`, for the tests.
struct TestHTTP {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    static func get(port: UInt16, _ target: String, headers: [String: String] = [:]) throws -> TestHTTP {
        let socket = try TestSocket(port: port)
        var request = "GET \(target) HTTP/1.1\r\nConnection: close\r\n"
        var all = headers
        if all["Host"] == nil { all["Host"] = "127.0.0.1:\(port)" }
        for (k, v) in all { request += "\(k): \(v)\r\n" }
        try socket.send(Array((request + "\r\n").utf8))
        let raw = try socket.receiveAll()
        guard let end = raw.indices.first(where: { i in i + 3 < raw.count && raw[i...(i + 3)].elementsEqual([13, 10, 13, 10]) }) else {
            throw TestSocket.Failure(description: "no HTTP header in \(raw.count) bytes")
        }
        let head = String(decoding: raw[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let status = head.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw TestSocket.Failure(description: "bad status line \(head.first ?? "")")
        }
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return TestHTTP(status: status, headers: fields, body: Array(raw[(end + 4)...]))
    }
}
