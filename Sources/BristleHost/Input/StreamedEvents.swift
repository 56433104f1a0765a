/// The events of a stroke script decoded while the document is parsed
/// (``JSONParser/parse(_:file:streaming:)`` on the key `events`), so that a stroke of a
/// million samples is never held as a JSON tree: each event becomes an ``InputEventSpec`` as
/// soon as it is parsed, and its tree is dropped.
///
/// Each streamed array is known by where it starts. Its events are kept in chunks (no large
/// reallocation while a list grows), with the first decoding error, which the decoder throws
/// when it reaches that array, so errors keep their file order.
final class StreamedEvents {
    private struct List {
        var chunks: [[InputEventSpec]] = []
        var count = 0
        var error: InputError?
    }

    /// Events per chunk.
    private static let chunkSize = 4096

    private let decoder: StrokeScriptDecoder
    private var lists: [SourceLocation: List] = [:]

    init(decoder: StrokeScriptDecoder) { self.decoder = decoder }

    /// The ``JSONStream`` that feeds this table.
    var stream: JSONStream {
        JSONStream(key: "events") { [self] element, index, array, path in
            add(element, index: index, array: array, path: path)
        }
    }

    private func add(_ element: JSONValue, index: Int, array: SourceLocation,
                     path: () -> [JSONStream.PathComponent]) {
        var list = lists.removeValue(forKey: array) ?? List()
        defer { lists[array] = list }
        guard list.error == nil else { return }
        let text = path().reduce("") { path, step in
            switch step {
            case .key(let key): return StrokeScriptDecoder.join(path, key)
            case .index(let i): return StrokeScriptDecoder.join(path, i)
            }
        }
        do {
            let event = try decoder.event(element, text)
            if list.count % Self.chunkSize == 0 {
                list.chunks.append([])
                list.chunks[list.chunks.count - 1].reserveCapacity(Self.chunkSize)
            }
            list.chunks[list.chunks.count - 1].append(event)
            list.count += 1
        } catch {
            list.error = error
        }
    }

    /// The events of the array that starts at `location`, releasing them from the table (nil
    /// when nothing was streamed there: the array was empty, or is not a streamed one).
    func take(at location: SourceLocation) -> Result<[InputEventSpec], InputError>? {
        guard var list = lists.removeValue(forKey: location) else { return nil }
        if let error = list.error { return .failure(error) }
        var events: [InputEventSpec] = []
        events.reserveCapacity(list.count)
        list.chunks.reverse()
        while let chunk = list.chunks.popLast() { events.append(contentsOf: chunk) }
        return .success(events)
    }
}
