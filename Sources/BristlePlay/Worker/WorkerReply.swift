import BristleHost

/// The worker's answer to one ``WorkerRequest``: whether it worked, what it changed as layer
/// patches, and a number for the requests that have one.
struct WorkerReply: Equatable {
    enum Status: UInt8 {
        case ok = 0
        /// The request was refused or a hook returned an error; the session undid the stroke
        /// (as `DrawingSession` does) and ``message`` says why.
        case failed = 1
    }

    var status: Status
    /// Why the request failed; empty when it worked.
    var message = ""
    /// `undo`/`redo`: the steps performed; `ticks`: 1 when they ran, 0 when the brush wanted
    /// none; otherwise 0.
    var value: Int32 = 0
    var patches: [LayerPatch] = []

    static func failed(_ message: String, patches: [LayerPatch] = []) -> WorkerReply {
        WorkerReply(status: .failed, message: message, patches: patches)
    }

    /// The payload of a reply frame (its code is ``status``).
    var encoded: [UInt8] {
        var w = ByteWriter(capacity: 32 + patches.reduce(0) { $0 + $1.pixels.count + 17 })
        w.text(message)
        w.i32(value)
        w.u32(UInt32(patches.count))
        for p in patches {
            w.u8(p.kind.rawValue)
            w.i32(p.rect.x)
            w.i32(p.rect.y)
            w.i32(p.rect.width)
            w.i32(p.rect.height)
            w.raw(p.pixels)
        }
        return w.bytes
    }

    /// Decodes a reply frame; nil when it is malformed or a patch lies outside the canvas.
    init?(code: UInt8, payload: [UInt8], canvas: PixelRect) {
        guard let status = Status(rawValue: code) else { return nil }
        var r = ByteReader(payload)
        guard let message = r.text(), let value = r.i32(), let count = r.u32() else { return nil }
        var patches: [LayerPatch] = []
        for _ in 0..<count {
            guard let k = r.u8(), let kind = LayerPatch.Kind(rawValue: k),
                  let x = r.i32(), let y = r.i32(), let w = r.i32(), let h = r.i32() else { return nil }
            let rect = PixelRect(x: x, y: y, width: w, height: h)
            guard !rect.isEmpty, canvas.contains(rect),
                  let pixels = r.raw(Int(w) * Int(h) * 4) else { return nil }
            patches.append(LayerPatch(kind: kind, rect: rect, pixels: Array(pixels)))
        }
        guard r.remaining == 0 else { return nil }
        self.init(status: status, message: message, value: value, patches: patches)
    }

    init(status: Status, message: String = "", value: Int32 = 0, patches: [LayerPatch] = []) {
        self.status = status
        self.message = message
        self.value = value
        self.patches = patches
    }
}
