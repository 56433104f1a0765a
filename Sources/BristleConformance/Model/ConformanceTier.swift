/// How much a conformance run asks of a brush. Each tier includes the ones below it:
/// `basic` (the library and its descriptors load and are well formed), `standard` (strokes,
/// canvas safety, dirty rectangles, cancel, predicted samples; what "conformant" means) and
/// `strict` (determinism, concurrency, odd canvas sizes, fuzzing, time warnings).
public enum ConformanceTier: String, CaseIterable, Comparable, Sendable, Codable {
    case basic, standard, strict

    private var rank: Int {
        switch self {
        case .basic: 0
        case .standard: 1
        case .strict: 2
        }
    }

    public static func < (lhs: ConformanceTier, rhs: ConformanceTier) -> Bool { lhs.rank < rhs.rank }
}
