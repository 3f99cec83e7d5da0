import Algorithms
import GTIOCatalog
import GTIOStore

/// What the onboarding funnel, retention and quick-add acceptance need (EVENTS.md, Engagement).
/// A device's step depends on its earliest open, which a late event can move, so the raw times
/// are kept; each device's step is kept too, and its place in the funnel's daily sums moved
/// whenever one of those times changes.
extension CommunityState {
    mutating func noteOpened(_ event: KeyedEvent) {
        let key = event.device
        guard key != 0 else { return }
        if key >= firstOpen.count {
            let count = max(key + 1, firstOpen.count * 2)
            firstOpen.pad(to: count, with: .max)
            onboardingSteps.pad(to: count, with: 0)
        }
        if event.at < firstOpen[key] {
            let before = funnelPlace(ofDevice: key)
            firstOpen[key] = event.at
            changes?.devices.insert(deviceKeys[key])
            moveInFunnel(key, from: before)
        }
    }

    mutating func noteProfileCompleted(_ event: KeyedEvent) {
        guard event.user != 0 else { return }
        profileCompletions.insert(event.at, forUser: event.user)
        noteStep(ofSignUpDeviceOf: event.user, at: event.at)
    }

    /// A step at `at` of the user with key `user`: the device of their first sign-up, if any,
    /// may move in the funnel.
    private mutating func noteStep(ofSignUpDeviceOf user: Int, at: Int64) {
        let device = Int(firstSignUps[user].device)
        guard device != 0 else { return }
        changes?.devices.insert(deviceKeys[device])
        noteStep(ofDevice: device, at: at)
    }

    /// A step at `at` of a user joined to the device with key `key`: moves the device in the
    /// funnel when it falls inside the window of the device's first open, which it must have. A
    /// step outside it (most quick-add follows come weeks later) leaves the device where it is.
    mutating func noteStep(ofDevice key: Int, at: Int64) {
        guard key != 0, key < firstOpen.count, firstOpen[key] != .max,
              at >= firstOpen[key], at <= firstOpen[key] + ReadModels.onboardingWindow
        else { return }
        moveInFunnel(key, from: funnelPlace(ofDevice: key))
    }

    /// Users join a device through the `device` of their first sign-up; when several signed up
    /// on one device (key `device`), it counts the furthest any of them got (0: opened the app
    /// only).
    func onboardingStep(ofDevice device: Int, openedAt opened: Int64) -> Int {
        let end = opened + ReadModels.onboardingWindow
        var step = 0
        var user = device < lastSignUpOnDevice.count ? Int(lastSignUpOnDevice[device]) : 0
        while user != 0, step < 3 {
            step = max(step, onboardingStep(ofUser: user, from: opened, to: end))
            user = Int(firstSignUps[user].previousOnDevice)
        }
        return step
    }

    /// How far the user with key `user` got between `opened` and `end`: signed up, then completed
    /// their profile, then followed someone through quick-add, each no earlier than the last.
    private func onboardingStep(ofUser user: Int, from opened: Int64, to end: Int64) -> Int {
        let signedUp = firstSignUps[user].at
        guard signedUp >= opened, signedUp <= end else { return 0 }
        guard let completed = profileCompletions[user].first(atLeast: signedUp), completed <= end else { return 1 }
        guard let followed = quickAddFollows[user].first(atLeast: completed), followed <= end else { return 2 }
        return 3
    }

    /// The first sign-up of the user with key `key`; nil when they never signed up.
    public func signup(ofUser key: Int) -> Signup? {
        guard key > 0, key < firstSignUps.count, !firstSignUps[key].isNone else { return nil }
        let signUp = firstSignUps[key]
        return Signup(at: signUp.at, provider: signUp.providerName, device: deviceKeys.id(Int(signUp.device)))
    }

    /// The first sign-up of `user`; nil when they never signed up.
    public func signup(of user: String) -> Signup? {
        userKeys.key(user).flatMap { signup(ofUser: $0) }
    }

    /// The keys of the users who signed up, ascending.
    var signedUpUsers: [Int] { firstSignUps.indices.filter { !firstSignUps[$0].isNone } }

    /// The day of the first open of the device with key `key` and the step kept for it; nil when
    /// it never opened the app.
    func funnelPlace(ofDevice key: Int) -> (day: Int64, step: Int)? {
        guard key < firstOpen.count, firstOpen[key] != .max else { return nil }
        return (Timestamp(milliseconds: firstOpen[key]).day, Int(onboardingSteps[key]))
    }

