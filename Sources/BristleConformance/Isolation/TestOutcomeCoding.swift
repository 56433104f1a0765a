import Foundation

/// Decodes the JSON outcome a child wrote (see ``ConformanceChild``).
enum TestOutcomeCoding {
    /// The most a result file may hold. The largest honest outcome is `library.load`'s list of
    /// 4096 ids of 255 bytes (the loader's limits), under 7 MiB even with every byte escaped.
    static let maximumBytes = 16 << 20

    static func decode(_ bytes: [UInt8]) -> TestOutcome? {
        guard !bytes.isEmpty else { return nil }
        return try? JSONDecoder().decode(TestOutcome.self, from: Data(bytes))
    }
}
