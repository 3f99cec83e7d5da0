import GTIOCatalog
import GTIOProjections
import GTIOStore

/// The onboarding funnel of a set of devices (EVENTS.md, Engagement): how many reached each
/// step, in order, within 7 days of the device's first `app.opened`.
public struct OnboardingFunnel: Sendable, Equatable {
    /// The steps, in order; `reached` has one count per step.
    public static let steps = ["app.opened", "user.signed_up", "user.profile_completed", "user.followed via quickadd"]
    /// The steps in words, for charts.
    public static let labels = ["opened the app", "signed up", "completed profile", "quick-add follow"]
    /// The column names the steps have in tables.
    public static let columns = ["opened", "signed_up", "profile_completed", "quickadd_followed"]
    public static let window = ReadModels.onboardingWindow

    /// Devices that reached each step.
    public var reached: [Int]

    public init(reached: [Int] = Array(repeating: 0, count: steps.count)) { self.reached = reached }

    /// Devices at `step` ÷ devices at the step before; nil for the first step or none before.
    public func stepConversion(_ step: Int) -> Double? {
        guard step > 0, reached[step - 1] > 0 else { return nil }
        return Double(reached[step]) / Double(reached[step - 1])
    }

    /// Devices at `step` ÷ devices that opened the app.
    public func overallConversion(_ step: Int) -> Double? {
        reached[0] > 0 ? Double(reached[step]) / Double(reached[0]) : nil
    }

    /// Adds the devices of another set, `reached` counting them at each step.
    mutating func add(_ reached: [Int]) {
        for index in self.reached.indices where index < reached.count { self.reached[index] += reached[index] }
    }
}

extension StoredReadModels {
    /// The funnel of the devices whose first `app.opened` falls on one of `days` (nil: every device).
    public func onboardingFunnel(firstOpenedOn days: ClosedRange<Int64>? = nil) throws -> OnboardingFunnel {
        var funnel = OnboardingFunnel()
        for (_, reached) in try funnelDays(days) { funnel.add(reached) }
        return funnel
    }

    /// One funnel per day of `days`, for the devices first opened that day (days without any included).
    public func onboardingFunnelByDay(_ days: ClosedRange<Int64>) throws -> [(day: Int64, funnel: OnboardingFunnel)] {
        var byDay = [Int64: OnboardingFunnel]()
        for (day, reached) in try funnelDays(days) { byDay[day, default: OnboardingFunnel()].add(reached) }
        return days.map { ($0, byDay[$0] ?? OnboardingFunnel()) }
    }

    /// The day of the earliest first `app.opened`, nil when no device opened the app.
    public func firstOpenDay() throws -> Int64? {
        try read { try $0.row("SELECT MIN(date) FROM rm_funnel_days") }?[0].string.flatMap { Timestamp(date: $0)?.day }
    }

    /// The devices first opened on each day of `days` (nil: all) that reached each step: a row a
    /// day from `rm_funnel_days`, which the writers keep as devices move.
    private func funnelDays(_ days: ClosedRange<Int64>?) throws -> [(day: Int64, reached: [Int])] {
        let (filter, arguments) = Self.dateFilter("date", days)
        let sql = "SELECT date, opened, signed_up, profile_completed, quickadd_followed FROM rm_funnel_days"
        return try read { try $0.rows(sql + filter, arguments) }.map { row in
            (Timestamp(date: row[0].string ?? "")?.day ?? 0, row.dropFirst().map(\.int))
        }
    }
}
