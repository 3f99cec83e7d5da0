/// Why an insight could not be asked: each is bad usage (exit 2), with what would be right.
public enum InsightError: Error, Equatable, CustomStringConvertible {
    case unknownProperty(String, known: [String])
    case unknownType(String, known: [String])
    case badSelector(String, reason: String)
    case badFilter(String)
    case badMeasure(String)
    case badDuration(String)
    case badWindow(String)
    case windowOutsideLog(from: String, to: String, first: String, last: String)
    case tooFewSteps
    case badOption(String)

    public var description: String {
        switch self {
        case .unknownProperty(let name, let known):
            let guess = Self.nearest(name, in: known).map { " (did you mean \($0)?)" } ?? ""
            return "unknown property \"\(name)\"\(guess); known: \(known.joined(separator: ", ")), props.KEY"
        case .unknownType(let name, let known):
            let guess = Self.nearest(name, in: known).map { " (did you mean \($0)?)" } ?? ""
            return "unknown event type \"\(name)\"\(guess); types: \(known.joined(separator: ", ")), or * for all"
        case .badSelector(let text, let reason): return "selector \"\(text)\": \(reason)"
        case .badFilter(let text): return "filter \"\(text)\" is not PROP=VALUE or PROP!=VALUE"
        case .badMeasure(let text): return "--measure \"\(text)\": expected events, users, devices, sum:PROP or avg:PROP"
        case .badDuration(let text): return "\"\(text)\" is not a duration (expected a number and s, m, h, d or w, e.g. 7d)"
        case .badWindow(let reason): return reason
        case .windowOutsideLog(let from, let to, let first, let last):
            return "the window \(from) to \(to) holds no day of the log, which runs from \(first) to \(last)"
        case .tooFewSteps: return "a funnel needs at least two steps (e.g. funnel post.created post.hearted)"
        case .badOption(let reason): return reason
        }
    }

    /// The closest of `names` to `word` by edit distance, when close enough to be a typo.
    static func nearest(_ word: String, in names: [String]) -> String? {
        func distance(_ a: String, _ b: String) -> Int {
            let a = Array(a), b = Array(b)
            var previous = Array(0...b.count)
            for i in a.indices {
                var current = [i + 1] + Array(repeating: 0, count: b.count)
                for j in b.indices { current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)) }
                previous = current
            }
            return previous[b.count]
        }
        guard let (name, score) = names.map({ ($0, distance(word, $0)) }).min(by: { $0.1 < $1.1 }),
              score <= max(1, min(word.count, name.count) / 3)
        else { return nil }
        return name
    }
}
