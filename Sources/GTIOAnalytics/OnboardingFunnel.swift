import GTIOCatalog
import GTIOProjections

/// The onboarding funnel of a set of devices (EVENTS.md, Engagement): how many reached each
/// step, in order, within 7 days of the device's first `app.opened`.
public struct OnboardingFunnel: Sendable, Equatable {
    /// The steps, in order; `reached` has one count per step.
    public static let steps = ["app.opened", "user.signed_up", "user.profile_completed", "user.followed via quickadd"]
    /// The steps in words, for charts.
    public static let labels = ["opened the app", "signed up", "completed profile", "quick-add follow"]
    /// The column names the steps have in tables.
    public static let columns = ["opened", "signed_up", "profile_completed", "quickadd_followed"]
    public static let window: Int64 = 7 * Timestamp.millisecondsPerDay

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

    mutating func add(reaching step: Int) {
        for index in 0...step { reached[index] += 1 }
    }
}

extension ReadModels {
    /// The funnel of the devices whose first `app.opened` falls on one of `days` (nil: every device).
    public func onboardingFunnel(firstOpenedOn days: ClosedRange<Int64>? = nil) -> OnboardingFunnel {
        var funnel = OnboardingFunnel()
        for (_, step) in deviceSteps(firstOpenedOn: days) { funnel.add(reaching: step) }
        return funnel
    }

    /// One funnel per day of `days`, for the devices first opened that day (days without any included).
    public func onboardingFunnelByDay(_ days: ClosedRange<Int64>) -> [(day: Int64, funnel: OnboardingFunnel)] {
        var byDay = [Int64: OnboardingFunnel]()
        for (day, step) in deviceSteps(firstOpenedOn: days) { byDay[day, default: OnboardingFunnel()].add(reaching: step) }
        return days.map { ($0, byDay[$0] ?? OnboardingFunnel()) }
    }

    /// Each device's first-open day and the last step (0–3) it reached in order within the window.
    /// Users are joined to a device through the `device` of their first sign-up; when several
    /// users signed up on one device, the device counts the furthest any of them got.
    func deviceSteps(firstOpenedOn days: ClosedRange<Int64>?) -> [(day: Int64, step: Int)] {
        var usersByDevice: [String: [(user: String, at: Int64)]] = [:]
        for (user, signup) in state.signups {
            if let device = signup.device { usersByDevice[device, default: []].append((user, signup.at)) }
        }
        var result: [(day: Int64, step: Int)] = []
        for (device, opened) in state.firstOpened {
            let day = Timestamp(milliseconds: opened).day
            if let days, !days.contains(day) { continue }
            let end = opened + OnboardingFunnel.window
            var step = 0
            for (user, signedUp) in usersByDevice[device] ?? [] where signedUp >= opened && signedUp <= end {
                step = max(step, 1)
                guard let completed = state.profileCompletions[user]?.first(atLeast: signedUp), completed <= end else { continue }
                step = max(step, 2)
                guard let followed = state.quickAddFollows[user]?.first(atLeast: completed), followed <= end else { continue }
                step = 3
            }
            result.append((day, step))
        }
        return result
    }
}
