import GTIOCatalog
import GTIOProjections

/// The users who signed up on one UTC day and how many were active again N days later.
public struct RetentionCohort: Sendable, Equatable {
    /// The days after sign-up that retention looks at (EVENTS.md, Engagement).
    public static let offsets: [Int64] = [1, 7, 30]

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

extension ReadModels {
    /// Cohorts by sign-up day (a user's first `user.signed_up`), for the days in `days` that had
    /// sign-ups (nil: all). A day is measured once it has begun by "now".
    public func retention(cohorts days: ClosedRange<Int64>? = nil) -> [RetentionCohort] {
        var members: [Int64: [String]] = [:]
        for (user, signup) in state.signups {
            let day = Timestamp(milliseconds: signup.at).day
            if let days, !days.contains(day) { continue }
            members[day, default: []].append(user)
        }
        let today = self.today
        return members.keys.sorted().map { day in
            let users = members[day]!
            let retained = RetentionCohort.offsets.map { offset -> Int? in
                guard day + offset <= today else { return nil }
                return users.count { state.wasActive($0, on: day + offset) }
            }
            return RetentionCohort(day: day, users: users.count, retained: retained)
        }
    }
}
