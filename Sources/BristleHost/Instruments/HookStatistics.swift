/// Per hook (and per service) numbers of a ``HookTimeline``: what `bristle render --stats`
/// and `bristle conform` print, as a table or as JSON.
public struct HookStatistics: Codable, Sendable, Equatable {
    /// One hook's (or service's) row.
    public struct Row: Codable, Sendable, Equatable {
        /// `begin`, `moved`, ..., `draw (committed)`, `draw (preview)`, `params.set_value`,
        /// `services.fill_segment`...
        public var hook: String
        public var calls: Int
        /// Durations in microseconds: median, 99th percentile (nearest rank) and largest.
        public var p50Microseconds: Double
        public var p99Microseconds: Double
        public var maxMicroseconds: Double
        /// Samples per call on average (`moved`, `predicted`; polyline points for services).
        public var samplesPerCall: Double
        /// Pixels the calls reported dirty (draws) or returned as drawn (services), summed.
        public var reportedPixels: Int
        /// Pixels the draws actually changed, summed; nil when not counted (services, other
        /// hooks, or a timeline that does not count them).
        public var changedPixels: Int?
    }

    public var rows: [Row]

    /// The rows of `timeline`'s calls: hooks in the drawing loop's order, then services by name.
    /// Works on the timeline's records (no ``HookCall`` is made): one pass groups them by hook
    /// (and a draw's layer), then each group's durations are sorted once.
    public init(_ timeline: HookTimeline) {
        struct Group {
            var label = "", calls = 0, samples = 0, reported = 0, changed = 0, counted = false
            var durations: [UInt64] = []
        }
        let layers = 3
        var groups = [Group](repeating: Group(), count: HookTimeline.Name.allCases.count * layers)
        timeline.forEach { record, _, duration in
            let key = Int(record.name.rawValue) * layers + (record.name.isService ? 0 : Int(record.layer.rawValue))
            if groups[key].calls == 0 {
                let name = record.name.text
                groups[key].label = record.name.isService ? "services." + name
                    : record.name == .draw ? "draw (\(record.layer.text ?? "committed"))" : name
            }
            groups[key].calls += 1
            groups[key].samples += Int(record.samples)
            groups[key].durations.append(duration)
            if record.name.isService {
                groups[key].reported += Int(record.serviceRect.width) * Int(record.serviceRect.height)
            } else {
                for r in timeline.reported(of: record) { groups[key].reported += Int(r.width) * Int(r.height) }
            }
            if record.changedPixels >= 0 {
                groups[key].changed += record.changedPixels
                groups[key].counted = true
            }
        }
        let order = ["begin", "moved", "predicted", "ended", "cancelled", "tick", "draw (committed)",
                     "draw (preview)", "params.set_value", "params.set_color", "destroy"]
        func rank(_ label: String) -> (Int, String) { (order.firstIndex(of: label) ?? order.count, label) }
        rows = groups.filter { $0.calls > 0 }.sorted { rank($0.label) < rank($1.label) }.map { group in
            let sorted = group.durations.sorted()
            func quantile(_ q: Double) -> Double {
                let index = max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1)
                return Double(sorted[min(index, sorted.count - 1)]) / 1000
            }
            return Row(hook: group.label, calls: group.calls, p50Microseconds: quantile(0.5),
                       p99Microseconds: quantile(0.99), maxMicroseconds: Double(sorted.last!) / 1000,
                       samplesPerCall: Double(group.samples) / Double(group.calls),
                       reportedPixels: group.reported, changedPixels: group.counted ? group.changed : nil)
        }
    }

    /// Rows measured elsewhere (read back from JSON).
    public init(rows: [Row]) { self.rows = rows }

    /// The rows as an aligned text table, one hook a line, with a header.
    public var table: String {
        let header = ["hook", "calls", "p50 us", "p99 us", "max us", "samples/call", "px reported", "px changed"]
        let lines = rows.map { r in
            [r.hook, String(r.calls), Self.fixed(r.p50Microseconds), Self.fixed(r.p99Microseconds),
             Self.fixed(r.maxMicroseconds), Self.fixed(r.samplesPerCall), String(r.reportedPixels),
             r.changedPixels.map(String.init) ?? "-"]
        }
        let widths = header.indices.map { i in ([header] + lines).map { $0[i].count }.max()! }
        return ([header] + lines).map { cells in
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `v` with two decimals.
    static func fixed(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}
