import FlyingFox
import Foundation

/// One page's WebSocket: its text messages go to the ``PlaySession``, and what the session
/// sends it (status and brushes as text, pixels as binary ``PageMessage``s) goes back, each
/// as one frame. With `--stand-in` (``PlayOptions/standIn``) input messages are answered here
/// at once by ``StandInAnswer`` instead.
///
/// The page's frames are read on one task, which hands each message to the session (its
/// thread wakes); the session's answers go into the frame stream that FlyingFox's connection
/// task writes to the socket (that task wakes). ``ClientFrames`` keeps the protocol.
struct PlayConnection: WSHandler {
    let session: PlaySession

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        let (output, continuation) = AsyncStream<WSFrame>.makeStream()
        let id = session.connect { outgoing in
            switch outgoing {
            case .text(let text): continuation.yield(WSFrame(fin: true, opcode: .text, mask: nil, payload: Data(text.utf8)))
            case .binary(let bytes): continuation.yield(WSFrame(fin: true, opcode: .binary, mask: nil, payload: Data(bytes)))
            }
        }
        let standIn = session.options.standIn
        let delay = session.options.standInDelay
        Task { [session] in
            var frames = ClientFrames()
            do {
                reading: for try await frame in client {
                    switch frames.take(frame) {
                    case .none: break
                    case .text(let text) where standIn:
                        let deadline = Clock.seconds() + delay
                        while delay > 0, Clock.seconds() < deadline {}
                        if let answer = StandInAnswer.answer(text) {
                            continuation.yield(WSFrame(fin: true, opcode: .binary, mask: nil, payload: Data(answer)))
                        }
                    case .text(let text): session.receive(text, from: id)
                    case .binary: session.refuseBinary(from: id)
                    case .reply(let frame): continuation.yield(frame)
                    case .close(let frame):
                        continuation.yield(frame)
                        break reading
                    }
                }
            } catch {
                // The page is gone or sent what FlyingFox cannot decode: the connection ends.
            }
            session.disconnect(id)
            continuation.finish()
        }
        return output
    }
}
