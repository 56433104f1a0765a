/// One call the host made into a brush (a hook, a parameter call) or a brush made into the
/// host (a drawing service), as ``HookTimeline`` records it.
public struct HookCall: Sendable, Equatable {
    /// Which side the call went to.
    public enum Kind: String, Sendable {
        /// A hook of the brush's vtable, or its parameters extension.
        case hook
        /// A function of the host's `bristle_services_t` table.
        case service
    }

    public var kind: Kind
    /// The hook (`begin`, `moved`, `predicted`, `ended`, `cancelled`, `tick`, `draw`,
    /// `params.set_value`, `params.set_color`) or the service (`fill_segment`...).
    public var name: String
    /// Start, in nanoseconds since the timeline was made.
    public var start: UInt64
    /// How long the call took, in nanoseconds.
    public var duration: UInt64
    /// Samples passed (`begin` and `ended` 1, `moved` and `predicted` their count), or the
    /// points of a polyline service; 0 otherwise.
    public var samples = 0
    /// The layer a `draw` (or a service's target) drew into: `committed` or `preview`.
    public var layer: String?
    /// The parameter a parameter call set.
    public var parameter: String?
    /// The brush's status (hooks returning one).
    public var status: Int32?
    /// What a `draw` reported dirty (its dirty list merged, or its rectangle), clipped to the
    /// layer.
    public var reported: [PixelRect] = []
    /// The rectangle a service returned (empty for those returning nothing).
    public var serviceRect = PixelRect.empty
    /// Pixels a `draw` actually changed (counted when the timeline ``HookTimeline/countsChangedPixels``).
    public var changedPixels: Int?

    /// The area of ``reported`` (overlaps counted once per rectangle), or of ``serviceRect``, in pixels.
    public var reportedPixels: Int {
        kind == .service ? Int(serviceRect.width) * Int(serviceRect.height)
                         : reported.reduce(0) { $0 + Int($1.width) * Int($1.height) }
    }
}
