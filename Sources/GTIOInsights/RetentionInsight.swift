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
        let periods = max(1, self.periods ?? (interval == .day ? 7 : 4)), periodDays: Int64 = interval == .day ? 1 : 7
        let calendar = (Timestamp.representable.upperBound - Timestamp.representable.lowerBound) / InsightWindow.day / periodDays
        guard periods <= calendar else {
            throw InsightError.badOption("--periods: at most \(calendar) \(interval)s fit between 0001-01-01 and 9999-12-31, got \(periods)")
        }
        // Intervals are counted from the window's first. Returns come after the window too, up
        // to now, but not past the last period of a cohort of the window's last interval.
        let base = interval.start(of: window.from)
        let span = Int((interval.start(of: window.to) - base) / periodDays) + periods + 1
        // No return lies past the newest event in view: a bit for each interval up to it is
        // enough, however many periods were asked for.
        let newest = try reader.extent()?.upperBound ?? window.times.upperBound
        let reach = min(span, max(1, Int((interval.start(of: Timestamp(milliseconds: newest).day) - base) / periodDays) + 1))
        let words = reach / 64 + 1
        let end = (base + periodDays * Int64(span)) * InsightWindow.day - 1
        let startFilters = start.filters + filters, returnFilters = comeback.filters + filters
        let types = start.types.flatMap { starts in comeback.types.map { starts.union($0) } }
        // One pass over both selectors' events, since a scan of the window costs the same
        // whichever types it keeps: each user's first start event in the window, by (at, seq),
        // and a bit for each interval in which they made a return event (`words` of them from
        // `words * key`), both by the user's key. A user's cohort is known only once the pass
        // is over.
        var first: [(at: Int64, seq: Int64)?] = []
        var returned: [UInt64] = []
        try reader.read(types: types, times: window.times.lowerBound...end,
                        properties: (startFilters + returnFilters).map(\.property), actor: .user) { event in
            guard let slot = event.actor(.user) else { return }
            let starts = window.times.contains(event.at) && start.types?.contains(event.type) ?? true
                && startFilters.indices.allSatisfy { startFilters[$0].keeps(event.values[$0]) }
            let returns = comeback.types?.contains(event.type) ?? true
                && returnFilters.indices.allSatisfy { returnFilters[$0].keeps(event.values[startFilters.count + $0]) }
            guard starts || returns else { return }
            if slot >= first.count {
                first.append(contentsOf: repeatElement(nil, count: slot + 1 - first.count))
                returned.append(contentsOf: repeatElement(0, count: first.count * words - returned.count))
            }
            if starts, first[slot].map({ ($0.at, $0.seq) > (event.at, event.seq) }) ?? true { first[slot] = (event.at, event.seq) }
            if returns {
                let k = Int((interval.start(of: Timestamp(milliseconds: event.at).day) - base) / periodDays)
                if k < reach { returned[slot * words + k / 64] |= 1 << UInt64(k % 64) }
            }
        }
        // Each cohort's users, by the index of its interval.
        var members: [Int: [Int]] = [:]
        for slot in first.indices {
            guard let event = first[slot] else { continue }
            members[Int((interval.start(of: Timestamp(milliseconds: event.at).day) - base) / periodDays), default: []].append(slot)
        }
        var rows: [[Cell]] = []
        for cohort in members.keys.sorted() {
            let users = members[cohort]!
            for period in 1...periods {
                let k = cohort + period
                let retained = k < reach ? users.count { returned[$0 * words + k / 64] & (1 << UInt64(k % 64)) != 0 } : 0
                rows.append([.text(interval.label(base + periodDays * Int64(cohort))), .integer(Int64(users.count)),
                             .integer(Int64(period)), .integer(Int64(retained)), .number(Double(retained) / Double(users.count))])
            }
        }
        return ResultTable(columns: Self.columns, rows: rows)
    }
}
