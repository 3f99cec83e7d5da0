import GTIOCatalog

/// How far each device got through onboarding (EVENTS.md, Engagement): app opened → signed up
/// → profile completed → quick-add follow, in that order, within 7 days of its first open.
extension ReadModels {
    /// The days after sign-up that retention looks at.
    public static let retentionOffsets: [Int64] = [1, 7, 30]

    /// The funnel's window after a device's first `app.opened`.
    public static let onboardingWindow: Int64 = 7 * Timestamp.millisecondsPerDay

    /// The keys of the devices that opened the app, with their first open: read by key, as
    /// the fold keeps them, rather than through their ids.
    var openedDevices: [(key: Int, opened: Int64)] {
        state.firstOpen.indices.compactMap { key in state.firstOpen[key] == .max ? nil : (key, state.firstOpen[key]) }
    }

    /// One device's first open and step, as the fold keeps them; nil when it never opened the app.
    func deviceStep(_ device: String) -> (opened: Int64, step: Int)? {
        guard let key = state.deviceKeys.key(device), key < state.firstOpen.count, state.firstOpen[key] != .max else { return nil }
        return (state.firstOpen[key], Int(state.onboardingSteps[key]))
    }
}
