/// Spelling help for messages: "did you mean ...?".
enum InputSpelling {
    /// The Levenshtein distance between `a` and `b`, compared by Unicode scalars.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate closest to `word`, ignoring letter case, when it is at most `maxDistance`
    /// edits away and the edits do not replace the whole candidate (so `"z"` does not suggest
    /// `"x"`). Ties go to the earlier candidate.
    static func suggestion(for word: String, among candidates: [String], maxDistance: Int = 2) -> String? {
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)? = nil
        for candidate in candidates {
            let d = distance(lowered, candidate.lowercased())
            guard d <= maxDistance, d < candidate.unicodeScalars.count else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.name
    }
}
