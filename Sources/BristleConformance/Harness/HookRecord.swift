/// The last plugin call a test made, read from a ``HookRecorder`` buffer: its description,
/// whether it was still running when the process ended, and the note left by the process's
/// last moments (which buffer a fault hit, or that the plugin called `exit()`).
public struct HookRecord: Sendable, Equatable, Codable {
    public var call: String
    public var inFlight: Bool
    /// What the fault handler or the exit handler found, e.g. "used memory after the hook
    /// returned: read byte 8 of the samples handed to moved(...)"; nil when nothing happened.
    public var note: String?

    public init(call: String, inFlight: Bool, note: String? = nil) {
        self.call = call
        self.inFlight = inFlight
        self.note = note
    }

    /// Decodes the recorder's layout (see ``HookRecorder``); nil when no call was recorded
    /// and no note was left.
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= HookRecorder.size else { return nil }
        func text(_ range: Range<Int>) -> String? {
            let t = bytes[range].prefix { $0 != 0 }
            return t.isEmpty ? nil : String(decoding: t, as: UTF8.self)
        }
        let state = bytes[HookRecorder.stateOffset]
        let note = text(HookRecorder.noteRange)
        guard state == 1 || state == 2 || note != nil else { return nil }
        call = state == 0 ? "" : text(HookRecorder.callRange) ?? ""
        inFlight = state == 1
        self.note = note
    }

    /// "in moved(...)" or "after draw(...) returned"; "before the first plugin call" when none.
    public var description: String {
        call.isEmpty ? "before the first plugin call" : inFlight ? "in \(call)" : "after \(call) returned"
    }
}
