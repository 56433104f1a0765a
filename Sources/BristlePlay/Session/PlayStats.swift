/// What the server measures about input messages (`GET /api/stats`): the time from a
/// message's arrival in the session until its patches are handed to the WebSocket, and the
/// bytes and pixels of those patches. The most recent ``capacity`` messages are kept.
struct PlayStats {
    static let capacity = 100_000

    private var seconds: [Double] = []
    private var next = 0
    private(set) var messages = 0
    private(set) var patchBytes = 0
    private(set) var patchPixels = 0

    mutating func record(seconds s: Double) {
        messages += 1
        if seconds.count < Self.capacity { seconds.append(s) } else { seconds[next] = s }
        next = (next + 1) % Self.capacity
    }

    mutating func count(patchBytes bytes: Int, pixels: Int) {
        patchBytes += bytes
        patchPixels += pixels
    }

    mutating func reset() { self = PlayStats() }

    /// `{"messages": N, "eventToPatchMs": {"p50": ..., "p99": ...}, "patchBytes": B, "patchPixels": P,
    /// "scheduling": {...}}`, with `scheduling`'s fields (name, JSON value) as given.
    func json(scheduling: [(String, String)]) -> String {
        let sorted = seconds.sorted()
        func quantile(_ q: Double) -> String {
            guard !sorted.isEmpty else { return "null" }
            let i = min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))
            return JSONText.number((sorted[i] * 1e6).rounded() / 1e3)
        }
        return JSONText.object([
            ("messages", String(messages)),
            ("eventToPatchMs", JSONText.object([("p50", quantile(0.5)), ("p99", quantile(0.99))])),
            ("patchBytes", String(patchBytes)), ("patchPixels", String(patchPixels)),
            ("scheduling", JSONText.object(scheduling)),
        ])
    }
}
