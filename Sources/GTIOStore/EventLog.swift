import GTIOCatalog

/// The append-only log of a store, whatever holds it: append batches atomically, read ranges
/// of `seq` in order, keep consumers' checkpoints, quarantine rejected lines, verify the chain.
public protocol EventLog: AnyObject, Sendable {
    /// Where the store is, for messages: a file's path, or a server's URL without its password.
    var location: String { get }
    /// Whether this process opened the store only to read it: every write is refused.
    var isReadOnly: Bool { get }
    /// Whether reading the log back goes through a database server, each row sent and decoded,
    /// rather than a file in this process: a writer then keeps the events it appended for its
    /// read models' catch-up (`AppendedRecords`) instead of reading them back.
    var readsThroughAServer: Bool { get }

    /// Appends the batch's new events atomically, skipping ids already in the log, and
    /// quarantines its rejected lines in the same transaction.
    func append(_ batch: EventBatch) throws -> AppendOutcome
    /// The last `seq` in the log, 0 when empty.
    func lastSeq() throws -> Int64

    /// Calls `body` with the typed columns of each event in `scope`, in `seq` order.
    func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws
    /// Calls `body` with each event of `scope` as the backend holds it, in `seq` order, for
    /// readers that key ids from their bytes (`KeyedScan`) rather than making strings first.
    func scanRows(_ scope: LogScope, _ body: (EventRow) throws -> Void) throws
    /// The seqs between which lie the events of `scope` (by its seqs and times; not by type),
    /// nil when it has none: a reader may split a scan of them into parts by seq. The span may
    /// be wider than the events, never narrower.
    func seqSpan(_ scope: LogScope) throws -> ClosedRange<Int64>?
    /// Whole stored events (envelope, original line) with `seq` in `range`, in order.
    func readEvents(in range: ClosedRange<Int64>, _ body: (StoredEvent) throws -> Void) throws
    /// The events that match `filter`, oldest first (newest first when it asks).
    func events(matching filter: EventFilter) throws -> [StoredEvent]
    /// The event at `seq`, nil past the end of the log.
    func event(at seq: Int64) throws -> StoredEvent?

    /// Counts, extent and files of the store.
    /// The earliest and latest `at` of the events in view (seq up to `throughSeq`, `at` up to
    /// `atMost`), nil when none: an insight's "now" and the log's extent, without a scan.
    func timeExtent(throughSeq: Int64?, atMost: Int64?) throws -> ClosedRange<Int64>?

    func status() throws -> StoreStatus
    /// Recomputes the hash chain over the whole log and holds it to `audit`'s key and anchors;
    /// `progress` hears the seq reached.
    func verify(_ audit: LogAudit, progress: (Int64) -> Void) throws -> LogVerdict
    /// The append-only guards that are not as this build makes them: gone, changed, disabled,
    /// or triggers on the log's tables that gtio did not make. Empty when all stand; nil when a
    /// newer gtio migrated the store, whose guards are as that one makes them.
    func guardFindings() throws -> [LogGuardFinding]?
    /// Makes the append-only guards as this build makes them again (and drops triggers on the
    /// log's tables that gtio did not make), in one transaction; returns what it found to mend.
    /// Only a writer may: on PostgreSQL, the tables' owner.
    func restoreGuards() throws -> [LogGuardFinding]
    /// The newest batch signature, nil when no batch was appended with a signing key.
    func lastSignature() throws -> BatchSignature?

    /// Quarantine entries, oldest first; only open ones unless `includeSettled`.
    func quarantineEntries(includeSettled: Bool, limit: Int?) throws -> [QuarantineEntry]
    /// One quarantine entry by number, nil when there is none.
    func quarantineEntry(_ entry: Int64) throws -> QuarantineEntry?
    /// Re-validates open entries, each against `replacement(entry)` when it gives a line or its
    /// original otherwise; appends what now passes in one transaction and settles its entries.
    func retryQuarantine(
        entries: [Int64]?, replacement: (QuarantineEntry) -> [UInt8]?,
        validate: ([UInt8]) -> Result<ValidatedEvent, Rejection>
    ) throws -> QuarantineRetryOutcome

    /// The committed batches numbered after `batch`, in order and whole: as many as hold
    /// `maxEvents` events together, and at least one.
    func committedBatches(after batch: Int64, maxEvents: Int) throws -> [CommittedBatch]
    /// The number of the last committed batch, 0 when none.
    func lastBatch() throws -> Int64
    /// Appends batches committed by another store exactly as they were (numbers, seqs, times,
    /// hashes, signatures) in one transaction, after checking that each continues this log
    /// (`CommittedBatch.checkContinues`): a copy, not new events.
    func appendCommitted(_ batches: [CommittedBatch]) throws
    /// Adds quarantine entries of another store that this one lacks, by number, and settles
    /// those still open here that the other settled (a settled entry stays as it is); the
    /// entries added or changed.
    func copyQuarantine(_ entries: [QuarantineEntry]) throws -> Int

