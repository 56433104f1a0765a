import BristleHost
import Foundation

/// What the page does, from a test: sends input messages over the WebSocket, paints the
/// patches into its own copy of the canvas, and collects status lines.
final class PageClient {
    let socket: TestWebSocket
    let width: Int
    let height: Int
    /// The canvas as painted from the patches (opaque RGBA, as `canvas.png` decodes).
    private(set) var canvas: [UInt8]
    private(set) var statuses: [(error: Bool, text: String)] = []
    private(set) var brushes: [[String: Any]] = []
    /// Patches received per answered seq.
    private(set) var patchCounts: [UInt32: Int] = [:]
    private var seq: UInt32 = 0

    init(port: UInt16, token: String) throws {
        socket = try TestWebSocket(port: port, target: "/ws?token=\(token)")
        guard socket.status == 101 else { throw TestSocket.Failure(description: "upgrade refused: \(socket.status)") }
        guard case .text(let hello) = try socket.receive(),
              let json = try JSONSerialization.jsonObject(with: Data(hello.utf8)) as? [String: Any],
              json["type"] as? String == "hello", let canvas = json["canvas"] as? [String: Any],
              let w = canvas["width"] as? Int, let h = canvas["height"] as? Int else {
            throw TestSocket.Failure(description: "no hello")
        }
        width = w
        height = h
        brushes = json["brushes"] as? [[String: Any]] ?? []
        self.canvas = [UInt8](repeating: 0, count: w * h * 4)
        _ = try next()  // the whole canvas
    }

    /// Reads one message: paints patches, keeps statuses and brush lists; returns the last seq
    /// a patch message answers, nil for text.
    @discardableResult
    func next() throws -> UInt32? {
        switch try socket.receive() {
        case .text(let text):
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
            if json["type"] as? String == "status" {
                statuses.append((json["level"] as? String == "error", json["text"] as? String ?? ""))
            } else if let list = json["brushes"] as? [[String: Any]] {
                brushes = list
            }
            return nil
        case .binary(let bytes):
            var r = Reader(bytes)
            guard r.u8() == 1 else { throw TestSocket.Failure(description: "not a patch message") }
            _ = r.u8(); _ = r.u8(); _ = r.u8()
            _ = r.u32()
            let seq = r.u32(), count = r.u32()
            for _ in 0..<count {
                let x = Int(r.u32()), y = Int(r.u32()), w = Int(r.u32()), h = Int(r.u32())
                for row in 0..<h {
                    let start = ((y + row) * width + x) * 4
                    canvas.replaceSubrange(start..<(start + w * 4), with: r.bytes(w * 4))
                }
            }
            patchCounts[seq, default: 0] += Int(count)
            return seq
        }
    }

    /// Reads messages until the answer to `seq` (or to a later one, which answers it too).
    func wait(for seq: UInt32) throws {
        while true {
            if let answered = try next(), answered >= seq { return }
        }
    }

    /// Reads messages until a status line containing `text` arrived.
    func waitForStatus(containing text: String) throws -> String {
        while true {
            if let found = statuses.first(where: { $0.text.contains(text) }) { return found.text }
            try next()
        }
    }

    func send(_ json: [String: Any]) throws -> UInt32 {
        seq += 1
        var message = json
        if ["down", "move", "up", "cancel"].contains(json["type"] as? String) { message["seq"] = Int(seq) }
        try socket.send(json: message)
        return seq
    }

    func choose(_ id: String, color: String = "#1a4dcc", width: Double = 6, params: [String: Any] = [:]) throws {
        _ = try send(["type": "brush", "id": id, "color": color, "width": width, "params": params])
    }

    /// A pen sample at (x, y).
    static func sample(_ x: Double, _ y: Double, pressure: Double = 0.5, t: Double) -> [String: Any] {
        ["x": x, "y": y, "pressure": pressure, "tiltX": 10, "tiltY": -20, "twist": 30, "width": 1, "height": 1,
         "timeStamp": t, "buttons": 1]
    }

    /// Draws a pen stroke through `points`, each move with two coalesced samples (the midpoint
    /// and the point) and one predicted; waits for every answer.
    func stroke(_ points: [(Double, Double)], cancel: Bool = false) throws {
        var t = 1000.0
        try wait(for: try send(["type": "down", "pointerType": "pen", "event": Self.sample(points[0].0, points[0].1, t: t)]))
        for (i, p) in points.enumerated().dropFirst() {
            let previous = points[i - 1]
            t += 8
            var event = Self.sample(p.0, p.1, pressure: 0.3 + 0.05 * Double(i % 10), t: t)
            event["coalesced"] = [Self.sample((p.0 + previous.0) / 2, (p.1 + previous.1) / 2, t: t - 4),
                                  Self.sample(p.0, p.1, pressure: 0.3 + 0.05 * Double(i % 10), t: t)]
            event["predicted"] = [Self.sample(p.0 + (p.0 - previous.0), p.1 + (p.1 - previous.1), t: t + 8)]
            try wait(for: try send(["type": "move", "event": event]))
        }
        try wait(for: try send(["type": cancel ? "cancel" : "up"]))
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        mutating func u8() -> UInt8 { defer { offset += 1 }; return bytes[offset] }
        mutating func u32() -> UInt32 {
            defer { offset += 4 }
            return (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        }
        mutating func bytes(_ n: Int) -> ArraySlice<UInt8> {
            defer { offset += n }
            return bytes[offset..<(offset + n)]
        }
    }
}
