/// The outcome of one conformance test. `warn` is only for machine-dependent measurements
/// (times); `skip` means a precondition is absent (a brush without parameters has nothing for
/// a parameter test to check). Only `pass`, `warn` and `skip` are conformant.
public enum Verdict: String, CaseIterable, Sendable, Codable {
    case pass, fail, crash, timeout, skip, warn

    /// True for the verdicts a conformant brush may get.
    public var isConformant: Bool { self == .pass || self == .warn || self == .skip }
}
