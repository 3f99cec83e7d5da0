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

    /// WAU and MAU of one day from each user's active days: for a few days, cheaper than the sweep.
    func windowsByUser(on day: Int64) -> (wau: Int, mau: Int) {
        var wau = 0, mau = 0
        for days in state.activeDaysByUser.values {
            // The user's latest active day not after `day`.
            var low = 0, high = days.count
            while low < high {
                let middle = (low + high) / 2
                if days[middle] <= day { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { continue }
            let latest = days[low - 1]
            if latest >= day - 29 { mau += 1 }
            if latest >= day - 6 { wau += 1 }
        }
        return (wau, mau)
    }

    /// Engagement of one day; `single` computes its windows alone rather than for every day at once.
    public func engagement(on day: Int64, single: Bool = false) -> EngagementDay {
        let windows = single ? windowsByUser(on: day) : windows(on: day)
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
