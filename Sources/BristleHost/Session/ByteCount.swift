/// Byte counts written for people.
enum ByteCount {
    /// GiB from 1 GiB up, MiB from 1 MiB, KiB from 1 KiB, with one decimal, except whole GiB
    /// and MiB: `256 MiB`, `2.5 GiB`, `48.0 KiB`, `240.1 KiB`, `12 bytes`.
    static func text(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift {
            if shift >= 20, bytes % (1 << shift) == 0 { return "\(bytes >> shift) \(unit)" }
            return "\((Double(bytes) / Double(1 << shift) * 10).rounded() / 10) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
