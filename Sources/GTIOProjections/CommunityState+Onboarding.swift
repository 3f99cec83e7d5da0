import Algorithms
import GTIOStore

/// What the onboarding funnel and quick-add acceptance need (EVENTS.md, Engagement). The funnel
/// depends on each device's earliest open, which a late event can move, so only the raw times
/// are kept here and the funnel is computed when asked.
extension CommunityState {
    mutating func noteOpened(_ event: KeyedEvent) {
        guard event.device != 0 else { return }
        if event.device >= firstOpen.count {
            firstOpen.append(contentsOf: repeatElement(.max, count: max(event.device + 1, firstOpen.count * 2) - firstOpen.count))
        }
        if event.at < firstOpen[event.device] {
            firstOpen[event.device] = event.at
            changes?.devices.insert(deviceKeys[event.device])
        }
    }

    mutating func noteProfileCompleted(_ event: KeyedEvent) {
        guard let user = userKeys.id(event.user) else { return }
        profileCompletions[user, default: []].insertSorted(event.at)
        if let device = signups[user]?.device { changes?.devices.insert(device) }
    }

    mutating func noteQuickAddShown(_ event: KeyedEvent, day: Int64) {
        guard event.user != 0 else { return }
        for suggested in event.quickAddShown.suggested {
            let pair = KeyPair(event.user, suggested)
            guard quickAddShown[pair] == nil else { continue }
            quickAddShown[pair] = day
            quickAddShownByDay[day, default: 0] += 1
        }
    }

    /// A follow with `via: quickadd`, after `applyFollow`: it accepts a suggestion shown before
    /// (in `seq` order) when it leaves the edge following or requested.
    mutating func noteQuickAddFollow(_ event: KeyedEvent) {
        guard let viewer = userKeys.id(event.user), event.subject != 0 else { return }
        quickAddFollows[viewer, default: []].insertSorted(event.at)
        if let device = signups[viewer]?.device { changes?.devices.insert(device) }
        let pair = KeyPair(event.user, event.subject)
        guard let shownDay = quickAddShown[pair], !quickAddAccepted.contains(pair),
              follows.edge(event.user, event.subject) != nil else { return }
        quickAddAccepted.insert(pair)
        quickAddAcceptedByDay[shownDay, default: 0] += 1
        changes?.touch(day: shownDay)
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
