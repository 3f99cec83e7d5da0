/// Which keys (users, or devices) were active on which UTC days: one bit per key and day, the
/// days in spans of 64 (a span starts on a day number that is a multiple of 64). The newest span
/// is one contiguous array of words by key, so that marking a day touches one word rather than
/// growing a list per key. Older spans keep only the keys active in them, so that memory
/// follows activity, not the log's age.
struct ActivityCalendar: Sendable {
    /// The newest span seen (day >> 6) and its words by key; keys up to `newest.count` - 1.
    private var newestSpan = Int64.min
    private var newest: [UInt64] = []
    /// Older spans: the words of the keys active in each.
    private var older: [Int64: [Int: UInt64]] = [:]

    /// Marks `key` active on `day`; false when it was already.
    mutating func mark(_ key: Int, on day: Int64) -> Bool {
        let span = day >> 6, bit = UInt64(1) << UInt64(day & 63)
        if span > newestSpan { retireNewest(for: span) }
        guard span == newestSpan else {
            // A late event, past the start of a newer span: rare, so a dictionary will do.
            let word = older[span, default: [:]][key, default: 0]
            guard word & bit == 0 else { return false }
            older[span, default: [:]][key] = word | bit
            return true
        }
        if key >= newest.count {
            // Keys come in increasing order, so doubling keeps growth amortized.
            newest.append(contentsOf: repeatElement(0, count: max(key + 1, newest.count * 2, 1024) - newest.count))
        }
        guard newest[key] & bit == 0 else { return false }
        newest[key] |= bit
        return true
    }

    /// Whether `key` was marked active on `day`.
    func contains(_ key: Int, on day: Int64) -> Bool {
        let span = day >> 6, bit = UInt64(1) << UInt64(day & 63)
        if span == newestSpan { return key < newest.count && newest[key] & bit != 0 }
        return (older[span]?[key] ?? 0) & bit != 0
    }

    /// How many keys were active on any day of `days`: by the bits of each span, the older
    /// spans' few keys checked against the newest's, without listing every key's days (a
    /// catch-up asks for the WAU and MAU of a day or two).
    func countKeys(activeOn days: ClosedRange<Int64>) -> Int {
        let newestMask = newestSpan == .min ? 0 : Self.mask(of: newestSpan, within: days)
        var count = newestMask == 0 ? 0 : newest.reduce(0) { $0 + ($1 & newestMask != 0 ? 1 : 0) }
        var counted: Set<Int> = []
        for span in (days.lowerBound >> 6)...(days.upperBound >> 6) where span != newestSpan {
            guard let words = older[span] else { continue }
            let spanMask = Self.mask(of: span, within: days)
            for (key, word) in words where word & spanMask != 0 {
                let inNewest = key < newest.count && newest[key] & newestMask != 0
                if !inNewest, counted.insert(key).inserted { count += 1 }
            }
        }
        return count
    }

    /// The bits of `span`'s words that stand for days of `days`.
    private static func mask(of span: Int64, within days: ClosedRange<Int64>) -> UInt64 {
        let first = max(days.lowerBound, span << 6) - span << 6, last = min(days.upperBound, span << 6 + 63) - span << 6
        guard first <= last else { return 0 }
        return (last == 63 ? ~0 : (UInt64(1) << UInt64(last + 1)) - 1) & ~((UInt64(1) << UInt64(first)) - 1)
    }

    /// `key`'s active days, ascending.
    func days(of key: Int) -> [Int64] {
        var days: [Int64] = []
        for span in older.keys.sorted() { Self.append(older[span]![key] ?? 0, of: span, to: &days) }
        if key < newest.count { Self.append(newest[key], of: newestSpan, to: &days) }
        return days
    }

