/// The events, actions and newly active users and devices counted for the day being applied,
/// before they go into the per-day tables.
///
/// A fold counts per event, and hashing the day (and the action) each time is dear; events come
/// nearly in day order, so one addition per run of events on a day does it.
struct DayTally: Sendable {
    var day = Int64.min
    var events = 0
    /// Users and devices first active on the day (DAU and devices).
    var users = 0
    var devices = 0
    /// By `Action.index`.
    var actions = [Int](repeating: 0, count: CommunityState.Action.allCases.count)
}
