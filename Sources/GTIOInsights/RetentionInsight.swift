import GTIOCatalog
import GTIOTables

/// `retention --start SELECTOR --return SELECTOR [--interval day|week] [--periods N]`: whether
/// users come back after their first start event (INSIGHTS.md §3 and §5).
public struct RetentionInsight: Sendable {
    public var start: EventSelector
    public var comeback: EventSelector
    public var interval: InsightInterval = .day
    /// Periods after the cohort's; nil: 7 for days, 4 for weeks.
    public var periods: Int?
    public var filters: [PropertyFilter] = []

    public init(start: EventSelector, comeback: EventSelector) {
        self.start = start
        self.comeback = comeback
    }

    public static let columns = ["cohort", "size", "period", "retained", "share"]

    public func run(_ reader: InsightReader, window: InsightWindow) throws -> ResultTable {
        guard interval != .month else { throw InsightError.badOption("retention --interval takes day or week") }
        // Each user's first start event in the window, by (at, seq).
        var first: [String: (at: Int64, seq: Int64)] = [:]
        try read(start, times: window.times, reader) { user, event in
            if let known = first[user], (known.at, known.seq) <= (event.at, event.seq) { return }
            first[user] = (event.at, event.seq)
        }
        // Each user's cohort (its interval's first day), and a bit for each period k in which
        // they came back: one look-up a returning event, rather than a set of intervals a user.
        let periods = max(1, self.periods ?? (interval == .day ? 7 : 4)), words = periods / 64 + 1
        var cohortOf: [String: Int] = [:]
        var cohorts: [Int64] = []
        cohortOf.reserveCapacity(first.count)
        for (user, event) in first {
            cohortOf[user] = cohorts.count
            cohorts.append(interval.start(of: Timestamp(milliseconds: event.at).day))
        }
        var returned = [UInt64](repeating: 0, count: cohorts.count * words)
        let periodDays: Int64 = interval == .day ? 1 : 7
        // Returns come after the window too, up to now, but not past the last period of the
        // last cohort (which ends after the window begins).
        if let last = cohorts.max() {
            let end = (last + periodDays * Int64(periods + 1)) * 86_400_000 - 1
            try read(comeback, times: window.times.lowerBound...max(window.times.lowerBound, end), reader) { user, event in
                guard let index = cohortOf[user] else { return }
                let period = (interval.start(of: Timestamp(milliseconds: event.at).day) - cohorts[index]) / periodDays
                if period >= 1 && period <= Int64(periods) { returned[index * words + Int(period) / 64] |= 1 << UInt64(period % 64) }
            }
        }
        var members: [Int64: [Int]] = [:]
        for index in cohorts.indices { members[cohorts[index], default: []].append(index) }
        var rows: [[Cell]] = []
        for cohort in members.keys.sorted() {
            let users = members[cohort]!
            for period in 1...periods {
                let retained = users.count { returned[$0 * words + period / 64] & (1 << UInt64(period % 64)) != 0 }
                rows.append([.text(interval.label(cohort)), .integer(Int64(users.count)), .integer(Int64(period)),
                             .integer(Int64(retained)), .number(Double(retained) / Double(users.count))])
            }
        }
        return ResultTable(columns: Self.columns, rows: rows)
    }

    /// Calls `body` with the user and the event of each event `selector` (and the filters) keeps.
    private func read(_ selector: EventSelector, times: ClosedRange<Int64>, _ reader: InsightReader,
                      _ body: (String, InsightEvent) -> Void) throws {
        let filters = selector.filters + self.filters
        try reader.read(types: selector.types, times: times, properties: filters.map(\.property)) { event in
            guard let user = event.user else { return }
            for (index, filter) in filters.enumerated() where !filter.keeps(event.values[index]) { return }
            body(user, event)
        }
    }
}
