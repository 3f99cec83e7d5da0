import Foundation
import GTIOCatalog
import GTIOStore
import PostgresNIO

extension PostgresStore {
    public func append(_ batch: EventBatch) throws -> AppendOutcome {
        let outcome = try write(.log, session: { session in try Self.append(batch, in: session, signer: signer) })
        noteAppended(outcome.appended)
        return outcome
    }

    /// Appends inside an open transaction, in four statements whatever the batch's size: the
    /// append lock, the ids already in the log, the events (one array per column, unnested),
    /// and their lists and properties; then the quarantine and the batch's row.
    ///
    /// The transaction-scoped advisory lock (`PostgresSchema.logLock`) makes appends from every
    /// process and host take turns: each reads the log's end, numbers its events from there and commits before the
    /// next one reads the end. Seqs are thus gapless and in commit order, the chain continuous,
    /// without a sequence (which would leave holes on rollback). Readers never wait for it.
    static func append(_ batch: EventBatch, in session: PostgresSession, signer: BatchSigner?) throws -> AppendOutcome {
        var outcome = AppendOutcome()
        outcome.read = batch.read
        outcome.rejected = batch.rejected.count
        let recorded = now()
        // Taken by every write transaction already; taken again here (it nests) so that the
        // append's guarantee does not rest on its caller.
        _ = try session.run("SELECT pg_advisory_xact_lock(\(PostgresSchema.logLock))")
        let end = try logEnd(in: session)
        let lastSeq = end.seq, batchNumber = end.batch + 1
        var previousHash = end.head

        // Ids already in the log; among equal ids in the batch the earliest line wins.
        var ids = PostgresArray(.text, capacity: batch.events.count)
        for (_, event) in batch.events { ids.append(event.id) }
        var seen = batch.events.isEmpty ? [] : try idsInLog(ids, in: session)

        var columns = EventColumns(capacity: batch.events.count)
        var chain = EventHashChain()
        var seq = lastSeq
        var seqOfLine: [Int: Int64?] = [:]
        let openLines = try openQuarantineLines(of: batch, in: session)
        for (index, (line, event)) in batch.events.enumerated() {
            guard seen.insert(event.id).inserted else {
                outcome.duplicates += 1
                outcome.duplicateIndexes.append(index)
                if openLines.contains(line) { seqOfLine[line] = .some(nil) }
                continue
            }
            seq += 1
            previousHash = batch.link(index, after: previousHash, seq: seq, recorded: recorded, batch: batchNumber, chain: &chain)
            columns.add(event, seq: seq, hash: previousHash)
            if openLines.contains(line) { seqOfLine[line] = .some(seq) }
        }
        if seq > lastSeq {
            try columns.insert(recorded: recorded, batch: batchNumber, in: session)
            outcome.appended = Int(seq - lastSeq)
            outcome.firstSeq = lastSeq + 1
            outcome.lastSeq = seq
        }

        outcome.quarantined = try quarantine(batch.rejected, from: batch.source, recorded: recorded, in: session)
        outcome.settled = try settleQuarantine(seqOfLine, source: batch.source, recorded: recorded, in: session)

        let record = BatchRecord(batchNumber, of: batch, outcome: outcome, recorded: recorded)
        try insert(record, in: session)
        if let signer { try insert(signer.sign(record: record, lastSeq: seq, head: previousHash), in: session) }
        return outcome
    }

    /// Where the log ends, inside the caller's transaction: its last seq, that event's hash (the
    /// chain's head) and the last batch's number.
    static func logEnd(in session: PostgresSession) throws -> (seq: Int64, head: [UInt8], batch: Int64) {
        let last = try session.rows("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").first
        let head: [UInt8] = if case .blob(let bytes)? = last?[1] { bytes } else { EventHashChain.genesis }
        let batch = try session.rows("SELECT COALESCE(MAX(batch), 0) FROM batches")[0][0].int64 ?? 0
        return (last?[0].int64 ?? 0, head, batch)
    }

