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
    /// Quick-add pairs first shown on the day, and how many of them were followed with
    /// `via: quickadd` since, up to "now".
    public var quickAddShown = 0
    public var quickAddAccepted = 0

    public var date: String { Timestamp.dateString(ofDay: day) }

    /// A day on which nobody did anything, and nobody in the month before either.
    public static func quiet(_ day: Int64) -> EngagementDay {
        EngagementDay(day: day, dau: 0, wau: 0, mau: 0, devices: 0, signups: [:], actions: [:], events: 0)
    }
}

extension ReadModels {
    /// The UTC day of "now".
    public var today: Int64 { Timestamp(milliseconds: now).day }

    /// Engagement of one day.
    public func engagement(on day: Int64) -> EngagementDay {
        let windows = state.activeWindows.figures(on: day)
        return EngagementDay(
            day: day, dau: state.dauByDay[day] ?? 0, wau: windows.wau, mau: windows.mau,
            devices: state.devicesByDay[day] ?? 0, signups: state.signupsByDay[day] ?? [:],
            actions: state.actionsByDay[day] ?? [:], events: state.eventsByDay[day] ?? 0,
            quickAddShown: state.quickAddShownByDay[day] ?? 0, quickAddAccepted: state.quickAddAcceptedByDay[day] ?? 0)
    }

    /// Ignored events by type and reason, most first: in the whole view, or on one UTC `day`.
    public func anomalies(on day: Int64? = nil) -> [AnomalyCount] {
        let counts = day.map { state.anomaliesByDay[$0] ?? [:] } ?? state.anomalies
        return counts.map { AnomalyCount(type: $0.key.type, anomaly: $0.key.anomaly, count: $0.value) }
            .sorted(by: AnomalyCount.mostFirst)
    }
}
