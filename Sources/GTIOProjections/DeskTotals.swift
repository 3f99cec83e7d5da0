/// The moderators' desk in numbers: the open queue and every decision, as `rm_desk` and
/// `rm_moderators` keep them, so that `stats` reads a few rows instead of counting the queue and
/// sorting every decision's wait on each call.
struct DeskTotals {
    /// Decisions by their action.
    struct Tally: Equatable {
        var decisions = 0, removed = 0, dismissed = 0

        mutating func count(_ action: String) {
            decisions += 1
            if action == "remove" { removed += 1 }
            if action == "dismiss" { dismissed += 1 }
        }
    }

    /// Items in the open queue, and those of them hidden.
    var queue = 0, hidden = 0
    var decided = Tally()
    /// How long decided items had waited (ms), at the positions `waitPosition` gives.
    var medianWait: Int64?, p90Wait: Int64?
    var byModerator: [String: Tally] = [:]

    /// The key of `rm_desk`'s one row.
    static let scope = "all"

    /// One pass over the queue and the decisions: rows as `flagRow` and `decisionRow` write them.
    init(_ state: CommunityState) {
        for entry in state.items.values where !entry.open.isEmpty {
            queue += 1
            if entry.open.count >= CommunityState.hiddenAt { hidden += 1 }
        }
        var waits: [Int64] = []
        waits.reserveCapacity(state.decisions.count)
        for decision in state.decisions {
            decided.count(decision.action)
            byModerator[decision.moderator, default: Tally()].count(decision.action)
            waits.append(max(0, decision.at - decision.firstFlagged))
        }
        waits.sort()
        medianWait = Self.waitPosition(0.5, of: waits.count).map { waits[$0] }
        p90Wait = Self.waitPosition(0.9, of: waits.count).map { waits[$0] }
    }

    /// Where the `p` quantile of `count` sorted waits lies: the rounded position p × (n − 1);
    /// nil when there are none.
    static func waitPosition(_ p: Double, of count: Int) -> Int? {
        count > 0 ? min(count - 1, Int((Double(count - 1) * p).rounded())) : nil
    }
}
