import GTIOCatalog
import GTIOProjections

/// The moderation desk in numbers: the queue now, and the decisions taken and how long the
/// items had waited for them (from the first open flag to the decision).
public struct ModerationFigures: Sendable {
    public var queue: Int
    public var hidden: Int
    public var decisions: Int
    public var removed: Int
    public var dismissed: Int
    /// Hours from first open flag to decision: median and 90th percentile (nil without decisions).
    public var medianHours: Double?
    public var p90Hours: Double?
    /// Decisions per moderator, by moderator id.
    public var byModerator: [(moderator: String, decisions: Int)]
}

extension ModerationFigures {
    /// The desk from figures counted elsewhere (the stored tables); waits in milliseconds.
    public init(queue: Int, hidden: Int, decisions: Int, removed: Int, dismissed: Int, medianWait: Int64?, p90Wait: Int64?,
                byModerator: [(moderator: String, decisions: Int)]) {
        self.init(queue: queue, hidden: hidden, decisions: decisions, removed: removed, dismissed: dismissed,
                  medianHours: medianWait.map { Double($0) / 3_600_000 }, p90Hours: p90Wait.map { Double($0) / 3_600_000 },
                  byModerator: byModerator)
    }

    /// The desk from the queue at "now" and the decisions taken on `days` (nil: all of `decisions`).
    public init(queue: [FlaggedItem], decisions all: [CommunityState.Decision], decidedOn days: ClosedRange<Int64>? = nil) {
        self.init(queue: queue.count, hidden: queue.count(where: \.hidden), decisions: all, decidedOn: days)
    }

    /// The desk from the queue's size and hidden items, and the decisions taken on `days`.
    public init(queue: Int, hidden: Int, decisions all: [CommunityState.Decision], decidedOn days: ClosedRange<Int64>? = nil) {
        let decisions = all.filter { days?.contains(Timestamp(milliseconds: $0.at).day) ?? true }
        let waits = decisions.map { Double(max(0, $0.at - $0.firstFlagged)) / 3_600_000 }.sorted()
        // The wait at the rounded position p × (n − 1) of the sorted waits.
        func percentile(_ p: Double) -> Double? {
            waits.isEmpty ? nil : waits[min(waits.count - 1, Int((Double(waits.count - 1) * p).rounded()))]
        }
        let byModerator = Dictionary(grouping: decisions, by: \.moderator).mapValues(\.count)
            .sorted { $0.key < $1.key }.map { (moderator: $0.key, decisions: $0.value) }
        self.init(
            queue: queue, hidden: hidden, decisions: decisions.count,
            removed: decisions.count { $0.action == "remove" }, dismissed: decisions.count { $0.action == "dismiss" },
            medianHours: percentile(0.5), p90Hours: percentile(0.9), byModerator: byModerator)
    }
}

extension ReadModels {
    /// The queue at "now" and the decisions taken on `days` (nil: all decisions); pass `queue`
    /// when it is already at hand.
    public func moderationFigures(decidedOn days: ClosedRange<Int64>? = nil, queue: [FlaggedItem]? = nil) -> ModerationFigures {
        ModerationFigures(queue: queue ?? moderationQueue(), decisions: state.decisions, decidedOn: days)
    }
}

extension StoredReadModels {
    /// The desk of `queue` (the queue at "now") and the decisions taken on `days` (nil: all).
    public func moderationFigures(decidedOn days: ClosedRange<Int64>? = nil, queue: [FlaggedItem]) throws -> ModerationFigures {
        let decided = try decisionFigures(decidedOn: days)
        return ModerationFigures(
            queue: queue.count, hidden: queue.count(where: \.hidden), decisions: decided.count, removed: decided.removed,
            dismissed: decided.dismissed, medianWait: decided.medianWait, p90Wait: decided.p90Wait,
            byModerator: decided.byModerator.map { (moderator: $0.0, decisions: $0.1) })
    }
}
