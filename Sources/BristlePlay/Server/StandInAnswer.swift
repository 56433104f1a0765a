import BristleHost

/// The benchmark's stand-in for a server that does no work (`bristle play --stand-in`): every
/// input message is answered at once, on the connection's own task, with the same small patch
/// and the message's sequence number, without parsing the message, a session queue, a worker
/// or a brush. Input-to-paint measured against it is the floor that the browser, the
/// WebSocket and FlyingFox set on this machine; `Tests/Browser/play_browser_test.py` measures
/// it back to back with the real server (docs/PERFORMANCE.md).
enum StandInAnswer {
    /// The answer's patch: 8 x 8 white pixels at the canvas's corner (288 bytes with the
    /// headers, about what a pencil event sends), made once; only the seq changes.
    private static let template = PageMessage.patches(
        [LayerPatch(kind: .preview, rect: PixelRect(x: 0, y: 0, width: 8, height: 8), pixels: [UInt8](repeating: 255, count: 8 * 8 * 4))],
        seqs: 0...0, background: .white)

    /// The answer to `text`, or nil when it carries no `"seq":N` (a brush choice, undo...).
    static func answer(_ text: String) -> [UInt8]? {
        guard let seq = sequenceNumber(text) else { return nil }
        var bytes = template
        withUnsafeBytes(of: seq.littleEndian) { seqBytes in
            bytes.replaceSubrange(4..<8, with: seqBytes)  // first seq
            bytes.replaceSubrange(8..<12, with: seqBytes)  // last seq
        }
        return bytes
    }

    /// The number after the first `"seq":` (as the page's `JSON.stringify` writes it, without
    /// spaces); nil when there is none or it is not a positive `UInt32`.
    static func sequenceNumber(_ text: String) -> UInt32? {
        let key = Array("\"seq\":".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= key.count else { return nil }
        for start in 0...(bytes.count - key.count) where bytes[start..<start + key.count].elementsEqual(key) {
            var value: UInt64 = 0
            var i = start + key.count
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57, value <= UInt64(UInt32.max) {
                value = value * 10 + UInt64(bytes[i] - 48)
                i += 1
            }
            guard i > start + key.count, value >= 1, value <= UInt64(UInt32.max) else { return nil }
            return UInt32(value)
        }
        return nil
    }
}
