import GTIOCatalog

/// Why a valid event changed nothing: it stays in the log and is counted here by kind.
public enum Anomaly: String, Error, Sendable, CaseIterable, Comparable {
    case selfFollow = "follows themselves"
    case blocked = "blocked either way"
    case alreadyFollowing = "already following or requested"
    case noSuchEdge = "no such follow or request"
    case noSuchBlock = "no such block"
    case selfBlock = "blocks themselves"
    case postMissing = "post does not exist yet"
    case postGone = "post deleted or removed"
    case reviewMissing = "review does not exist yet"
    case reviewGone = "review removed or its post gone"
    case idReused = "reuses an existing id"
    case notAuthor = "not by the author"
    case repeated = "repeat of an earlier action"
    case notHearted = "unheart without a heart"
    case votingOff = "vote on a post with voting off"
    case secondVote = "second vote by the same user"
    case ownReview = "agrees with their own review"
    case nothingOpen = "resolves an item with no open flags"
    case notInSet = "removes what is not there"

    public static func < (lhs: Anomaly, rhs: Anomaly) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One line of the anomaly count: which type, why, how many.
public struct AnomalyCount: Sendable, Equatable {
    public var type: EventType
    public var anomaly: Anomaly
    public var count: Int

    public init(type: EventType, anomaly: Anomaly, count: Int) {
        self.type = type
        self.anomaly = anomaly
        self.count = count
    }
}

extension AnomalyCount {
    /// Most first, then by type, then by reason.
    static func mostFirst(_ a: AnomalyCount, _ b: AnomalyCount) -> Bool {
        (b.count, a.type.rawValue, a.anomaly) < (a.count, b.type.rawValue, b.anomaly)
    }
}
