/// What one append did: counts, and the positions it filled.
public struct AppendOutcome: Sendable, Equatable {
    public var read = 0
    public var appended = 0
    /// Events whose `id` was already in the log (or earlier in the same input).
    public var duplicates = 0
    public var rejected = 0
    /// Rejected lines newly put in quarantine (a line already there is not kept twice).
    public var quarantined = 0
    /// Quarantine entries that a now-valid line at the same source and line settled.
    public var settled = 0
    public var firstSeq: Int64?
    public var lastSeq: Int64?
    /// Of one batch: the indexes in its `events` of those not appended, their id being in the
    /// log already, in order. The others took `firstSeq`, `firstSeq + 1`, … in input order:
    /// what a collector tells each sender. Not summed by `add`.
    public var duplicateIndexes: [Int] = []

    public init() {}

    /// Adds another outcome's counts to this one (for a whole ingest of several batches).
    public mutating func add(_ other: AppendOutcome) {
        read += other.read
        appended += other.appended
        duplicates += other.duplicates
        rejected += other.rejected
        quarantined += other.quarantined
        settled += other.settled
        if firstSeq == nil { firstSeq = other.firstSeq }
        if other.lastSeq != nil { lastSeq = other.lastSeq }
    }
}
