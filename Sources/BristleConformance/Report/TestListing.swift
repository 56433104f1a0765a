import Foundation

/// `--list-tests`: every test with its id, tier, scope and what it checks.
public struct TestListing: Sendable, Codable {
    public var id: String
    public var tier: ConformanceTier
    public var scope: TestScope
    public var group: String
    public var description: String

    /// All tests of the catalog.
    public static var all: [TestListing] {
        ConformanceCatalog.all.map {
            TestListing(id: $0.id, tier: $0.tier, scope: $0.scope, group: $0.group, description: $0.summary)
        }
    }

    /// The listing as text, one test per line.
    public static var text: String {
        all.map { t in
            "\(t.id.padding(toLength: 38, withPad: " ", startingAt: 0)) \(t.tier.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(t.scope.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(t.description)"
        }.joined(separator: "\n") + "\n"
    }
}