    /// Works out the step of the device with key `key` again and moves it in `onboardingByDay`
    /// from where it stood (`before`) to where it stands now.
    mutating func moveInFunnel(_ key: Int, from before: (day: Int64, step: Int)?) {
        guard key < firstOpen.count, firstOpen[key] != .max else { return }
        let opened = firstOpen[key]
        let step = onboardingStep(ofDevice: key, openedAt: opened)
        onboardingSteps[key] = Int8(step)
        let after = (day: Timestamp(milliseconds: opened).day, step: step)
        guard before?.day != after.day || before?.step != after.step else { return }
        if let before { countInFunnel(day: before.day, step: before.step, -1) }
        countInFunnel(day: after.day, step: after.step, 1)
    }

    private mutating func countInFunnel(day: Int64, step: Int, _ devices: Int) {
        // In place: a copy of the day's counts would copy their array at every move.
        onboardingByDay[day, default: OnboardingDay()].add(reaching: step, devices)
        if onboardingByDay[day]?.isEmpty == true { onboardingByDay[day] = nil }
        changes?.onboardingDays.insert(day)
    }

    /// A user's first sign-up, on `day`: a member of that day's cohort, retained on the offset
    /// days they were already active on (their events can come before their sign-up's).
    mutating func noteCohortMember(_ user: Int, signedUpOn day: Int64) {
        cohortsByDay[day, default: CohortDay()].users += 1
        for (index, offset) in ReadModels.retentionOffsets.enumerated() where userActivity.contains(user, on: day + offset) {
            cohortsByDay[day]!.retained[index] += 1
        }
        changes?.cohortDays.insert(day)
    }

    /// A new active `day` of the user with key `user`: retained in their cohort when it is one of
    /// the offset days after their sign-up (the user's cohort row moves with it).
    mutating func noteActiveDay(_ user: Int, _ day: Int64) {
        let signUp = firstSignUps[user]
        guard !signUp.isNone else { return }
        let signedUp = signUp.day
        guard let index = ReadModels.retentionOffsets.firstIndex(of: day - signedUp) else { return }
        cohortsByDay[signedUp, default: CohortDay()].retained[index] += 1
        changes?.cohorts.insert(userKeys[user])
        changes?.cohortDays.insert(signedUp)
    }

    mutating func noteQuickAddShown(_ event: KeyedEvent, day: Int64) {
        guard event.user != 0 else { return }
        for suggested in event.quickAddShown.suggested {
            let pair = KeyPair(event.user, suggested)
            guard quickAddPairs[pair] == nil else { continue }
            quickAddPairs.set(QuickAddShowing(day: day, accepted: false), for: pair)
            quickAddShownByDay[day, default: 0] += 1
        }
    }

    /// A follow with `via: quickadd`, after `applyFollow`: it accepts a suggestion shown before
    /// (in `seq` order) when it leaves the edge following or requested.
    mutating func noteQuickAddFollow(_ event: KeyedEvent) {
        guard event.user != 0, event.subject != 0 else { return }
        quickAddFollows.insert(event.at, forUser: event.user)
        noteStep(ofSignUpDeviceOf: event.user, at: event.at)
        let pair = KeyPair(event.user, event.subject)
        guard let shown = quickAddPairs[pair], !shown.accepted, follows.edge(event.user, event.subject) != nil else { return }
        quickAddPairs.set(QuickAddShowing(day: shown.day, accepted: true), for: pair)
        quickAddAcceptedByDay[shown.day, default: 0] += 1
        changes?.touch(day: shown.day)
    }
}

extension Array where Element == Int64 {
    /// Appends `value`, or inserts it in order when it is earlier than the last (a late event),
    /// after any equal ones.
    mutating func insertSorted(_ value: Int64) {
        if let last, last > value {
            insert(value, at: partitioningIndex { $0 > value })
        } else {
            append(value)
        }
    }

    /// The first element ≥ `value` in an ascending array.
    public func first(atLeast value: Int64) -> Int64? {
        let index = partitioningIndex { $0 >= value }
        return index < count ? self[index] : nil
    }
}

/// A quick-add pair's first showing: the day it was shown, and whether a follow with `via:
/// quickadd` accepted it since.
struct QuickAddShowing: Sendable, Equatable {
    var day: Int64
    var accepted: Bool
}
