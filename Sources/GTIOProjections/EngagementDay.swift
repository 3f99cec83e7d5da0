import GTIOCatalog

/// Engagement figures of one UTC day (EVENTS.md, Engagement).
public struct EngagementDay: Sendable, Equatable {
    public var day: Int64
    public var dau: Int
    public var wau: Int
    public var mau: Int
    public var devices: Int
    public var signups: [String: Int]
    public var actions: [CommunityState.Action: Int]
    public var events: Int

    public var date: String { Timestamp(milliseconds: day * Timestamp.millisecondsPerDay).dateString }
}

extension ReadModels {
    /// The UTC day of "now".
    public var today: Int64 { Timestamp(milliseconds: now).day }

    /// Distinct users active on any day of `days`.
    public func activeUsers(_ days: ClosedRange<Int64>) -> Int {
        if days.count == 1 { return state.activeUsersByDay[days.lowerBound]?.count ?? 0 }
        var users = Set<String>()
        for day in days { users.formUnion(state.activeUsersByDay[day] ?? []) }
        return users.count
    }

    /// WAU and MAU of `day`: from a sweep over every active day of the view, done once.
    func windows(on day: Int64) -> (wau: Int, mau: Int) {
        let all = indexes.windows {
            // Each user's count of active days inside the 7- and 30-day windows ending at the day.
            var inWeek: [String: Int] = [:], inMonth: [String: Int] = [:]
            var result: [Int64: (wau: Int, mau: Int)] = [:]
            let days = state.activeUsersByDay.keys.sorted()
            guard let first = days.first, let last = days.last else { return [:] }
            for current in first...(last + 29) {
                for user in state.activeUsersByDay[current] ?? [] {
                    inWeek[user, default: 0] += 1
                    inMonth[user, default: 0] += 1
                }
                for user in state.activeUsersByDay[current - 7] ?? [] {
                    inWeek[user]! -= 1
                    if inWeek[user] == 0 { inWeek[user] = nil }
                }
                for user in state.activeUsersByDay[current - 30] ?? [] {
                    inMonth[user]! -= 1
                    if inMonth[user] == 0 { inMonth[user] = nil }
                }
                result[current] = (inWeek.count, inMonth.count)
            }
            return result
        }
        return all[day] ?? (0, 0)
    }

    public func engagement(on day: Int64) -> EngagementDay {
        let windows = windows(on: day)
        return EngagementDay(
            day: day, dau: activeUsers(day...day), wau: windows.wau, mau: windows.mau,
            devices: state.activeDevicesByDay[day]?.count ?? 0, signups: state.signupsByDay[day] ?? [:],
            actions: state.actionsByDay[day] ?? [:], events: state.eventsByDay[day]?.values.reduce(0, +) ?? 0)
    }

    /// Ignored events by type and reason, most first.
    public func anomalies() -> [AnomalyCount] {
        state.anomalies.map { AnomalyCount(type: $0.key.type, anomaly: $0.key.anomaly, count: $0.value) }
            .sorted { ($1.count, $0.type.rawValue, $0.anomaly) < ($0.count, $1.type.rawValue, $1.anomaly) }
    }
}
