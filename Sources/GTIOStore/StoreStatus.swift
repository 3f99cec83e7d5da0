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

    public static func == (lhs: StoreStatus, rhs: StoreStatus) -> Bool {
        lhs.path == rhs.path && lhs.events == rhs.events && lhs.lastSeq == rhs.lastSeq
            && lhs.firstAt == rhs.firstAt && lhs.lastAt == rhs.lastAt && lhs.batches == rhs.batches
            && lhs.quarantined == rhs.quarantined && lhs.sizeBytes == rhs.sizeBytes
            && lhs.checkpoints.elementsEqual(rhs.checkpoints, by: { $0 == $1 })
    }
}
