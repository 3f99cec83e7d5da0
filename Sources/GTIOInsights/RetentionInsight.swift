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
        let periods = self.periods ?? (interval == .day ? 7 : 4)
        // Each user's first start event in the window, by (at, seq).
        var first: [String: (at: Int64, seq: Int64)] = [:]
        try read(start, times: window.times, reader) { user, event in
            if let known = first[user], (known.at, known.seq) <= (event.at, event.seq) { return }
            first[user] = (event.at, event.seq)
        }
        // The intervals in which each user came back (after the window too, up to now).
        var returns: [String: Set<Int64>] = [:]
        try read(comeback, times: window.times.lowerBound...Int64.max / 2, reader) { user, event in
            guard first[user] != nil else { return }
            returns[user, default: []].insert(interval.start(of: Timestamp(milliseconds: event.at).day))
        }
        var cohorts: [Int64: [String]] = [:]
        for (user, event) in first { cohorts[interval.start(of: Timestamp(milliseconds: event.at).day), default: []].append(user) }
        var rows: [[Cell]] = []
        for cohort in cohorts.keys.sorted() {
            let users = cohorts[cohort]!
            for period in 1...max(1, periods) {
                let target = interval.advance(cohort, by: period)
                let retained = users.filter { returns[$0]?.contains(target) == true }.count
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
