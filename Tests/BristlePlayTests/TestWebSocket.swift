import Foundation

/// A minimal WebSocket client (RFC 6455) for the protocol tests: handshake, masked text
/// frames out, text and binary messages in.
final class TestWebSocket {
    enum Message {
        case text(String)
        case binary([UInt8])
    }

    private let socket: TestSocket
    /// The handshake's status (101 when upgraded) and the body of a refusal.
    let status: Int
    let refusal: String

    init(port: UInt16, target: String, origin: String? = nil) throws {
        socket = try TestSocket(port: port)
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        try socket.send(Array((request + "\r\n").utf8))
        let head = String(decoding: try socket.receive(through: [13, 10, 13, 10]), as: UTF8.self)
        status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var body = ""
        if status != 101, let lengthLine = head.components(separatedBy: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
           let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) {
            body = String(decoding: try socket.receive(length), as: UTF8.self)
        }
        refusal = body
    }

    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.send(frame)
    }

    func send(json: [String: Any]) throws {
        try send(String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self))
    }

    /// The next text or binary message (continuation frames joined).
    func receive() throws -> Message {
        var opcode: UInt8 = 0
        var payload: [UInt8] = []
        while true {
            let head = try socket.receive(2)
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                let b = try socket.receive(2)
                length = Int(b[0]) << 8 | Int(b[1])
            } else if length == 127 {
                length = try socket.receive(8).reduce(0) { $0 << 8 | Int($1) }
            }
            let data = try socket.receive(length)
            let code = head[0] & 0x0F
            if code == 0x8 { throw TestSocket.Failure(description: "the server closed the WebSocket") }
            if code == 0x9 || code == 0xA { continue }
            if code != 0 { opcode = code }
            payload += data
            if head[0] & 0x80 != 0 { break }
        }
        return opcode == 1 ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
    }
}