    /// Inserts a batch's row, after its events.
    static func insert(_ record: BatchRecord, in session: PostgresSession) throws {
        func optional(_ value: Int64?) -> StoreValue { value.map(StoreValue.integer) ?? .null }
        _ = try session.run(
            """
            INSERT INTO batches (batch, source, first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected, recorded)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.integer(record.batch), .text(record.source), optional(record.firstLine), optional(record.lastLine),
             optional(record.firstSeq), optional(record.lastSeq), .integer(record.read), .integer(record.appended),
             .integer(record.duplicates), .integer(record.rejected), .integer(record.recorded)])
    }

    /// Inserts a batch's signature, after its row.
    static func insert(_ signature: BatchSignature, in session: PostgresSession) throws {
        _ = try session.run(
            "INSERT INTO batch_signatures (batch, last_seq, head, record, public_key, signature) VALUES (?, ?, ?, ?, ?, ?)",
            [.integer(signature.batch), .integer(signature.lastSeq), .blob(signature.head), .blob(signature.record),
             .blob(signature.publicKey), .blob(signature.signature)])
    }

    /// The ids of `ids` (a text array) already in the log.
    static func idsInLog(_ ids: PostgresArray, in session: PostgresSession) throws -> Set<String> {
        var bindings = PostgresBindings()
        bindings.append(ids)
        let found = try session.run(PostgresQuery(unsafeSQL: "SELECT id FROM events WHERE id = ANY($1)", binds: bindings))
        return Set(found.rows.compactMap { PostgresSession.values($0).first?.string })
    }
}

/// A batch's new events, lists and properties as column arrays, for one insert each.
struct EventColumns {
    var seq, at, v, flag: PostgresArray
    var id, type, user, device, subject, object, value, text, original: PostgresArray
    var number: PostgresArray
    var hash: PostgresArray
    var listSeq = PostgresArray(.int8), listPosition = PostgresArray(.int8), listUser = PostgresArray(.text)
    var propertySeq = PostgresArray(.int8), propertyName = PostgresArray(.text), propertyPosition = PostgresArray(.int8)
    var propertyText = PostgresArray(.text), propertyNumber = PostgresArray(.float8)

    init(capacity: Int) {
        seq = PostgresArray(.int8, capacity: capacity)
        at = PostgresArray(.int8, capacity: capacity)
        v = PostgresArray(.int8, capacity: capacity)
        flag = PostgresArray(.int8, capacity: capacity)
        id = PostgresArray(.text, capacity: capacity * 2)
        type = PostgresArray(.text, capacity: capacity)
        user = PostgresArray(.text, capacity: capacity)
        device = PostgresArray(.text, capacity: capacity)
        subject = PostgresArray(.text, capacity: capacity)
        object = PostgresArray(.text, capacity: capacity)
        value = PostgresArray(.text, capacity: capacity)
        text = PostgresArray(.text, capacity: capacity)
        original = PostgresArray(.text, capacity: capacity * 20)
        number = PostgresArray(.float8, capacity: capacity)
        hash = PostgresArray(.bytea, capacity: capacity * 3)
    }

    mutating func add(_ event: ValidatedEvent, seq eventSeq: Int64, hash eventHash: [UInt8]) {
        seq.append(eventSeq)
        id.append(event.id)
        type.append(event.type.rawValue)
        at.append(event.at.milliseconds)
        user.append(event.user)
        device.append(event.device)
        v.append(event.version)
        subject.append(event.subject)
        object.append(event.object)
        value.append(event.value)
        flag.append(event.flag.map { $0 ? 1 : 0 } as Int64?)
        number.append(event.number)
        text.append(event.text)
        original.append(event.original)
        hash.append(bytes: eventHash)
        for (position, listed) in event.list.enumerated() {
            listSeq.append(eventSeq)
            listPosition.append(Int64(position))
            listUser.append(listed)
        }
        for property in event.properties {
            propertySeq.append(eventSeq)
            propertyName.append(property.name)
            propertyPosition.append(Int64(property.position))
            propertyText.append(property.text)
            propertyNumber.append(property.number)
        }
    }

    func insert(recorded: Int64, batch: Int64, in session: PostgresSession) throws {
        var bindings = PostgresBindings(capacity: 17)
        for array in [seq, id, type, at, user, device, v, subject, object, value, flag, number, text, original, hash] {
            bindings.append(array)
        }
        bindings.append(recorded)
        bindings.append(batch)
        _ = try session.run(PostgresQuery(unsafeSQL: """
            INSERT INTO events (seq, id, type, at, "user", device, v, subject, object, value, flag, number, text, original, hash, recorded, batch)
            SELECT unnest($1), unnest($2), unnest($3), unnest($4), unnest($5), unnest($6), unnest($7), unnest($8),
                unnest($9), unnest($10), unnest($11), unnest($12), unnest($13), unnest($14), unnest($15), $16::bigint, $17::bigint
            """, binds: bindings))
        if listSeq.count > 0 {
            try session.run(unnesting: [listSeq, listPosition, listUser]) { rows in
                "INSERT INTO event_lists (seq, position, \"user\") \(rows)"
            }
        }
        if propertySeq.count > 0 {
            try session.run(unnesting: [propertySeq, propertyName, propertyPosition, propertyText, propertyNumber]) { rows in
                "INSERT INTO event_properties (seq, name, position, text, number) \(rows)"
            }
        }
    }
}
