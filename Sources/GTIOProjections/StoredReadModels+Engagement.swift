import GTIOCatalog
import GTIOStore

extension StoredReadModels {
    /// The UTC day of "now".
    public var today: Int64 { Timestamp(milliseconds: now).day }

    /// The UTC days from the first event in view to the newest (those `rm_days` keeps a row
    /// for); nil for a view without events.
    public func loggedDays() throws -> ClosedRange<Int64>? {
        let row = try read { try $0.row("SELECT MIN(date), MAX(date) FROM rm_days", []) }
        guard let first = row?[0].string.flatMap(Timestamp.init(date:)), let last = row?[1].string.flatMap(Timestamp.init(date:))
        else { return nil }
        return first.day...last.day
    }

    /// Engagement of one UTC day: `rm_days` keeps a row for each day from the log's first to its
    /// last, with events or not, and `rm_days_after` the WAU and MAU of the month after it; any
    /// other day is a quiet one.
    public func engagement(on day: Int64) throws -> EngagementDay {
        let actions = CommunityState.Action.allCases
        let date = StoreValue.text(Timestamp.dateString(ofDay: day))
        return try read { tables in
            guard let row = try tables.row(
                "SELECT dau, wau, mau, devices, events, quickadd_shown, quickadd_accepted, \(actions.map(\.rawValue).joined(separator: ", ")) FROM rm_days WHERE date = ?",
                [date])
            else {
                var quiet = EngagementDay.quiet(day)
                if let after = try tables.row("SELECT wau, mau FROM rm_days_after WHERE date = ?", [date]) {
                    (quiet.wau, quiet.mau) = (after[0].int, after[1].int)
                }
                return quiet
            }
            var signups: [String: Int] = [:]
            for signup in try tables.rows("SELECT provider, count FROM rm_signups WHERE date = ?", [date]) {
                signups[signup[0].string ?? ""] = signup[1].int
            }
            var counts: [CommunityState.Action: Int] = [:]
            for (index, action) in actions.enumerated() where row[7 + index].int > 0 { counts[action] = row[7 + index].int }
            return EngagementDay(day: day, dau: row[0].int, wau: row[1].int, mau: row[2].int, devices: row[3].int,
                                 signups: signups, actions: counts, events: row[4].int,
                                 quickAddShown: row[5].int, quickAddAccepted: row[6].int)
        }
    }

    /// Ignored events by type and reason, most first: all of them, or those of one UTC day.
    public func anomalies(on day: Int64? = nil) throws -> [AnomalyCount] {
        try read { tables in
            let rows = if let day {
                try tables.rows("SELECT type, reason, count FROM rm_anomaly_days WHERE date = ?", [.text(Timestamp.dateString(ofDay: day))])
            } else {
                try tables.rows("SELECT type, reason, count FROM rm_anomalies")
            }
            return rows.compactMap { row -> AnomalyCount? in
                guard let type = row[0].string.flatMap(EventType.init(rawValue:)),
                      let anomaly = row[1].string.flatMap(Anomaly.init(rawValue:))
                else { return nil }
                return AnomalyCount(type: type, anomaly: anomaly, count: row[2].int)
            }
        }
        .sorted(by: AnomalyCount.mostFirst)
    }

    /// Quick-add pairs first shown on one of `days` (nil: all) and how many of them were then
    /// followed with `via: quickadd`, accepted at any time up to now.
    public func quickAddShownAndAccepted(shownOn days: ClosedRange<Int64>? = nil) throws -> (shown: Int, accepted: Int) {
        let (filter, arguments) = Self.dateFilter("date", days)
        let row = try read { try $0.row("SELECT SUM(quickadd_shown), SUM(quickadd_accepted) FROM rm_days\(filter)", arguments) }
        return (row?[0].int ?? 0, row?[1].int ?? 0)
    }
}
