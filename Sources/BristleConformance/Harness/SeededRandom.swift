import BristleHost

/// The host's SplitMix64 as a `RandomNumberGenerator`, so that every random stroke and batch
/// split of a test is a pure function of the run's seed (`--reproduce SEED` replays it exactly).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { generator.next() }

    /// A generator for one test, derived from the run seed and the test id, so that tests do
    /// not share a sequence and one test's sequence does not depend on which others run.
    public static func forTest(_ id: String, seed: UInt64) -> SeededRandom {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return SeededRandom(seed: seed ^ hash)
    }
}
