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
    private var older: [Int64: [IDKey: UInt64]] = [:]

    /// Marks `key` active on `day`; false when it was already.
    mutating func mark(_ key: Int, on day: Int64) -> Bool {
        let span = day >> 6, bit = UInt64(1) << UInt64(day & 63)
        if span > newestSpan { retireNewest(for: span) }
        guard span == newestSpan else {
            // A late event, past the start of a newer span: rare, so a dictionary will do.
            let word = older[span, default: [:]][IDKey(key), default: 0]
            guard word & bit == 0 else { return false }
            older[span, default: [:]][IDKey(key)] = word | bit
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
        return (older[span]?[IDKey(key)] ?? 0) & bit != 0
    }

    /// `key`'s active days nearest to `day` on either side, within `width` days of it (nil
    /// where there is none): what a new active day needs to know to move the WAU and MAU.
    func nearestDays(of key: Int, around day: Int64, within width: Int64) -> (before: Int64?, after: Int64?) {
        var before: Int64?, after: Int64?
        for span in ((day - width) >> 6)...((day + width) >> 6) {
            let word = self.word(of: key, in: span)
            guard word != 0 else { continue }
            let earlier = word & Self.mask(of: span, within: (day - width)...(day - 1))
            if earlier != 0 { before = span << 6 + Int64(63 - earlier.leadingZeroBitCount) }
            let later = word & Self.mask(of: span, within: (day + 1)...(day + width))
            if later != 0, after == nil { after = span << 6 + Int64(later.trailingZeroBitCount) }
        }
        return (before, after)
    }

    /// `key`'s word of `span`: one bit per day of it.
    private func word(of key: Int, in span: Int64) -> UInt64 {
        if span == newestSpan { return key < newest.count ? newest[key] : 0 }
        return older[span]?[IDKey(key)] ?? 0
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
        for span in older.keys.sorted() { Self.append(older[span]![IDKey(key)] ?? 0, of: span, to: &days) }
        if key < newest.count { Self.append(newest[key], of: newestSpan, to: &days) }
        return days
    }

    /// Makes `span` the newest, keeping only the keys active in the one it replaces.
    private mutating func retireNewest(for span: Int64) {
        if newestSpan != .min {
            var active: [IDKey: UInt64] = [:]
            for key in newest.indices where newest[key] != 0 { active[IDKey(key)] = newest[key] }
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
                writer.write(entry.key.int)
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
            let words: [IDKey: UInt64] = try reader.readDictionary { (IDKey(try $0.readCount()), try $0.readWord()) }
            return (span, words)
        }
    }
}
