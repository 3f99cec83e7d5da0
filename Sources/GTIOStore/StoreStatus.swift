import GTIOCatalog

/// The state of a store at a glance, for `gtio status`.
public struct StoreStatus: Sendable, Equatable {
    public var path: String
    public var events: Int64
    public var lastSeq: Int64
    public var firstAt: Timestamp?
    public var lastAt: Timestamp?
    public var batches: Int64
    /// Open quarantine entries.
    public var quarantined: Int64
    /// The main file plus its write-ahead log, in bytes.
    public var sizeBytes: Int64
    public var checkpoints: [(name: String, seq: Int64)]

    public init(
        path: String, events: Int64, lastSeq: Int64, firstAt: Timestamp?, lastAt: Timestamp?, batches: Int64,
        quarantined: Int64, sizeBytes: Int64, checkpoints: [(name: String, seq: Int64)]
    ) {
        self.path = path
        self.events = events
        self.lastSeq = lastSeq
        self.firstAt = firstAt
        self.lastAt = lastAt
        self.batches = batches
        self.quarantined = quarantined
        self.sizeBytes = sizeBytes
        self.checkpoints = checkpoints
    }

    public static func == (lhs: StoreStatus, rhs: StoreStatus) -> Bool {
        lhs.path == rhs.path && lhs.events == rhs.events && lhs.lastSeq == rhs.lastSeq
            && lhs.firstAt == rhs.firstAt && lhs.lastAt == rhs.lastAt && lhs.batches == rhs.batches
            && lhs.quarantined == rhs.quarantined && lhs.sizeBytes == rhs.sizeBytes
            && lhs.checkpoints.elementsEqual(rhs.checkpoints, by: { $0 == $1 })
    }
}
