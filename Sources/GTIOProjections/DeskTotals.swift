/// The moderators' desk in numbers: the open queue and every decision, as `rm_desk` and
/// `rm_moderators` keep them, so that `stats` reads a few rows instead of counting the queue and
/// sorting every decision's wait on each call.
///
/// The fold keeps it as it goes (`CommunityState.desk`): a writer's catch-up then costs what its
/// flags and decisions touch, not a walk over every item ever flagged.
struct DeskTotals: Sendable, Equatable {
    /// Decisions by their action.
    struct Tally: Sendable, Equatable {
        var decisions = 0, removed = 0, dismissed = 0

        mutating func count(_ action: String) {
            decisions += 1
            if action == "remove" { removed += 1 }
            if action == "dismiss" { dismissed += 1 }
        }
    }

    /// Items in the open queue, and those of them hidden.
    private(set) var queue = 0, hidden = 0
    private(set) var decided = Tally()
    private(set) var byModerator: IDMap<Tally> = [:]
    /// How long each decided item had waited (ms), ascending.
    private var waits: [Int64] = []

    /// The key of `rm_desk`'s one row.
    static let scope = "all"

    init() {}

    /// The totals of `items` and `decisions` counted afresh (a state read back from its bytes).
    init(items: some Sequence<CommunityState.FlagItem>, decisions: [CommunityState.Decision]) {
        for entry in items { itemChanged(wasOpen: 0, isOpen: entry.open.count) }
        waits.reserveCapacity(decisions.count)
        for decision in decisions {
            tally(decision)
            waits.append(Self.wait(of: decision))
        }
        waits.sort()
    }

    /// An item's open flaggers went from `wasOpen` to `isOpen`.
    mutating func itemChanged(wasOpen: Int, isOpen: Int) {
        queue += (isOpen > 0 ? 1 : 0) - (wasOpen > 0 ? 1 : 0)
        hidden += (isOpen >= CommunityState.hiddenAt ? 1 : 0) - (wasOpen >= CommunityState.hiddenAt ? 1 : 0)
    }

    /// A decision was taken.
    mutating func add(_ decision: CommunityState.Decision) {
        tally(decision)
        waits.insertSorted(Self.wait(of: decision))
    }

    private mutating func tally(_ decision: CommunityState.Decision) {
        decided.count(decision.action)
        byModerator[decision.moderator, default: Tally()].count(decision.action)
    }

    /// The median and 90th-percentile waits, at the positions `waitPosition` gives.
    var medianWait: Int64? { Self.waitPosition(0.5, of: waits.count).map { waits[$0] } }
    var p90Wait: Int64? { Self.waitPosition(0.9, of: waits.count).map { waits[$0] } }

    private static func wait(of decision: CommunityState.Decision) -> Int64 {
        max(0, decision.at - decision.firstFlagged)
    }

    /// Where the `p` quantile of `count` sorted waits lies: the rounded position p × (n − 1);
    /// nil when there are none.
    static func waitPosition(_ p: Double, of count: Int) -> Int? {
        count > 0 ? min(count - 1, Int((Double(count - 1) * p).rounded())) : nil
    }
}
