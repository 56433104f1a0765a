/// One pointer event of a stroke: the event's own sample, the samples the platform
/// coalesced into it (`getCoalescedEvents()`), and the samples it predicts will follow
/// (`getPredictedEvents()`). Coalesced and predicted samples never have lists of their own.
public struct InputEventSpec: Equatable, Sendable {
    public var sample: PointerSample
    /// The high-rate samples between the previous event and this one, oldest first. By
    /// browser convention the last one repeats `sample`; a host that draws coalesced samples
    /// uses them instead of `sample` when there are any.
    public var coalesced: [PointerSample]
    /// Where the pointer is expected to be next, oldest first.
    public var predicted: [PointerSample]

    public init(sample: PointerSample, coalesced: [PointerSample] = [], predicted: [PointerSample] = []) {
        self.sample = sample
        self.coalesced = coalesced
        self.predicted = predicted
    }
}
