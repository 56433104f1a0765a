import FlyingFox
import Foundation

/// One page's WebSocket: its text messages go to the ``PlaySession``, and what the session
/// sends it (status and brushes as text, pixels as binary ``PageMessage``s) goes back. With
/// `--stand-in` (``PlayOptions/standIn``) input messages are answered here at once by
/// ``StandInAnswer`` instead.
struct PlayConnection: WSMessageHandler {
    let session: PlaySession

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (output, continuation) = AsyncStream<WSMessage>.makeStream()
        let id = session.connect { outgoing in
            switch outgoing {
            case .text(let text): continuation.yield(.text(text))
            case .binary(let bytes): continuation.yield(.data(Data(bytes)))
            }
        }
        let standIn = session.options.standIn
        Task { [session] in
            for await message in client {
                switch message {
                case .text(let text) where standIn:
                    if let answer = StandInAnswer.answer(text) { continuation.yield(.data(Data(answer))) }
                case .text(let text): session.receive(text, from: id)
                case .data: session.refuseBinary(from: id)
                case .close: break
                }
            }
            session.disconnect(id)
            continuation.finish()
        }
        return output
    }
}