    /// Calls `body` with each key that was active on any day (of `days`, when given) and those
    /// active days, ascending, in key order. Limiting the days reads only the spans they cover.
    func forEachKey(activeIn days: ClosedRange<Int64>? = nil, _ body: (_ key: Int, _ days: [Int64]) -> Void) {
        if let days, (days.upperBound >> 6) - (days.lowerBound >> 6) < Self.flatSpans {
            return forEachKey(inFewSpans: days, body)
        }
        func mask(_ span: Int64) -> UInt64 { days.map { Self.mask(of: span, within: $0) } ?? ~0 }
        var history: [Int: [Int64]] = [:]
        for span in older.keys.sorted() {
            let spanMask = mask(span)
            guard spanMask != 0 else { continue }
            for (key, word) in older[span]! where word & spanMask != 0 {
                Self.append(word & spanMask, of: span, to: &history[key, default: []])
            }
        }
        let newestMask = newestSpan == .min ? 0 : mask(newestSpan)
        let newestKeys = newestMask == 0 ? 0 : newest.count
        var days: [Int64] = []
        for key in 0..<max(newestKeys, (history.keys.max() ?? -1) + 1) {
            days.removeAll(keepingCapacity: true)
            if let earlier = history[key] { days += earlier }
            if key < newestKeys { Self.append(newest[key] & newestMask, of: newestSpan, to: &days) }
            if !days.isEmpty { body(key, days) }
        }
    }

    /// Spans up to which `forEachKey(activeIn:)` lays every key's words side by side in one
    /// array (keys × spans words) instead of a list of days per key: a catch-up's month or two.
    private static let flatSpans: Int64 = 8

    /// `forEachKey(activeIn:)` over days within a few spans, without a table of lists.
    private func forEachKey(inFewSpans days: ClosedRange<Int64>, _ body: (_ key: Int, _ days: [Int64]) -> Void) {
        let spans = Array((days.lowerBound >> 6)...(days.upperBound >> 6)), width = spans.count
        var keys = spans.contains(newestSpan) ? newest.count : 0
        for span in spans where span != newestSpan { keys = max(keys, (older[span]?.keys.max() ?? -1) + 1) }
        var words = [UInt64](repeating: 0, count: keys * width)
        for (index, span) in spans.enumerated() {
            let mask = Self.mask(of: span, within: days)
            if span == newestSpan {
                for key in newest.indices where newest[key] & mask != 0 { words[key * width + index] = newest[key] & mask }
            } else if let active = older[span] {
                for (key, word) in active where word & mask != 0 { words[key * width + index] = word & mask }
            }
        }
        var list: [Int64] = []
        for key in 0..<keys {
            list.removeAll(keepingCapacity: true)
            for index in 0..<width { Self.append(words[key * width + index], of: spans[index], to: &list) }
            if !list.isEmpty { body(key, list) }
        }
    }

    /// Makes `span` the newest, keeping only the keys active in the one it replaces.
    private mutating func retireNewest(for span: Int64) {
        if newestSpan != .min {
            var active: [Int: UInt64] = [:]
            for key in newest.indices where newest[key] != 0 { active[key] = newest[key] }
            if !active.isEmpty { older[newestSpan] = active }
            for key in newest.indices { newest[key] = 0 }
        }
        newestSpan = span
    }

    /// Appends the days whose bits `word` holds, of the span `span`.
    private static func append(_ word: UInt64, of span: Int64, to days: inout [Int64]) {
        var word = word
        while word != 0 {
            days.append(span << 6 + Int64(word.trailingZeroBitCount))
            word &= word - 1
        }
    }
}

extension ActivityCalendar {
    /// The newest span's words by key up to the last active one (those after are capacity),
    /// then each older span's keys and words.
    func write(to writer: inout StateWriter) {
        writer.write(newestSpan)
        let used = (newest.lastIndex { $0 != 0 } ?? -1) + 1
        writer.write(used)
        for word in newest[..<used] { writer.writeWord(word) }
        writer.write(older) { writer, span in
            writer.write(span.key)
            writer.write(span.value) { writer, entry in
                writer.write(entry.key)
                writer.writeWord(entry.value)
            }
        }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        newestSpan = try reader.readInt64()
        // `mark` grows the words again as keys need them.
        newest = try reader.readArray { try $0.readWord() }
        older = try reader.readDictionary { reader in
            let span = try reader.readInt64()
            let words: [Int: UInt64] = try reader.readDictionary { (try $0.readCount(), try $0.readWord()) }
            return (span, words)
        }
    }
}
