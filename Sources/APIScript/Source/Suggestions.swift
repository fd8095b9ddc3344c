/// "Did you mean …?" by edit distance: one rule for the checker, the shell's commands and its
/// `:describe`, so a suggestion means the same everywhere.
package enum Suggestions {
    /// The candidate closest to `name`, when it is close enough to be a likely typo: at most one
    /// edit per three characters (a swap of neighbours counts one), or a difference of case only.
    public static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(1, name.count / 3)
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            if candidate.lowercased() == name.lowercased() { return candidate }
            let distance = editDistance(name, candidate, limit: limit)
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance, giving up (returning `limit + 1`) once it is sure to exceed `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Optimal string alignment: edits, and swaps of neighbours ("emial" → "email") count one.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
