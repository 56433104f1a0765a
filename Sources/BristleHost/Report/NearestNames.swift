/// The names closest to a mistyped one, for "did you mean ...?" hints.
public enum NearestNames {
    /// The candidates at the smallest edit distance from `name` (Levenshtein, on characters),
    /// when that distance is small enough to be a typo: at most a third of `name`'s length, and
    /// at least 2. At most `limit` names, in the candidates' order; none when nothing is close.
    public static func to(_ name: String, among candidates: [String], limit: Int = 3) -> [String] {
        let allowed = max(2, name.count / 3)
        var best = allowed + 1, found: [String] = []
        for candidate in candidates where candidate != name && !found.contains(candidate) {
            let d = distance(name, candidate, atMost: best)
            if d < best {
                best = d
                found = [candidate]
            } else if d == best {
                found.append(candidate)
            }
        }
        return best <= allowed ? Array(found.prefix(limit)) : []
    }

    /// The hint sentence, "did you mean a or b?", or nil when no candidate is close.
    public static func hint(for name: String, among candidates: [String]) -> String? {
        let near = to(name, among: candidates)
        guard !near.isEmpty else { return nil }
        return "did you mean " + near.joined(separator: " or ") + "?"
    }

    /// The edit distance (insertions, deletions, substitutions), or a value above `bound` as
    /// soon as it is known to exceed it.
    static func distance(_ a: String, _ b: String, atMost bound: Int) -> Int {
        let a = Array(a), b = Array(b)
        if abs(a.count - b.count) > bound { return bound + 1 }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowBest = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowBest = min(rowBest, current[j])
            }
            if rowBest > bound { return bound + 1 }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
