@testable import BristlePlay
import FlyingFox
import Foundation
import Testing

/// The WebSocket protocol of the page's frames (``ClientFrames``).
@Suite struct ClientFramesTests {
    @Test func pageFramesArePutTogetherAndTheProtocolIsKept() {
        func frame(_ opcode: WSFrame.Opcode, _ bytes: [UInt8], fin: Bool = true) -> WSFrame {
            WSFrame(fin: fin, opcode: opcode, mask: WSFrame.Mask(m1: 1, m2: 2, m3: 3, m4: 4), payload: Data(bytes))
        }
        var frames = ClientFrames()
        #expect(frames.take(frame(.text, Array("{\"type\":".utf8))) == .text("{\"type\":"))
        #expect(frames.take(frame(.text, Array("{\"ty".utf8), fin: false)) == .none)
        #expect(frames.take(frame(.ping, [7, 8])) == .reply(WSFrame(fin: true, opcode: .pong, mask: nil, payload: Data([7, 8]))),
                "a ping between the pieces of a message is answered")
        #expect(frames.take(frame(.continuation, Array("pe\"".utf8), fin: false)) == .none)
        #expect(frames.take(frame(.continuation, Array(":1}".utf8))) == .text("{\"type\":1}"))
        #expect(frames.take(frame(.binary, [1, 2])) == .binary(Data([1, 2])))
        #expect(frames.take(frame(.pong, [])) == .none)
        #expect(frames.take(frame(.close, [0x03, 0xE8, 0x41])) == .close(WSFrame(fin: true, opcode: .close, mask: nil, payload: Data([0x03, 0xE8]))),
                "a close is echoed with its code")
        func closes(_ frames: [WSFrame], code: UInt16) -> Bool {
            var state = ClientFrames()
            guard case .close(let answer) = frames.map({ state.take($0) }).last else { return false }
            return answer.opcode == .close && answer.payload.prefix(2) == Data([UInt8(code >> 8), UInt8(code & 0xFF)])
        }
        #expect(closes([frame(.continuation, [1])], code: 1002), "a continuation without a start")
        #expect(closes([frame(.text, [1], fin: false), frame(.text, [2])], code: 1002), "a new message before the last ended")
        #expect(closes([frame(.ping, [UInt8](repeating: 0, count: 126))], code: 1002), "a control frame over 125 bytes")
        #expect(closes([frame(.ping, [], fin: false)], code: 1002), "a split control frame")
        #expect(closes([frame(.text, [0xFF, 0xFE])], code: 1007), "text that is not UTF-8")
        #expect(closes([frame(WSFrame.Opcode(3), [])], code: 1002), "a reserved opcode")
    }
}
