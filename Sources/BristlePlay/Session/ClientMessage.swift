import BristleHost

/// A message of the page over the WebSocket (JSON text):
///
/// - `{"type": "brush", "id": ID, "color": "#rrggbb", "width": W, "params": {ID: VALUE}}`: the
///   brush for the next strokes.
/// - `{"type": "down", "seq": N, "pointerType": "pen", "event": EVENT}`: a stroke begins.
/// - `{"type": "move", "seq": N, "event": EVENT}`: it continues.
/// - `{"type": "up", "seq": N}`, `{"type": "cancel", "seq": N}`: it ends or is cancelled.
/// - `{"type": "undo"}`, `{"type": "redo"}`, `{"type": "clear"}`.
///
/// EVENT is a Pointer Events sample with `coalesced` and `predicted` lists (``EventText``).
/// `seq` numbers the page's input messages; the patches that answer one carry its `seq`.
enum ClientMessage {
    case brush(BrushChoice)
    case down(seq: UInt32, pointerType: String, event: JSONValue)
    case move(seq: UInt32, event: JSONValue)
    case up(seq: UInt32)
    case cancel(seq: UInt32)
    case undo
    case redo
    case clear

    /// The most bytes one message may have.
    static let maximumBytes = 1 << 20

    static func parse(_ text: String) -> Result<ClientMessage, MessageError> {
        guard text.utf8.count <= maximumBytes else { return .failure(MessageError("a message over 1 MiB")) }
        let root: JSONValue
        do { root = try JSONParser.parse(text, file: "message") } catch {
            return .failure(MessageError("a message that is not JSON: \(error.description)"))
        }
        guard let type = root["type"]?.stringValue else { return .failure(MessageError("a message without a \"type\"")) }
        func seq() -> UInt32? {
            guard let v = root["seq"]?.doubleValue, v >= 0, v <= Double(UInt32.max), v == v.rounded() else { return nil }
            return UInt32(v)
        }
        switch type {
        case "brush":
            return BrushChoice.parse(root).map { .brush($0) }
        case "down", "move":
            guard let seq = seq() else { return .failure(MessageError("\(type) without a whole \"seq\"")) }
            guard let event = root["event"] else { return .failure(MessageError("\(type) without an \"event\"")) }
            if type == "move" { return .success(.move(seq: seq, event: event)) }
            guard let pointerType = root["pointerType"]?.stringValue else {
                return .failure(MessageError("down without a \"pointerType\""))
            }
            return .success(.down(seq: seq, pointerType: EventText.strokePointerType(pointerType), event: event))
        case "up", "cancel":
            guard let seq = seq() else { return .failure(MessageError("\(type) without a whole \"seq\"")) }
            return .success(type == "up" ? .up(seq: seq) : .cancel(seq: seq))
        case "undo": return .success(.undo)
        case "redo": return .success(.redo)
        case "clear": return .success(.clear)
        default: return .failure(MessageError("a message of unknown type \"\(type)\""))
        }
    }
}
