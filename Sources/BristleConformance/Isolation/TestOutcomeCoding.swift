import Foundation

/// Decodes the JSON outcome a child wrote (see ``ConformanceChild``).
enum TestOutcomeCoding {
    static func decode(_ bytes: [UInt8]) -> TestOutcome? {
        guard !bytes.isEmpty else { return nil }
        return try? JSONDecoder().decode(TestOutcome.self, from: Data(bytes))
    }
}
