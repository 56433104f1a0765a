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
    /// Works on the timeline's records (no ``HookCall`` is made): one pass sums them by hook
    /// (and a draw's layer), then each group's durations are gathered into one buffer, where
    /// the quantiles are selected (not sorted).
    public init(_ timeline: HookTimeline) {
        struct Group { var calls = 0, samples = 0, reported = 0, changed = 0, counted = false, name = HookTimeline.Name.begin, layer = HookTimeline.LayerName.none }
        let layers = 3
        var groups = [Group](repeating: Group(), count: HookTimeline.Name.allCases.count * layers)
        let n = timeline.count
        var keys = [Int](repeating: 0, count: n), durations = [UInt64](repeating: 0, count: n)
        keys.withUnsafeMutableBufferPointer { keys in
            durations.withUnsafeMutableBufferPointer { durations in
                groups.withUnsafeMutableBufferPointer { groups in
                    var i = 0
                    timeline.forEach { record, _, duration in
                        let key = Int(record.name.rawValue) * layers + (record.name.isService ? 0 : Int(record.layer.rawValue))
                        keys[i] = key
                        durations[i] = duration
                        i += 1
                        groups[key].calls += 1
                        groups[key].name = record.name
                        groups[key].layer = record.layer
                        groups[key].samples += Int(record.samples)
                        if record.name.isService {
                            groups[key].reported += Int(record.serviceRect.width) * Int(record.serviceRect.height)
                        } else if record.reportedCount > 0 {
                            for r in timeline.reported(of: record) { groups[key].reported += Int(r.width) * Int(r.height) }
                        }
                        if record.changedPixels >= 0 {
                            groups[key].changed += record.changedPixels
                            groups[key].counted = true
                        }
                    }
                }
            }
        }
        // Each group's durations together: group k's are at first[k] ..< first[k] + calls.
        var first = [Int](repeating: 0, count: groups.count + 1)
        for k in groups.indices { first[k + 1] = first[k] + groups[k].calls }
        var byGroup = [UInt64](repeating: 0, count: durations.count)
        var next = first
        for (key, duration) in zip(keys, durations) {
            byGroup[next[key]] = duration
            next[key] += 1
        }
        let order = ["begin", "moved", "predicted", "ended", "cancelled", "tick", "draw (committed)",
                     "draw (preview)", "params.set_value", "params.set_color", "destroy"]
        func rank(_ label: String) -> (Int, String) { (order.firstIndex(of: label) ?? order.count, label) }
        rows = byGroup.withUnsafeMutableBufferPointer { all in
            groups.indices.filter { groups[$0].calls > 0 }.map { k in
                let g = groups[k]
                let label = g.name.isService ? "services." + g.name.text
                    : g.name == .draw ? "draw (\(g.layer.text ?? "committed"))" : g.name.text
                let slice = UnsafeMutableBufferPointer(rebasing: all[first[k]..<first[k + 1]])
                func quantile(_ q: Double) -> Double {
                    let index = max(0, Int((q * Double(slice.count)).rounded(.up)) - 1)
                    return Double(Self.select(min(index, slice.count - 1), in: slice)) / 1000
                }
                let p50 = quantile(0.5), p99 = quantile(0.99)
                return Row(hook: label, calls: g.calls, p50Microseconds: p50, p99Microseconds: p99,
                           maxMicroseconds: Double(slice.max()!) / 1000,
                           samplesPerCall: Double(g.samples) / Double(g.calls),
                           reportedPixels: g.reported, changedPixels: g.counted ? g.changed : nil)
            }
        }.sorted { rank($0.hook) < rank($1.hook) }
    }

    /// The `k`-th smallest of `values` (0-based), moving it to index `k` with the smaller ones
    /// before it and the larger after (quickselect, middle element as pivot).
    private static func select(_ k: Int, in values: UnsafeMutableBufferPointer<UInt64>) -> UInt64 {
        var lo = 0, hi = values.count - 1
        while lo < hi {
            let pivot = values[lo + (hi - lo) / 2]
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return values[k]
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
