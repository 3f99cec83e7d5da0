import GTIOCatalog

/// The narrow surface every event store offers: append a batch, read a range of `seq`,
/// keep checkpoints. The embedded SQLite store is one; a PostgreSQL one can follow behind it.
public protocol EventLog: Sendable {
    /// Appends the batch's new events atomically, skipping ids already in the log, and
    /// quarantines its rejected lines in the same transaction.
    func append(_ batch: EventBatch) throws -> AppendOutcome
    /// The last `seq` in the log, 0 when empty.
    func lastSeq() throws -> Int64
    /// Calls `body` with the events whose `seq` lies in `range`, in `seq` order.
    func readEvents(in range: ClosedRange<Int64>, _ body: (StoredEvent) throws -> Void) throws
    /// The `seq` a consumer has applied up to, 0 when it never ran.
    func checkpoint(named name: String) throws -> Int64
}
