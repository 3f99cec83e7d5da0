import GTIOCatalog

/// An event as the log holds it: its position, when it was recorded, and its typed columns.
public struct StoredEvent: Sendable, Equatable {
    public var seq: Int64
    public var recorded: Timestamp
    public var batch: Int64
    public var event: ValidatedEvent

    public init(seq: Int64, recorded: Timestamp, batch: Int64, event: ValidatedEvent) {
        self.seq = seq
        self.recorded = recorded
        self.batch = batch
        self.event = event
    }
}
