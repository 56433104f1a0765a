import BristleHost

/// Turns a Pointer Events sample sent by the page into an event of the stroke format
/// (docs/stroke-format.md), written as JSON text: the very text the worker plays and the
/// recording keeps, so that `bristle render` of the recording reads the same values.
///
/// Every sample of a stroke carries the same fields, chosen by the stroke's pointer type, so
/// that the device capabilities known at the first event (when the live stroke begins) are
/// those `bristle render` computes from the whole stroke:
///
/// - always `x`, `y` (canvas pixels), `timeStamp` (ms) and `buttons`;
/// - pen and eraser: `pressure`, `tiltX`, `tiltY`, `twist`;
/// - touch: `pressure`, `width`, `height`;
/// - mouse: nothing more (a mouse's pressure is not measured).
///
/// Values are brought into the format's ranges (pressure and tilt clamped, twist folded into
/// [0, 360)); a sample whose position is beyond ``BristleHost/RenderOptions/absurdCoordinate``
/// is left out, as `bristle render` would drop it.
enum EventText {
    /// The most coalesced or predicted samples one event may carry.
    static let maximumSamples = 1024

    /// The stroke-format pointer type for the page's `pointerType` (an unknown or empty one
    /// is taken as a mouse: nothing but the position is trusted).
    static func strokePointerType(_ name: String) -> String {
        ["pen", "touch", "mouse", "eraser"].contains(name) ? name : "mouse"
    }

    /// One event: its own sample, its coalesced and predicted samples, each as JSON members.
    struct Event {
        typealias Sample = [(String, String)]
        var sample: Sample
        var coalesced: [Sample]
        var predicted: [Sample]

        /// The event as JSON text (empty lists left out).
        var text: String {
            var members = sample
            if !coalesced.isEmpty { members.append(("coalesced", "[" + coalesced.map(JSONText.object).joined(separator: ", ") + "]")) }
            if !predicted.isEmpty { members.append(("predicted", "[" + predicted.map(JSONText.object).joined(separator: ", ") + "]")) }
            return JSONText.object(members)
        }

        /// Events that waited together as one: the last one's sample and predictions, and
        /// every sample of all of them as coalesced samples, in order (what a browser does
        /// when it coalesces events).
        static func merged(_ events: [Event]) -> Event {
            guard events.count > 1, let last = events.last else { return events[0] }
            let all = events.flatMap { $0.coalesced.isEmpty ? [$0.sample] : $0.coalesced }
            return Event(sample: last.sample, coalesced: all, predicted: last.predicted)
        }
    }

    /// The event in the stroke format, nil when none of its samples is usable.
    static func make(_ event: JSONValue, pointerType: String) -> Result<Event?, MessageError> {
        do {
            guard let main = try sample(event, pointerType, "event") else { return .success(nil) }
            var lists: [[Event.Sample]] = []
            for list in ["coalesced", "predicted"] {
                guard let value = event[list] else {
                    lists.append([])
                    continue
                }
                guard let items = value.arrayValue, items.count <= maximumSamples else {
                    throw MessageError("\(list) is not a list of at most \(maximumSamples) samples")
                }
                let samples = try items.enumerated().compactMap { i, item in try sample(item, pointerType, "\(list)[\(i)]") }
                // An event whose coalesced samples were all dropped has nothing to draw.
                if list == "coalesced" && samples.isEmpty && !items.isEmpty { return .success(nil) }
                lists.append(samples)
            }
            return .success(Event(sample: main, coalesced: lists[0], predicted: lists[1]))
        } catch let error as MessageError {
            return .failure(error)
        } catch {
            return .failure(MessageError("\(error)"))
        }
    }

    /// The sample's members, nil when its position is absurd.
    private static func sample(_ value: JSONValue, _ pointerType: String, _ path: String) throws -> Event.Sample? {
        guard case .object = value.kind else { throw MessageError("\(path) is not an object") }
        func number(_ key: String) throws -> Double {
            guard let v = value[key]?.doubleValue else { throw MessageError("\(path).\(key) is not a number") }
            return v
        }
        let x = try number("x"), y = try number("y")
        guard abs(x) <= RenderOptions.absurdCoordinate, abs(y) <= RenderOptions.absurdCoordinate else { return nil }
        var members: [(String, String)] = [("x", JSONText.number(x)), ("y", JSONText.number(y))]
        func add(_ key: String, _ v: Double) { members.append((key, JSONText.number(v))) }
        switch pointerType {
        case "pen", "eraser":
            add("pressure", min(max(try number("pressure"), 0), 1))
            add("tiltX", min(max(try number("tiltX"), -90), 90))
            add("tiltY", min(max(try number("tiltY"), -90), 90))
            let twist = try number("twist").truncatingRemainder(dividingBy: 360)
            add("twist", twist < 0 ? twist + 360 : twist)
        case "touch":
            add("pressure", min(max(try number("pressure"), 0), 1))
            add("width", min(max(try number("width"), 0), 1e6))
            add("height", min(max(try number("height"), 0), 1e6))
        default:
            break
        }
        add("timeStamp", try number("timeStamp"))
        add("buttons", min(max(try number("buttons"), 0), 2_147_483_647).rounded(.down))
        return members
    }
}
