/// Every day's WAU and MAU, kept as users' activity arrives rather than counted over every
/// user's calendar when a day's row is written.
///
/// A user active on day d counts in the WAU of days d…d+6 and the MAU of days d…d+29. A new
/// active day adds the user to the days of those windows that none of their other active days
/// already covers, which needs only that user's own days within a month of it: what a writer
/// that reads the state for the users its events touch has at hand.
struct ActiveWindows: Sendable {
    static let week: Int64 = 7
    static let month: Int64 = 30

    /// The WAU, then the MAU, of the 64 days of each span (`day >> 6`) that someone's window
    /// reaches. Spans rather than one array from the first day to the last, so that one event
    /// dated centuries away costs its own spans, not the days between.
    private var spans: [Int64: [Int32]] = [:]
    private static let quiet = [Int32](repeating: 0, count: 128)

    /// Adds a user newly active on `day`, whose nearest other active days within a month are
    /// `before` and `after` (nil when none); returns the days whose WAU or MAU rose, if any.
    mutating func add(day: Int64, before: Int64?, after: Int64?) -> ClosedRange<Int64>? {
        let week = Self.uncovered(day, before, after, width: Self.week)
        let month = Self.uncovered(day, before, after, width: Self.month)
        guard week != nil || month != nil else { return nil }
        if let week { raise(week, at: 0) }
        if let month { raise(month, at: 64) }
        let lower = min(week?.lowerBound ?? .max, month?.lowerBound ?? .max)
        let upper = max(week?.upperBound ?? .min, month?.upperBound ?? .min)
        return lower...upper
    }

    /// The WAU and MAU of `day`: 0 and 0 where nobody's window reaches.
    func figures(on day: Int64) -> (wau: Int, mau: Int) {
        guard let counts = spans[day >> 6] else { return (0, 0) }
        let index = Int(day & 63)
        return (Int(counts[index]), Int(counts[64 + index]))
    }

    /// The days of the window of `width` days from `day` that the user's active days `before`
    /// and `after` it do not already cover.
    private static func uncovered(_ day: Int64, _ before: Int64?, _ after: Int64?, width: Int64) -> ClosedRange<Int64>? {
        let first = max(day, (before ?? .min / 2) + width)
        let last = min(day + width - 1, (after ?? .max / 2) - 1)
        return first <= last ? first...last : nil
    }

    /// Adds 1 to the WAU (`offset` 0) or the MAU (64) of each of `days`, span by span.
    private mutating func raise(_ days: ClosedRange<Int64>, at offset: Int) {
        for span in (days.lowerBound >> 6)...(days.upperBound >> 6) {
            let first = Int(max(days.lowerBound, span << 6) & 63), last = Int(min(days.upperBound, span << 6 + 63) & 63)
            Self.raise(&spans[span, default: Self.quiet], from: offset + first, through: offset + last)
        }
    }

    private static func raise(_ counts: inout [Int32], from first: Int, through last: Int) {
        for index in first...last { counts[index] += 1 }
    }
}

extension ActiveWindows {
    /// The spans in ascending order, each its number then its 128 counts.
    func write(to writer: inout StateWriter) {
        writer.write(spans.keys.sorted()) { writer, span in
            writer.write(span)
            for count in spans[span]! { writer.write(Int(count)) }
        }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        let count = try reader.readCount()
        spans.reserveCapacity(count)
        for _ in 0..<count {
            let span = try reader.readInt64()
            var counts = [Int32](repeating: 0, count: 128)
            for index in counts.indices {
                guard let value = Int32(exactly: try reader.readInt()), value >= 0 else {
                    throw FoldSnapshotError.malformed("a WAU or MAU out of range")
                }
                counts[index] = value
            }
            spans[span] = counts
        }
    }
}
