/// The last plugin call a test made, read from a ``HookRecorder`` buffer: its description and
/// whether it was still running when the process ended.
public struct HookRecord: Sendable, Equatable, Codable {
    public var call: String
    public var inFlight: Bool

    public init(call: String, inFlight: Bool) {
        self.call = call
        self.inFlight = inFlight
    }

    /// Decodes the recorder's layout; nil when no call was recorded.
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count > 1, bytes[0] == 1 || bytes[0] == 2 else { return nil }
        let text = bytes[1...].prefix { $0 != 0 }
        call = String(decoding: text, as: UTF8.self)
        inFlight = bytes[0] == 1
    }

    /// "in moved(...)" or "after draw(...) returned".
    public var description: String { inFlight ? "in \(call)" : "after \(call) returned" }
}
