/// A small deterministic random number generator (SplitMix64) for brushes: the same seed
/// gives the same sequence on every machine, as `BRISTLE_BRUSH_DETERMINISTIC` requires.
///
/// Each step adds 0x9E3779B97F4A7C15 to the state and mixes it:
/// `z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
/// z ^ (z >> 31)` (wrapping arithmetic).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1): the top 53 bits of ``next()`` divided by 2^53.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
