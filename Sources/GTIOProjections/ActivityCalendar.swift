/// Which keys (users, or devices) were active on which UTC days: one bit per key and day, the
/// days in spans of 64 (a span starts on a day number that is a multiple of 64). Marking a day
/// touches one word of one contiguous array; a sorted array of days per key, as before, cost a
/// cache miss and often a reallocation per (key, day), ~14 % of the folding thread of a rebuild
/// (perf, 1 M-event demo log: ~460 k pairs).
struct ActivityCalendar: Sendable {
    /// The span numbers (day >> 6) in the order they first appeared; a span's words start at its
    /// place × `width`.
    private var spans: [Int64] = []
    private var places: [Int64: Int] = [:]
    /// Words per span: one per key, room for keys up to `width` - 1.
    private var width = 0
    private var words: [UInt64] = []
    /// The span marked last, so that most marks skip the dictionary.
    private var lastSpan = Int64.min
    private var lastPlace = 0

    /// Marks `key` active on `day`; false when it was already.
    mutating func mark(_ key: Int, on day: Int64) -> Bool {
        if key >= width { widen(to: key + 1) }
        let span = day >> 6
        if span != lastSpan {
            lastPlace = place(of: span)
            lastSpan = span
        }
        let index = lastPlace * width + key
        let bit = UInt64(1) << UInt64(day & 63)
        guard words[index] & bit == 0 else { return false }
        words[index] |= bit
        return true
    }

    /// Whether `key` was marked active on `day`.
    func contains(_ key: Int, on day: Int64) -> Bool {
        guard key < width, let place = places[day >> 6] else { return false }
        return words[place * width + key] & UInt64(1) << UInt64(day & 63) != 0
    }

    /// `key`'s active days, ascending.
    func days(of key: Int) -> [Int64] {
        var days: [Int64] = []
        appendDays(of: key, spansInOrder(), to: &days)
        return days
    }

    /// Calls `body` with each key that was active on any day and its active days, ascending.
    func forEachKey(_ body: (_ key: Int, _ days: [Int64]) -> Void) {
        let ordered = spansInOrder()
        var days: [Int64] = []
        for key in 0..<width {
            days.removeAll(keepingCapacity: true)
            appendDays(of: key, ordered, to: &days)
            if !days.isEmpty { body(key, days) }
        }
    }

    /// (span number, place) pairs by span number.
    private func spansInOrder() -> [(span: Int64, place: Int)] {
        spans.enumerated().map { (span: $0.element, place: $0.offset) }.sorted { $0.span < $1.span }
    }

    private func appendDays(of key: Int, _ ordered: [(span: Int64, place: Int)], to days: inout [Int64]) {
        guard key < width else { return }
        for (span, place) in ordered {
            var word = words[place * width + key]
            while word != 0 {
                days.append(span << 6 + Int64(word.trailingZeroBitCount))
                word &= word - 1
            }
        }
    }

    /// The place of `span`, adding it when new.
    private mutating func place(of span: Int64) -> Int {
        if let place = places[span] { return place }
        let place = spans.count
        spans.append(span)
        places[span] = place
        words.append(contentsOf: repeatElement(0, count: width))
        return place
    }

    /// Room for keys up to `count` - 1: doubling, as keys arrive in increasing order.
    private mutating func widen(to count: Int) {
        let wider = max(count, width * 2, 1024)
        var relaid = [UInt64](repeating: 0, count: spans.count * wider)
        for place in spans.indices {
            for key in 0..<width { relaid[place * wider + key] = words[place * width + key] }
        }
        words = relaid
        width = wider
    }
}
