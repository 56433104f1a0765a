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
    public init(_ timeline: HookTimeline) { self.init(calls: timeline.calls) }

    /// Rows measured elsewhere (read back from JSON).
    public init(rows: [Row]) { self.rows = rows }

    public init(calls: [HookCall]) {
        let order = ["begin", "moved", "predicted", "ended", "cancelled", "tick", "draw (committed)",
                     "draw (preview)", "params.set_value", "params.set_color", "destroy"]
        // Grouped by what the label is made of, so that no label is built per call.
        struct Key: Hashable { var kind: HookCall.Kind, name: String, layer: String? }
        var groups: [Key: [HookCall]] = [:]
        for call in calls {
            groups[Key(kind: call.kind, name: call.name, layer: call.kind == .hook ? call.layer : nil), default: []].append(call)
        }
        let labelled = groups.values.map { ($0[0].label, $0) }
        func rank(_ label: String) -> (Int, String) { (order.firstIndex(of: label) ?? order.count, label) }
        rows = labelled.sorted { rank($0.0) < rank($1.0) }.map { label, group in
            let sorted = group.map(\.duration).sorted()
            func quantile(_ q: Double) -> Double {
                let index = max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1)
                return Double(sorted[min(index, sorted.count - 1)]) / 1000
            }
            let changed = group.compactMap(\.changedPixels)
            return Row(hook: label, calls: group.count, p50Microseconds: quantile(0.5),
                       p99Microseconds: quantile(0.99), maxMicroseconds: Double(sorted.last!) / 1000,
                       samplesPerCall: Double(group.reduce(0) { $0 + $1.samples }) / Double(group.count),
                       reportedPixels: group.reduce(0) { $0 + $1.reportedPixels },
                       changedPixels: changed.isEmpty ? nil : changed.reduce(0, +))
        }
    }

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
