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
