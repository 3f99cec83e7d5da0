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

    public var date: String { Timestamp.dateString(ofDay: day) }

    /// A day on which nobody did anything, and nobody in the month before either.
    public static func quiet(_ day: Int64) -> EngagementDay {
        EngagementDay(day: day, dau: 0, wau: 0, mau: 0, devices: 0, signups: [:], actions: [:], events: 0)
    }
}

extension ReadModels {
    /// The UTC day of "now".
    public var today: Int64 { Timestamp(milliseconds: now).day }

    /// Distinct users active on any day of `days`.
    public func activeUsers(_ days: ClosedRange<Int64>) -> Int {
        if days.count == 1 { return state.dauByDay[days.lowerBound] ?? 0 }
        return state.userActivity.countKeys(activeOn: days)
    }

    /// WAU and MAU of `day`: computed for every day of the view at once, then looked up.
    func windows(on day: Int64) -> (wau: Int, mau: Int) {
        let all = indexes.windows {
            guard let first = state.dauByDay.keys.min(), let last = state.dauByDay.keys.max() else { return [:] }
            return windows(from: first, through: last, reading: nil)
        }
        return all[day] ?? (0, 0)
    }

    /// WAU and MAU of each of `days` (ascending), from the activity of those days and the month
    /// before them only: what a catch-up rewrites, without sweeping the whole history.
    func windows(of days: [Int64]) -> [Int64: (wau: Int, mau: Int)] {
        guard let first = days.first, let last = days.last else { return [:] }
        // A few days: counting each day's users is cheaper than any sweep.
        if days.count <= 3 { return Dictionary(uniqueKeysWithValues: days.map { ($0, windowsByUser(on: $0)) }) }
        let all = windows(from: first - 29, through: last, reading: first - 29...last)
        return Dictionary(uniqueKeysWithValues: days.map { ($0, all[$0] ?? (0, 0)) })
    }

    /// WAU and MAU of every day from `first` on, by one sweep of the users' active days (those of
    /// `reading` only, when given): exact for each day whose month since `first` is all read.
    private func windows(from first: Int64, through last: Int64, reading: ClosedRange<Int64>?) -> [Int64: (wau: Int, mau: Int)] {
        // A user active on day d counts in the windows of days d…d+6 and d…d+29: each user's
        // active days become merged runs of covered days, added up as +1 at a run's start and
        // −1 after its end.
        let span = Int(last - first) + 30
        var week = [Int](repeating: 0, count: span + 7), month = [Int](repeating: 0, count: span + 30)
        func cover(_ days: [Int64], width: Int64, _ steps: inout [Int]) {
            var start = days[0], end = days[0] + width - 1
            for day in days.dropFirst() {
                if day <= end + 1 {
                    end = day + width - 1
                } else {
                    steps[Int(start - first)] += 1
                    steps[Int(end - first) + 1] -= 1
                    start = day
                    end = day + width - 1
                }
            }
            steps[Int(start - first)] += 1
            steps[Int(end - first) + 1] -= 1
        }
        state.userActivity.forEachKey(activeIn: reading) { _, days in
            cover(days, width: 7, &week)
            cover(days, width: 30, &month)
        }
        var result: [Int64: (wau: Int, mau: Int)] = [:]
        var wau = 0, mau = 0
        for offset in 0..<span {
            wau += week[offset]
            mau += month[offset]
            result[first + Int64(offset)] = (wau, mau)
        }
        return result
    }

    /// WAU and MAU of one day from the users' active days: for a few days, cheaper than the sweep.
    func windowsByUser(on day: Int64) -> (wau: Int, mau: Int) {
        (state.userActivity.countKeys(activeOn: day - 6...day), state.userActivity.countKeys(activeOn: day - 29...day))
    }

    /// Engagement of one day, with its WAU and MAU when the caller computed them (see
    /// `windows(of:)`), else looked up in the sweep of every day.
    public func engagement(on day: Int64, windows known: (wau: Int, mau: Int)? = nil) -> EngagementDay {
        let windows = known ?? windows(on: day)
        return EngagementDay(
            day: day, dau: activeUsers(day...day), wau: windows.wau, mau: windows.mau,
            devices: state.devicesByDay[day] ?? 0, signups: state.signupsByDay[day] ?? [:],
            actions: state.actionsByDay[day] ?? [:], events: state.eventsByDay[day] ?? 0)
    }

    /// Ignored events by type and reason, most first: in the whole view, or on one UTC `day`.
    public func anomalies(on day: Int64? = nil) -> [AnomalyCount] {
        let counts = day.map { state.anomaliesByDay[$0] ?? [:] } ?? state.anomalies
        return counts.map { AnomalyCount(type: $0.key.type, anomaly: $0.key.anomaly, count: $0.value) }
            .sorted(by: AnomalyCount.mostFirst)
    }
}
