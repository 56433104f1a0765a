/// The SplitMix64 generator of the benchmark workload (`shared/bench/peers/WORKLOAD.md`
/// section 3): `state += 0x9E3779B97F4A7C15`, then two xor-shift-multiply rounds. Seed 1 gives
/// `0x910a2dec89025cc1` first.
public struct SplitMix64: Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in `[0, 1)` from the top 53 bits: `(next() >> 11) * 2^-53`.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