    /// Several consumers' checkpoints in one read; names never checkpointed are left out.
    func checkpoints(named names: [String]) throws -> [String: Int64]

    /// Runs `body` in one write transaction over the log, which sees the tables as they stand:
    /// all it appended commits, or none of it. Other appends wait for it; table writers do not.
    func write<T>(_ body: (any LogWriting) throws -> T) throws -> T

    /// Throws when this process may not append and move the read models' checkpoints (a file
    /// opened read-only, a server role without the rights): a long-lived writer (the collector)
    /// refuses to start rather than fail every request.
    func checkMayWrite() throws

    /// Takes the lead of `role` among every process using this store once no other process holds
    /// it, asking again every few milliseconds for up to `seconds` (0: once); nil when another
    /// still holds it then. One projector at a time, whatever the hosts.
    func lead(_ role: String, waitingUpTo seconds: Double) throws -> (any StoreLease)?
    /// Whether some process holds the lead of `role` now.
    func isLed(_ role: String) throws -> Bool
    /// Starts hearing of events committed by any process.
    func watchAppends() throws -> any AppendWatch

    /// Gives back space a large write left behind (SQLite truncates its write-ahead log), so
    /// that the next process does not pay for it on opening. Harmless to skip.
    func settle()
    /// Moves the upkeep appends leave behind off the appending thread until the upkeep is
    /// stopped, for a process that appends without pause (the collector), whose every commit
    /// a request waits for; nil when the backend has none to move. Tell it of each commit.
    func startUpkeepAside() throws -> (any LogUpkeep)?
}

extension EventLog {
    /// Takes the lead of `role` when no other process holds it, nil when one does.
    public func lead(_ role: String) throws -> (any StoreLease)? { try lead(role, waitingUpTo: 0) }

    public func verify(_ audit: LogAudit = LogAudit()) throws -> LogVerdict { try verify(audit, progress: { _ in }) }

    public func quarantineEntries(includeSettled: Bool = false, limit: Int? = nil) throws -> [QuarantineEntry] {
        try quarantineEntries(includeSettled: includeSettled, limit: limit)
    }

    public func retryQuarantine(
        entries: [Int64]? = nil, replacement: (QuarantineEntry) -> [UInt8]? = { _ in nil },
        validate: ([UInt8]) -> Result<ValidatedEvent, Rejection>
    ) throws -> QuarantineRetryOutcome {
        try retryQuarantine(entries: entries, replacement: replacement, validate: validate)
    }

    /// One consumer's checkpoint, 0 when it never ran.
    public func checkpoint(named name: String) throws -> Int64 {
        try checkpoints(named: [name])[name] ?? 0
    }
}

/// One write transaction over a store's log, reading its tables as they stand.
///
/// It writes the log only: the read models' tables are written by `TableStore.writeTables`,
/// whose writers take turns apart from the log's, so that an append never waits for a
/// catch-up. A check made here against the tables holds for the append that follows it: the
/// log cannot move under this transaction, and tables standing at its end cannot move either.
public protocol LogWriting: TableReading {
    /// Several consumers' checkpoints as this transaction sees them.
    func checkpoints(named names: [String]) throws -> [String: Int64]
    /// Appends the batch inside this transaction (see `EventLog.append`).
    func append(_ batch: EventBatch) throws -> AppendOutcome
    /// Appends the batches in order inside this transaction, each as its own batch, as that many
    /// calls of `append(_:)` would; a backend across a network does it in fewer round trips.
    func append(_ batches: [EventBatch]) throws -> [AppendOutcome]
    /// Calls `body` with each event of `scope` as this transaction sees the log, in `seq` order.
    func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws
}

extension LogWriting {
    public func append(_ batches: [EventBatch]) throws -> [AppendOutcome] {
        try batches.map { try append($0) }
    }
}

/// Read-only SQL for analysts: one statement, in a read-only transaction.
public protocol SQLReading: Sendable {
    /// Runs one statement that only reads; one that would change anything is refused before it
    /// runs (`.writeRefused`), and the backend's complaint about a statement is `.badSQL`.
    /// Past `limits.seconds` it stops with `.sqlTimedOut`, on Ctrl-C with `.interrupted`.
    func readOnlySQL(_ text: String, limits: SQLLimits) throws -> SQLAnswer
}

extension SQLReading {
    public func readOnlySQL(_ text: String) throws -> SQLAnswer { try readOnlySQL(text, limits: .standard) }
}

/// A whole store: its log, its tables (the read models) and read-only SQL over both.
public typealias EventStore = EventLog & TableStore & SQLReading
