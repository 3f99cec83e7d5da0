import GTIOCatalog

/// Which events `gtio events` shows: all criteria must hold.
public struct EventFilter: Sendable, Equatable {
    public var types: [EventType] = []
    public var user: String?
    /// A post: events whose subject is the post, and reviews added to it.
    public var post: String?
    public var since: Timestamp?
    public var until: Timestamp?
    public var afterSeq: Int64?
    public var throughSeq: Int64?
    /// At most this many, 0 or nil for all.
    public var limit: Int?
    /// The last `limit` matching events (still printed oldest first), like `tail`.
    public var newestFirst = false

    public init() {}
}
