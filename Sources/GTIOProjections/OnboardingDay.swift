/// The devices whose first `app.opened` fell on one UTC day, counted at each onboarding step
/// they reached: one row of `rm_funnel_days`, so that the funnel sums a row a day asked rather
/// than one a device.
///
/// The fold keeps it as devices move (`CommunityState.onboardingByDay`): a late open moves a
/// device to another day, a sign-up or a later step moves it up.
public struct OnboardingDay: Sendable, Equatable {
    /// Devices that reached each of the four steps, so each count includes the next: opened,
    /// signed up, completed a profile, followed through quick-add.
    public internal(set) var reached = [0, 0, 0, 0]

    public init() {}

    /// Whether no device is counted on the day.
    public var isEmpty: Bool { reached[0] == 0 }

    /// Counts `devices` more (or fewer, when negative) devices whose furthest step is `step`.
    mutating func add(reaching step: Int, _ devices: Int) {
        for index in 0...step { reached[index] += devices }
    }
}
