import GTIOCatalog

/// A batch as a store committed it: its record, its events with their hashes, its signature.
/// What `gtio copy` reads from one store and appends to another, so that the copy holds the
/// same numbers, times and chain, and verifies with the same key.
public struct CommittedBatch: Sendable, Equatable {
    public var record: BatchRecord
    /// Its events in seq order, with their lists and properties.
    public var events: [StoredEvent]
    /// Each event's hash-chain link, in the same order.
    public var hashes: [[UInt8]]
    public var signature: BatchSignature?

    public init(record: BatchRecord, events: [StoredEvent] = [], hashes: [[UInt8]] = [], signature: BatchSignature? = nil) {
        self.record = record
        self.events = events
        self.hashes = hashes
        self.signature = signature
    }

    /// Empty batches of the first of `records` (in batch order) that hold `maxEvents` events
    /// together, and at least one.
    public static func taking(maxEvents: Int, from records: [BatchRecord]) -> [CommittedBatch] {
        var taken: [CommittedBatch] = []
        var events: Int64 = 0
        for record in records {
            if !taken.isEmpty && events + record.appended > Int64(maxEvents) { break }
            taken.append(CommittedBatch(record: record))
            events += record.appended
        }
        return taken
    }

    /// Gives each of `batches` (records only, in order) its events, hashes and signature from
    /// those read for their range of seqs and batches.
    public static func fill(
        _ batches: inout [CommittedBatch], events: [StoredEvent], hashes: [[UInt8]], signatures: [Int64: BatchSignature]
    ) {
        var next = 0
        for index in batches.indices {
            batches[index].signature = signatures[batches[index].record.batch]
            while next < events.count, events[next].batch == batches[index].record.batch {
                batches[index].events.append(events[next])
                batches[index].hashes.append(hashes[next])
                next += 1
            }
        }
    }

    /// Checks that the batch continues a log whose last batch is `lastBatch`, last seq `lastSeq`
    /// and head `head`, and that each of its hashes is the link its event makes there;
    /// the new head. `store` names the log in the error.
    public func checkContinues(
        lastBatch: Int64, lastSeq: Int64, head: [UInt8], store: String, chain: inout EventHashChain
    ) throws(StoreError) -> [UInt8] {
        func refuse(_ reason: String) -> StoreError { .notAContinuation(path: store, reason: reason) }
        guard record.batch == lastBatch + 1 else {
            throw refuse("batch \(record.batch) does not follow its last batch, \(lastBatch)")
        }
        guard events.count == record.appended, hashes.count == events.count else {
            throw refuse("batch \(record.batch) says it appended \(record.appended) events and holds \(events.count)")
        }
        var previous = head
        for (index, stored) in events.enumerated() {
            let seq = lastSeq + 1 + Int64(index)
            guard stored.seq == seq, stored.batch == record.batch, stored.recorded.milliseconds == record.recorded else {
                throw refuse("event \(stored.seq) of batch \(record.batch) is not at seq \(seq) with its batch's number and time")
            }
            let link = chain.digest(of: stored.event).withUnsafeBytes {
                EventHashChain.link(after: previous, seq: seq, recorded: record.recorded, batch: record.batch, digest: $0)
            }
            guard link == hashes[index] else {
                throw refuse("the hash chain breaks at seq \(seq): the event's hash is not the link it makes (it was changed)")
            }
            previous = link
        }
        if let signature, signature.batch != record.batch || signature.lastSeq != lastSeq + Int64(events.count) {
            throw refuse("the signature of batch \(record.batch) is not for its head")
        }
        return previous
    }
}
