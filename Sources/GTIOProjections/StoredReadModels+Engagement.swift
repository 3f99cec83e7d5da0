import GTIOCatalog
import GTIOStore

extension StoredReadModels {
    /// The UTC day of "now".
    public var today: Int64 { Timestamp(milliseconds: now).day }

    /// Engagement of one UTC day, nil when the log has no event on it (the tables keep a row
    /// only for days with events).
    public func engagement(on day: Int64) throws -> EngagementDay? {
        let actions = CommunityState.Action.allCases
        let date = StoreValue.text(Timestamp.dateString(ofDay: day))
        return try read { tables in
            guard let row = try tables.row(
                "SELECT dau, wau, mau, devices, events, \(actions.map(\.rawValue).joined(separator: ", ")) FROM rm_days WHERE date = ?",
                [date])
            else { return nil }
            var signups: [String: Int] = [:]
            for signup in try tables.rows("SELECT provider, count FROM rm_signups WHERE date = ?", [date]) {
                signups[signup[0].string ?? ""] = signup[1].int
            }
            var counts: [CommunityState.Action: Int] = [:]
            for (index, action) in actions.enumerated() where row[5 + index].int > 0 { counts[action] = row[5 + index].int }
            return EngagementDay(day: day, dau: row[0].int, wau: row[1].int, mau: row[2].int, devices: row[3].int,
                                 signups: signups, actions: counts, events: row[4].int)
        }
    }

    /// Ignored events by type and reason, most first.
    public func anomalies() throws -> [AnomalyCount] {
        try read { tables in
            try tables.rows("SELECT type, reason, count FROM rm_anomalies").compactMap { row in
                guard let type = row[0].string.flatMap(EventType.init(rawValue:)),
                      let anomaly = row[1].string.flatMap(Anomaly.init(rawValue:))
                else { return nil }
                return AnomalyCount(type: type, anomaly: anomaly, count: row[2].int)
            }
        }
        .sorted(by: AnomalyCount.mostFirst)
    }
}
