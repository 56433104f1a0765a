/// The number of positions at which two byte arrays differ (their length difference counts as
/// differing): a readable failure message where `#expect(a == b)` would print both arrays.
public func differingBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
}
