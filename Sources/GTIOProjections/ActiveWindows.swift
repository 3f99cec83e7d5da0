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

    /// The day of index 0 in `wau` and `mau`.
    private var firstDay: Int64 = 0
    private var wau: [Int32] = []
    private var mau: [Int32] = []

    /// Adds a user newly active on `day`, whose nearest other active days within a month are
    /// `before` and `after` (nil when none); returns the days whose WAU or MAU rose, if any.
    mutating func add(day: Int64, before: Int64?, after: Int64?) -> ClosedRange<Int64>? {
        let week = Self.uncovered(day, before, after, width: Self.week)
        let month = Self.uncovered(day, before, after, width: Self.month)
        guard week != nil || month != nil else { return nil }
        makeRoom(for: day...(day + Self.month - 1))
        if let week { for index in indices(week) { wau[index] += 1 } }
        if let month { for index in indices(month) { mau[index] += 1 } }
        let lower = min(week?.lowerBound ?? .max, month?.lowerBound ?? .max)
        let upper = max(week?.upperBound ?? .min, month?.upperBound ?? .min)
        return lower...upper
    }

    /// The WAU and MAU of `day`: 0 and 0 before any activity.
    func figures(on day: Int64) -> (wau: Int, mau: Int) {
        let index = day - firstDay
        guard index >= 0, index < wau.count else { return (0, 0) }
        return (Int(wau[Int(index)]), Int(mau[Int(index)]))
    }

    /// The days of the window of `width` days from `day` that the user's active days `before`
    /// and `after` it do not already cover.
    private static func uncovered(_ day: Int64, _ before: Int64?, _ after: Int64?, width: Int64) -> ClosedRange<Int64>? {
        let first = max(day, (before ?? .min / 2) + width)
        let last = min(day + width - 1, (after ?? .max / 2) - 1)
        return first <= last ? first...last : nil
    }

    private func indices(_ days: ClosedRange<Int64>) -> Range<Int> {
        Int(days.lowerBound - firstDay)..<Int(days.upperBound - firstDay + 1)
    }

    /// Grows the arrays to hold `days`: at the end by doubling, as days mostly come in order; at
    /// the front (a late event before every other) by what is missing.
    private mutating func makeRoom(for days: ClosedRange<Int64>) {
        if wau.isEmpty { firstDay = days.lowerBound }
        if days.lowerBound < firstDay {
            let missing = Int(firstDay - days.lowerBound)
            wau.insert(contentsOf: repeatElement(0, count: missing), at: 0)
            mau.insert(contentsOf: repeatElement(0, count: missing), at: 0)
            firstDay = days.lowerBound
        }
        let needed = Int(days.upperBound - firstDay + 1)
        if needed > wau.count {
            let count = max(needed, wau.count * 2)
            wau.append(contentsOf: repeatElement(0, count: count - wau.count))
            mau.append(contentsOf: repeatElement(0, count: count - mau.count))
        }
    }
}

extension ActiveWindows {
    /// The first day, then each day's WAU and MAU up to the last with a MAU above 0 (a day in
    /// someone's week is in their month too).
    func write(to writer: inout StateWriter) {
        let used = (mau.lastIndex { $0 != 0 } ?? -1) + 1
        writer.write(firstDay)
        writer.write(used)
        for index in 0..<used {
            writer.write(Int(wau[index]))
            writer.write(Int(mau[index]))
        }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        firstDay = try reader.readInt64()
        let count = try reader.readCount()
        wau.reserveCapacity(count)
        mau.reserveCapacity(count)
        for _ in 0..<count {
            let week = try reader.readInt(), month = try reader.readInt()
            guard let week32 = Int32(exactly: week), let month32 = Int32(exactly: month), week32 >= 0, month32 >= 0 else {
                throw FoldSnapshotError.malformed("a WAU or MAU out of range")
            }
            wau.append(week32)
            mau.append(month32)
        }
    }
}
