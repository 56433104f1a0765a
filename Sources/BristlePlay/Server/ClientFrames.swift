import FlyingFox
import Foundation

/// The WebSocket protocol of a page's frames, after FlyingFox decoded them (RFC 6455 §5): a
/// message split into a first frame and continuation frames is put back together, a ping is
/// answered with a pong, a close frame is answered with a close frame and ends the connection.
/// What breaks the protocol (a continuation without a start, a control frame over 125 bytes or
/// split, text that is not UTF-8) ends it with a close frame saying why.
///
/// It lets ``PlayConnection`` hand a page's message to the session on the task that read it,
/// and the session's answers straight to FlyingFox's writer: FlyingFox's own
/// `MessageFrameWSHandler` passes each message through two more tasks, each a wake-up.
struct ClientFrames {
    /// What to do with one frame.
    enum Step: Equatable {
        /// Nothing yet (the start or middle of a split message, or a pong).
        case none
        case text(String)
        case binary(Data)
        /// Send this frame back (a pong).
        case reply(WSFrame)
        /// Send this frame back, then end the connection.
        case close(WSFrame)
    }

    private var partial: WSFrame?

    /// The step for the next frame of the page.
    mutating func take(_ frame: WSFrame) -> Step {
        switch frame.opcode {
        case .ping, .pong, .close:
            guard frame.fin, frame.payload.count <= 125 else { return .close(.close(code: .protocolError)) }
            if frame.opcode == .ping { return .reply(WSFrame(fin: true, opcode: .pong, mask: nil, payload: frame.payload)) }
            if frame.opcode == .pong { return .none }
            // Echo the page's status code (RFC 6455 §5.5.1), without its reason.
            return .close(WSFrame(fin: true, opcode: .close, mask: nil, payload: frame.payload.prefix(2)))
        case .continuation:
            guard var message = partial else { return .close(.close(message: "a continuation frame without a message")) }
            message.payload.append(frame.payload)
            guard frame.fin else {
                partial = message
                return .none
            }
            partial = nil
            return whole(message)
        case .text, .binary:
            guard partial == nil else { return .close(.close(message: "a new message before the last one ended")) }
            guard frame.fin else {
                partial = frame
                return .none
            }
            return whole(frame)
        default:
            return .close(.close(message: "an unknown frame opcode \(frame.opcode.rawValue)"))
        }
    }

    private func whole(_ frame: WSFrame) -> Step {
        guard frame.opcode == .text else { return .binary(frame.payload) }
        guard let text = String(data: frame.payload, encoding: .utf8) else { return .close(.close(code: .invalidFramePayload)) }
        return .text(text)
    }
}
