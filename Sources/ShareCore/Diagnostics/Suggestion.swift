/// "Did you mean …?": the nearest known word by edit distance.
public enum Suggestion {
  /// The candidate nearest to `word`, when it is near enough to be a likely typo.
  public static func nearest(to word: String, in candidates: [String]) -> String? {
    let best = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
    guard let (candidate, distance) = best, distance <= max(2, candidate.count / 4) else { return nil }
    return candidate
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
