/// SplitMix64: a small, fast, seedable generator, so that every random stroke and batch split
/// of a test is a pure function of the run's seed (`--reproduce SEED` replays it exactly).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one test, derived from the run seed and the test id, so that tests do
    /// not share a sequence and one test's sequence does not depend on which others run.
    public static func forTest(_ id: String, seed: UInt64) -> SeededRandom {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return SeededRandom(seed: seed ^ hash)
    }
}
