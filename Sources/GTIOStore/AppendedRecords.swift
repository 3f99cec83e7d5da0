import GTIOCatalog

/// The records of the events a writer has just appended, kept in memory so that the read
/// models' catch-up that follows applies them as they are instead of reading them back.
///
/// On PostgreSQL, reading 200,000 events back costs the server and the event loop about as much
/// as folding them; the writer holds them already. Only the latest run of consecutive seqs is
/// kept (another writer's events in between end it), and at most `capacity` events of it, the
/// newest, so that a long ingest does not hold its whole input.
public struct AppendedRecords: Sendable {
    /// The most events kept: ~150 bytes each.
    public let capacity: Int
    /// Consecutive runs of seqs, one per append, in seq order; each follows the one before.
    private var runs: [[LogRecord]] = []
    public private(set) var count = 0

    public init(capacity: Int = 262_144) {
        self.capacity = capacity
    }

    /// The first seq kept, nil for none.
    public var firstSeq: Int64? { runs.first?.first?.seq }
    /// The last seq kept, nil for none.
    public var lastSeq: Int64? { runs.last?.last?.seq }

    /// Keeps the events of `batch` that `outcome` says were appended, at the seqs they took.
    public mutating func add(_ batch: EventBatch, _ outcome: AppendOutcome) {
        guard capacity > 0, outcome.appended > 0, let first = outcome.firstSeq else { return }
        if let last = lastSeq, first != last + 1 { removeAll() }
        var records: [LogRecord] = []
        records.reserveCapacity(outcome.appended)
        var duplicates = outcome.duplicateIndexes.makeIterator()
        var nextDuplicate = duplicates.next()
        var seq = first
        for index in batch.events.indices {
            if index == nextDuplicate {
                nextDuplicate = duplicates.next()
                continue
            }
            records.append(LogRecord(seq: seq, batch.events[index].event))
            seq += 1
        }
        // An outcome that does not add up to its batch is not trusted: the catch-up reads the log.
        guard records.count == outcome.appended, seq - 1 == outcome.lastSeq ?? seq - 1 else { return removeAll() }
        runs.append(records)
        count += records.count
        while count > capacity, !runs.isEmpty { count -= runs.removeFirst().count }
    }

    public mutating func removeAll() {
        runs.removeAll()
        count = 0
    }

    /// The kept records from seq `first` on, up to `last` and within one append: nil unless
    /// `first` is kept.
    public func records(from first: Int64, through last: Int64) -> ArraySlice<LogRecord>? {
        guard first <= last else { return nil }
        for run in runs {
            guard let start = run.first?.seq, let end = run.last?.seq, start <= first, first <= end else { continue }
            let from = Int(first - start)
            return run[from...Int(min(last, end) - start)]
        }
        return nil
    }

    /// Where a read of the log from `first` through `last` should stop so that the kept records
    /// take over: the seq before the first kept one when it lies inside the range, else `last`.
    public func readThrough(from first: Int64, through last: Int64) -> Int64 {
        guard let kept = firstSeq, kept > first, kept <= last else { return last }
        return kept - 1
    }
}
