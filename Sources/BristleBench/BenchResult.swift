import BristleHost

/// The outcome of one case, rendered as the peers' JSON line or as a line of text.
public struct BenchResult: Sendable {
    public var caseName: String
    public var items: Int
    public var item: String
    public var reps: Int
    /// Wall and process-CPU times of the measured repetitions, milliseconds.
    public var wall: BenchStatistics
    public var cpu: BenchStatistics
    public var extraFields: [(String, String)]

    /// One JSON object on one line with the peers' keys in the peers' order
    /// (`peer`, `version`, `case`, `items`, `item`, `reps`, `min_ms`, `median_ms`, `max_ms`,
    /// `mean_ms`, `cpu_median_ms`, `ns_per_item_median`, `ns_per_item_min`), then the extras.
    public var jsonLine: String {
        var fields: [(String, String)] = [
            ("peer", "\"bristle\""), ("version", "\"\(BrushHost.version)\""),
            ("case", "\"\(caseName)\""), ("items", String(items)), ("item", "\"\(item)\""),
            ("reps", String(reps)),
            ("min_ms", Self.fixed(wall.min, 4)), ("median_ms", Self.fixed(wall.median, 4)),
            ("max_ms", Self.fixed(wall.max, 4)), ("mean_ms", Self.fixed(wall.mean, 4)),
            ("cpu_median_ms", Self.fixed(cpu.median, 4)),
            ("ns_per_item_median", Self.fixed(wall.median * 1e6 / Double(items), 3)),
            ("ns_per_item_min", Self.fixed(wall.min * 1e6 / Double(items), 3)),
        ]
        fields += extraFields
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A human-readable summary line.
    public var text: String {
        let perItem = wall.median * 1e6 / Double(items)
        let per = perItem >= 1000 ? "\(Self.fixed(perItem / 1000, 2)) us/\(item)" : "\(Self.fixed(perItem, 1)) ns/\(item)"
        var line = "\(caseName): median \(Self.fixed(wall.median, 3)) ms (min \(Self.fixed(wall.min, 3)), max \(Self.fixed(wall.max, 3))), cpu \(Self.fixed(cpu.median, 3)) ms, \(per), \(items) \(item)s x \(reps) reps"
        let extras = extraFields.filter { $0.0.hasSuffix("_us") }
        if !extras.isEmpty { line += "; " + extras.map { "\($0.0) \($0.1)" }.joined(separator: ", ") }
        return line
    }

    /// `v` with exactly `digits` decimals (no Foundation formatting in the host library).
    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let negative = v < 0
        let n = UInt64((abs(v) * scale).rounded())
        let whole = n / UInt64(scale), fraction = n % UInt64(scale)
        var f = String(fraction)
        f = String(repeating: "0", count: Swift.max(0, digits - f.count)) + f
        return (negative && n != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + f : "")
    }
}
