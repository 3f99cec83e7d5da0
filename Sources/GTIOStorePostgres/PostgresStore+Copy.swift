import Foundation
import GTIOCatalog
import GTIOStore

extension PostgresStore {
    public func lastBatch() throws -> Int64 {
        try withSession { session in try Self.logEnd(in: session).batch }
    }

    public func committedBatches(after batch: Int64, maxEvents: Int) throws -> [CommittedBatch] {
        try read { session in
            var batches = CommittedBatch.taking(maxEvents: maxEvents, from: try session.rows(
                "SELECT \(Self.batchColumns) FROM batches WHERE batch > ? ORDER BY batch LIMIT 1000", [.integer(batch)]
            ).map(Self.batchRecord))
            guard let first = batches.first?.record.batch, let last = batches.last?.record.batch else { return [] }
            var signatures: [Int64: BatchSignature] = [:]
            for row in try session.rows("""
                SELECT batch, last_seq, head, record, public_key, signature FROM batch_signatures WHERE batch BETWEEN ? AND ?
                """, [.integer(first), .integer(last)]) {
                let signature = Self.signature(row)
                signatures[signature.batch] = signature
            }
            let seqs = batches.compactMap(\.record.firstSeq) + batches.compactMap(\.record.lastSeq)
            var events: [StoredEvent] = []
            var hashes: [[UInt8]] = []
            if let low = seqs.min(), let high = seqs.max() {
                let range: [StoreValue] = [.integer(low), .integer(high)]
                var properties: [Int64: [EventProperty]] = [:]
                for row in try session.rows("""
                    SELECT seq, name, position, text, number FROM event_properties WHERE seq BETWEEN ? AND ? ORDER BY seq, name, position
                    """, range) {
                    properties[row[0].int64 ?? 0, default: []].append(
                        EventProperty(name: row[1].string ?? "", position: Int(row[2].int64 ?? 0), text: row[3].string, number: row[4].double))
                }
                // The hash after the columns `storedEvents` reads.
                let rows = try session.rows("SELECT \(Self.eventColumns), hash FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq", range)
                events = try Self.storedEvents(rows, in: session)
                for index in events.indices { events[index].event.properties = properties[events[index].seq] ?? [] }
                hashes = rows.map { if case .blob(let bytes) = $0[16] { bytes } else { [] } }
            }
            CommittedBatch.fill(&batches, events: events, hashes: hashes, signatures: signatures)
            return batches
        }
    }

    public func appendCommitted(_ batches: [CommittedBatch]) throws {
        try write(.log, session: { session in
            var (lastSeq, head, lastBatch) = try Self.logEnd(in: session)
            var chain = EventHashChain()
            for batch in batches {
                head = try batch.checkContinues(lastBatch: lastBatch, lastSeq: lastSeq, head: head, store: location, chain: &chain)
                if !batch.events.isEmpty {
                    var ids = PostgresArray(.text, capacity: batch.events.count)
                    var columns = EventColumns(capacity: batch.events.count)
                    for (index, stored) in batch.events.enumerated() {
                        ids.append(stored.event.id)
                        columns.add(stored.event, seq: stored.seq, hash: batch.hashes[index],
                                    batch: batch.record.batch, recorded: batch.record.recorded)
                    }
                    if let id = try Self.idsInLog(ids, in: session).sorted().first {
                        throw StoreError.notAContinuation(path: location, reason: "event \(id) of batch \(batch.record.batch) is already in this log")
                    }
                    columns.insert(in: session)
                }
                Self.insert(batch.record, in: session)
                if let signature = batch.signature { Self.insert(signature, in: session) }
                lastBatch = batch.record.batch
                lastSeq += Int64(batch.events.count)
            }
        })
        noteAppended(batches.reduce(0) { $0 + $1.events.count })
    }

    public func copyQuarantine(_ entries: [QuarantineEntry]) throws -> Int {
        try write(.log, session: { session in
            // The source's settled time; the copy's only for a settled entry without one.
            let settled = Self.now()
            var changed = 0
            for entry in entries {
                let fingerprint = RejectedLine(line: entry.line, reason: entry.reason, original: entry.original).fingerprint
                let result = try session.run(
                    """
                    INSERT INTO quarantine (entry, source, line, reason, original, fingerprint, recorded, status, seq, settled)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (entry) DO UPDATE SET status = excluded.status, seq = excluded.seq, settled = excluded.settled
                    WHERE quarantine.status = 'open' AND excluded.status <> 'open'
                    """,
                    [.integer(entry.entry), .text(entry.source), .integer(Int64(entry.line)), .text(entry.reason),
                     .blob(entry.original), .integer(fingerprint), .integer(entry.recorded.milliseconds), .text(entry.status),
                     entry.seq.map(StoreValue.integer) ?? .null, entry.status == "open" ? .null : .integer(entry.settled?.milliseconds ?? settled)])
                changed += result.metadata.rows ?? 0
            }
            return changed
        })
    }

    static let batchColumns = "batch, source, first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected, recorded"

    /// A batch's record from a row of `batchColumns`.
    static func batchRecord(_ row: [StoreValue]) -> BatchRecord {
        BatchRecord(
            batch: row[0].int64 ?? 0, source: row[1].string ?? "", firstLine: row[2].int64, lastLine: row[3].int64,
            firstSeq: row[4].int64, lastSeq: row[5].int64, read: row[6].int64 ?? 0, appended: row[7].int64 ?? 0,
            duplicates: row[8].int64 ?? 0, rejected: row[9].int64 ?? 0, recorded: row[10].int64 ?? 0)
    }
}
