import GTIOCatalog

/// The UTC days an insight looks at, both ends inclusive (INSIGHTS.md §1): `--to` defaults to
/// the date of "now", `--from` to 29 days before `--to`.
public struct InsightWindow: Sendable, Equatable {
    public var from: Int64
    public var to: Int64

    /// The window from the options given, with "now" from `reader`; refuses `--from` after
    /// `--to`, and a window that holds no day of the log (naming where it begins and ends).
    public static func resolve(from: Int64?, to: Int64?, reader: InsightReader) throws -> InsightWindow {
        guard let extent = try reader.extent() else {
            throw InsightError.badWindow("the log has no events in view: ingest events first (gtio ingest FILE)")
        }
        let now = try reader.now() ?? extent.upperBound
        let nowDay = Timestamp(milliseconds: now).day
        let end = to ?? nowDay
        let start = from ?? end - 29
        guard start <= end else {
            throw InsightError.badWindow(
                "--from \(Timestamp.dateString(ofDay: start)) is after --to \(Timestamp.dateString(ofDay: end))")
        }
        try checkSpan(start, end)
        let first = Timestamp(milliseconds: extent.lowerBound).day, last = Timestamp(milliseconds: extent.upperBound).day
        guard end >= first, start <= last else {
            throw InsightError.windowOutsideLog(
                from: Timestamp.dateString(ofDay: start), to: Timestamp.dateString(ofDay: end),
                first: Timestamp.dateString(ofDay: first), last: Timestamp.dateString(ofDay: last))
        }
        return InsightWindow(from: start, to: end)
    }

    /// The most days a window (or a table of one row a day) spans: 100 years. Each day of a window
    /// is a bucket or a row, zeros included, so a mistyped year (`--from 0201-05-01`) would list
    /// hundreds of thousands of them.
    public static let longestSpan: Int64 = 36_525

    /// Refuses the days `start`…`end` when they span more than `longestSpan`, naming them.
    public static func checkSpan(_ start: Int64, _ end: Int64) throws(InsightError) {
        guard end - start + 1 > longestSpan else { return }
        throw InsightError.badWindow(
            "--from \(Timestamp.dateString(ofDay: start)) to \(Timestamp.dateString(ofDay: end)) spans \(end - start + 1) days; "
                + "at most \(longestSpan) (100 years) are listed: check the years of --from and --to")
    }

    public init(from: Int64, to: Int64) {
        self.from = from
        self.to = to
    }

    /// Its times in UTC milliseconds.
    public var times: ClosedRange<Int64> { from * Self.day...(to + 1) * Self.day - 1 }

    static let day: Int64 = 86_400_000
}

/// How a trend or a retention cuts time: UTC days, ISO weeks (labelled by their Monday) or months.
public enum InsightInterval: String, Sendable, CaseIterable {
    case day, week, month

    /// The first day of the interval holding `day`.
    func start(of day: Int64) -> Int64 {
        switch self {
        case .day: return day
        case .week: return day - ((day + 3) % 7 + 7) % 7
        case .month: return Timestamp.firstDayOfMonth(holding: day)
        }
    }

    /// The first day of the interval `count` intervals after the one starting on `start`.
    func advance(_ start: Int64, by count: Int) -> Int64 {
        switch self {
        case .day: return start + Int64(count)
        case .week: return start + 7 * Int64(count)
        case .month: return Timestamp.firstDayOfMonth(holding: start, adding: Int64(count))
        }
    }

    /// The interval's label: the date of its first day, or `YYYY-MM` for a month.
    func label(_ start: Int64) -> String {
        let date = Timestamp.dateString(ofDay: start)
        return self == .month ? String(date.prefix(7)) : date
    }

    /// The starts of every interval that meets the days `from`…`to`.
    func starts(_ from: Int64, _ to: Int64) -> [Int64] {
        var starts: [Int64] = []
        var current = start(of: from)
        while current <= to {
            starts.append(current)
            current = advance(current, by: 1)
        }
        return starts
    }
}

/// A length of time: `30m`, `12h`, `7d`, `2w`, `90s`.
public enum InsightDuration {
    /// The milliseconds of `text`, at most the span of the times an event can have.
    ///
    /// A longer duration (`1e300d`) reaches every event just as that span does, so it is cut to
    /// it rather than refused, and never overflows a 64-bit count.
    public static func milliseconds(_ text: String) throws(InsightError) -> Int64 {
        guard let unit = text.last, let amount = Double(text.dropLast()), amount >= 0, amount.isFinite else {
            throw .badDuration(text)
        }
        let scale: Double
        switch unit {
        case "s": scale = 1_000
        case "m": scale = 60_000
        case "h": scale = 3_600_000
        case "d": scale = 86_400_000
        case "w": scale = 604_800_000
        default: throw .badDuration(text)
        }
        let span = Timestamp.representable.upperBound - Timestamp.representable.lowerBound
        return min(Int64(exactly: (amount * scale).rounded()) ?? span, span)
    }
}
