import Foundation
import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    public func append(_ batch: EventBatch) throws -> AppendOutcome {
        try writeDatabase { db in try Self.append(batch, in: db, signer: signer, recentIDs: recentIDs) }
    }

    /// Appends inside an open write transaction; `SQLiteStore.append` wraps it in one. Callers
    /// that check something before appending (a moderator's decision) do both in one transaction.
    /// With a `signer`, the batch's head and record are signed in the same transaction.
    /// `recentIDs` are the store's: the ids `event_ids` does not hold yet.
    static func append(_ batch: EventBatch, in db: Database, signer: BatchSigner?, recentIDs: RecentIDs) throws -> AppendOutcome {
        var outcome = AppendOutcome()
        outcome.read = batch.read
        outcome.rejected = batch.rejected.count
        let recorded = now()
        let end = try logEnd(in: db)
        let lastSeq = end.seq, batchNumber = end.batch + 1
        var previousHash = end.head

        try recentIDs.prepare(in: db, end: end.seq, head: end.head)
        // A batch this large shares `event_ids`' pages by itself: its ids go in with it, after
        // the ids still waiting, so that the mark moves past all of them.
        let direct = recentIDs.insertsDirectly(batch.events.count)
        if direct { try recentIDs.moveWaiting(in: db) }
        let isNew = try newIDs(of: batch, recent: recentIDs, inserting: direct, in: db)

        var inserter = try EventInserter(db)
        var chain = EventHashChain()
        var seq = lastSeq
        var seqOfLine: [Int: Int64?] = [:]
        let openLines = try openQuarantineLines(of: batch, in: db)
        for (index, (line, event)) in batch.events.enumerated() {
            guard isNew[index] else {
                outcome.duplicates += 1
                outcome.duplicateIndexes.append(index)
                if openLines.contains(line) { seqOfLine[line] = .some(nil) }
                continue
            }
            seq += 1
            previousHash = batch.link(index, after: previousHash, seq: seq, recorded: recorded, batch: batchNumber, chain: &chain)
            try inserter.insert(event, seq: seq, recorded: recorded, batch: batchNumber, hash: previousHash, in: db)
            if direct {
                recentIDs.addIndexed(event.id, seq: seq, hash: previousHash)
            } else {
                recentIDs.add(event.id, seq: seq, hash: previousHash)
            }

            if openLines.contains(line) { seqOfLine[line] = .some(seq) }
        }
        try inserter.recordDays(in: db)
        // Twice the ids this batch added, so that a run moves in before the next is due.
        try recentIDs.move(budget: 2 * Int(seq - lastSeq) + 64, in: db)
        if seq > lastSeq {
            outcome.appended = Int(seq - lastSeq)
            outcome.firstSeq = lastSeq + 1
            outcome.lastSeq = seq
        }

        outcome.quarantined = try quarantine(batch.rejected, from: batch.source, recorded: recorded, in: db)
        outcome.settled = try settleQuarantine(seqOfLine, source: batch.source, recorded: recorded, in: db)

        let record = BatchRecord(batchNumber, of: batch, outcome: outcome, recorded: recorded)
        try insert(record, in: db)
        if let signer {
            try insert(signer.sign(record: record, lastSeq: seq, head: previousHash), in: db)
        }
        return outcome
    }

    /// Where the log ends, inside the caller's transaction: its last seq, that event's hash (the
    /// chain's head) and the last batch's number.
    ///
    /// Cached statements: a collector appends a batch per request, and compiling each
    /// statement anew (with GRDB's authorizer) cost 8 % of its CPU (docs/PERFORMANCE.md).
    static func logEnd(in db: Database) throws -> (seq: Int64, head: [UInt8], batch: Int64) {
        let seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT IFNULL(MAX(seq), 0) FROM events")) ?? 0
        let batch = try Int64.fetchOne(db.cachedStatement(sql: "SELECT IFNULL(MAX(batch), 0) FROM batches")) ?? 0
        let head = seq == 0 ? nil
            : try Data.fetchOne(db.cachedStatement(sql: "SELECT hash FROM events WHERE seq = ?"), arguments: [seq]).map(Array.init)
        return (seq, head ?? EventHashChain.genesis, batch)
    }

    /// Says, per event in input order, whether its id is new to the log: not among the recent
    /// ids (`RecentIDs`), not in `event_ids`, and not an earlier line's of the batch (among equal
    /// ids the earliest line wins). With `inserting`, the new ids are inserted into `event_ids`
    /// as they are found. The look-ups go in sorted order, through `event_ids`' pages in turn; an
    /// id the writer's filter has not seen (`IDFilter`) is new without one.
    private static func newIDs(of batch: EventBatch, recent: RecentIDs, inserting: Bool, in db: Database) throws -> [Bool] {
        let events = batch.events
        var keys = events.indices.map { (prefix: RecentIDs.prefix(events[$0].event.id), index: $0) }
        keys.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            let idA = events[a.index].event.id.utf8, idB = events[b.index].event.id.utf8
            if idA.elementsEqual(idB) { return a.index < b.index }
            return idA.lexicographicallyPrecedes(idB)
        }
        let indexed = SQLiteStatementBinding(try db.cachedStatement(sql: "SELECT 1 FROM event_ids WHERE id = ?"))
        let insert = try RecentIDs.insertID(in: db)
        var isNew = [Bool](repeating: false, count: events.count)
        var previous: String.UTF8View?
        for key in keys {
            let id = events[key.index].event.id
            defer { previous = id.utf8 }
            if let previous, previous.elementsEqual(id.utf8) { continue }
            if !inserting && !recent.mayHold(id) {
                isNew[key.index] = true
                continue
            }
            if try recent.contains(id, in: db) { continue }
            if inserting {
                insert.bind(1, id)
                isNew[key.index] = try insert.step(db) == 1
            } else {
                indexed.bind(1, id)
                isNew[key.index] = try !indexed.hasRow(db)
            }
        }
        return isNew
    }
}
