import GTIOCatalog
import GTIOProjections
import GTIOStore

/// The users who signed up on one UTC day and how many were active again N days later.
public struct RetentionCohort: Sendable, Equatable {
    /// The days after sign-up that retention looks at (EVENTS.md, Engagement).
    public static let offsets = ReadModels.retentionOffsets

    public var day: Int64
    public var users: Int
    /// Users active on `day + offset`, one per offset; nil while that day has not begun.
    public var retained: [Int?]

    public var date: String { Timestamp.dateString(ofDay: day) }

    /// The share of the cohort retained at offset number `index`; nil when not yet known.
    public func rate(_ index: Int) -> Double? {
        guard users > 0, let count = retained[index] else { return nil }
        return Double(count) / Double(users)
    }
}

extension StoredReadModels {
    /// Cohorts by sign-up day (a user's first `user.signed_up`), for the days in `days` that had
    /// sign-ups (nil: all). A day is measured once it has begun by "now".
    public func retention(cohorts days: ClosedRange<Int64>? = nil) throws -> [RetentionCohort] {
        let (filter, arguments) = Self.dateFilter("date", days)
        // A row a cohort, which the writers keep as sign-ups and active days come.
        let sql = "SELECT date, users, active_d1, active_d7, active_d30 FROM rm_cohort_days\(filter)"
        let today = self.today
        return try read { try $0.rows(sql + " ORDER BY date", arguments) }.map { row in
            let day = Timestamp(date: row[0].string ?? "")?.day ?? 0
            let retained = RetentionCohort.offsets.indices.map { index -> Int? in
                day + RetentionCohort.offsets[index] <= today ? row[2 + index].int : nil
            }
            return RetentionCohort(day: day, users: row[1].int, retained: retained)
        }
    }
}
