import Foundation
import GRDB
import GTIOCatalog
import GTIOStore

extension SQLiteStore {
    public func lastBatch() throws -> Int64 {
        try readDatabase { db in try Self.logEnd(in: db).batch }
    }

    public func committedBatches(after batch: Int64, maxEvents: Int) throws -> [CommittedBatch] {
        try readDatabase { db in
            var batches = CommittedBatch.taking(maxEvents: maxEvents, from: try Row.fetchAll(
                db, sql: "SELECT \(Self.batchColumns) FROM batches WHERE batch > ? ORDER BY batch LIMIT 1000", arguments: [batch]
            ).map(Self.batchRecord))
            guard let first = batches.first?.record.batch, let last = batches.last?.record.batch else { return [] }
            var signatures: [Int64: BatchSignature] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT batch, last_seq, head, record, public_key, signature FROM batch_signatures WHERE batch BETWEEN ? AND ?
                """, arguments: [first, last]) {
                let signature = Self.signature(from: row)
                signatures[signature.batch] = signature
            }
            let seqs = batches.compactMap(\.record.firstSeq) + batches.compactMap(\.record.lastSeq)
            var events: [StoredEvent] = []
            var hashes: [[UInt8]] = []
            if let low = seqs.min(), let high = seqs.max() {
                var properties: [Int64: [EventProperty]] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT seq, name, position, text, number FROM event_properties WHERE seq BETWEEN ? AND ? ORDER BY seq, name, position
                    """, arguments: [low, high])
                while let row = try rows.next() {
                    properties[row[0], default: []].append(
                        EventProperty(name: row[1], position: Int(row[2] as Int64), text: row[3], number: row[4]))
                }
                let cursor = try Row.fetchCursor(
                    db, sql: "SELECT \(Self.storedEventColumns), hash FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq",
                    arguments: [low, high])
                while let row = try cursor.next() {
                    var stored = try Self.storedEvent(row, in: db)
                    stored.event.properties = properties[stored.seq] ?? []
                    events.append(stored)
                    // After the columns `storedEvent` reads: the last of the row.
                    hashes.append(Array(row[row.count - 1] as Data))
                }
            }
            CommittedBatch.fill(&batches, events: events, hashes: hashes, signatures: signatures)
            return batches
        }
    }

    public func appendCommitted(_ batches: [CommittedBatch]) throws {
        try writeDatabase { db in
            var (lastSeq, head, lastBatch) = try Self.logEnd(in: db)
            // Every id in `event_ids` first, so that each copied id is checked there alone; the
            // copied ones go in directly, and `event_ids_through` moves past them.
            try recentIDs.prepare(in: db, end: lastSeq, head: head)
            try recentIDs.moveAll(in: db)
            var inserter = try EventInserter(db)
            let insertID = try RecentIDs.insertID(in: db)
            var chain = EventHashChain()
            for batch in batches {
                head = try batch.checkContinues(lastBatch: lastBatch, lastSeq: lastSeq, head: head, store: path, chain: &chain)
                for (index, stored) in batch.events.enumerated() {
                    insertID.bind(1, stored.event.id)
                    guard try insertID.step(db) == 1 else {
                        throw StoreError.notAContinuation(path: path, reason: "event \(stored.event.id) (seq \(stored.seq)) is already in this log")
                    }
                    try inserter.insert(
                        stored.event, seq: stored.seq, recorded: batch.record.recorded, batch: batch.record.batch,
                        hash: batch.hashes[index], in: db)
                }
                try Self.insert(batch.record, in: db)
                if let signature = batch.signature { try Self.insert(signature, in: db) }
                lastBatch = batch.record.batch
                lastSeq += Int64(batch.events.count)
            }
            try inserter.recordDays(in: db)
            try RecentIDs.mark(through: lastSeq, in: db)
            recentIDs.invalidate()
        }
    }

    public func copyQuarantine(_ entries: [QuarantineEntry]) throws -> Int {
        try writeDatabase { db in
            // The source's settled time; the copy's only for a settled entry without one.
            let settled = Self.now()
            var changed = 0
            let statement = try db.cachedStatement(sql: """
                INSERT INTO quarantine (entry, source, line, reason, original, fingerprint, recorded, status, seq, settled)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (entry) DO UPDATE SET status = excluded.status, seq = excluded.seq, settled = excluded.settled
                WHERE quarantine.status = 'open' AND excluded.status != 'open'
                """)
            for entry in entries {
                let fingerprint = RejectedLine(line: entry.line, reason: entry.reason, original: entry.original).fingerprint
                // Text when the line is UTF-8, as the append path keeps it, else the bytes.
                let original: DatabaseValue = String(validating: entry.original, as: UTF8.self)?.databaseValue
                    ?? Data(entry.original).databaseValue
                try statement.execute(arguments: [
                    entry.entry, entry.source, entry.line, entry.reason, original, fingerprint,
                    entry.recorded.milliseconds, entry.status, entry.seq,
                    entry.status == "open" ? nil : entry.settled?.milliseconds ?? settled,
                ])
                changed += db.changesCount
            }
            return changed
        }
    }
}
