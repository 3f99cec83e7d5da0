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

    /// Appends inside an open transaction (see `append(_:in:signer:)` for several batches).
    static func append(_ batch: EventBatch, in session: PostgresSession, signer: BatchSigner?) throws -> AppendOutcome {
        try append([batch], in: session, signer: signer)[0]
    }

    /// Appends `batches` in order inside an open transaction, each as its own batch, as many
    /// calls of one would; in the same few round trips however many there are: the append lock,
    /// the log's end, the ids already in the log and the open quarantine lines the batches
    /// span are asked once, and the events (one array per column, unnested), their lists and
    /// properties and the batches' rows are sent without waiting, to be checked before the
    /// transaction commits. The collector commits many requests' batches at once: waiting for
    /// each statement of each of them would leave the server idle between round trips.
    ///
    /// The transaction-scoped advisory lock (`PostgresSchema.logLock`) makes appends from every
    /// process and host take turns: each reads the log's end, numbers its events from there and commits before the
    /// next one reads the end. Seqs are thus gapless and in commit order, the chain continuous,
    /// without a sequence (which would leave holes on rollback). Readers never wait for it.
    static func append(_ batches: [EventBatch], in session: PostgresSession, signer: BatchSigner?) throws -> [AppendOutcome] {
        let recorded = now()
        // Taken by every write transaction already; taken again here (it nests) so that the
        // append's guarantee does not rest on its caller. The server reads the log's end after
        // it, in order: nothing to wait for in between.
        session.sendChecked("SELECT pg_advisory_xact_lock(\(PostgresSchema.logLock))")
        // The three questions go out together, answered in one round trip.
        let endAsked = session.send(logEndQuery)
        // Ids already in the log; among equal ids in the batches the earliest line wins.
        let total = batches.reduce(0) { $0 + $1.events.count }
        var ids = PostgresArray(.text, capacity: total)
        for batch in batches { for (_, event) in batch.events { ids.append(event.id) } }
        let idsAsked = total == 0 ? nil : session.send(idsInLogQuery(ids))
        let openAsked = askOpenQuarantineLines(of: batches, in: session)
        let end = try logEnd(from: endAsked.answer())
        var seen = try idsAsked.map { try Self.ids(from: $0.answer()) } ?? []
        let openLines = try openQuarantineLines(from: openAsked?.answer(), of: batches)
        var seq = end.seq, batchNumber = end.batch
        var previousHash = end.head

        var columns = EventColumns(capacity: total)
        var outcomes: [AppendOutcome] = []
        var records: [BatchRecord] = []
        var signatures: [BatchSignature] = []
        var settling: [(batch: EventBatch, seqOfLine: [Int: Int64?])] = []
        for (number, batch) in batches.enumerated() {
            batchNumber += 1
            var outcome = AppendOutcome()
            outcome.read = batch.read
            outcome.rejected = batch.rejected.count
            let lastSeq = seq
            var chain = EventHashChain()
            var seqOfLine: [Int: Int64?] = [:]
            let open = openLines[number]
            for (index, (line, event)) in batch.events.enumerated() {
                guard seen.insert(event.id).inserted else {
                    outcome.duplicates += 1
                    outcome.duplicateIndexes.append(index)
                    if open.contains(line) { seqOfLine[line] = .some(nil) }
                    continue
                }
                seq += 1
                previousHash = batch.link(index, after: previousHash, seq: seq, recorded: recorded, batch: batchNumber, chain: &chain)
                columns.add(event, seq: seq, hash: previousHash, batch: batchNumber, recorded: recorded)
                if open.contains(line) { seqOfLine[line] = .some(seq) }
            }
            if seq > lastSeq {
                outcome.appended = Int(seq - lastSeq)
                outcome.firstSeq = lastSeq + 1
                outcome.lastSeq = seq
            }
            let record = BatchRecord(batchNumber, of: batch, outcome: outcome, recorded: recorded)
            records.append(record)
            if let signer { signatures.append(signer.sign(record: record, lastSeq: seq, head: previousHash)) }
            outcomes.append(outcome)
            settling.append((batch, seqOfLine))
        }
        if seq > end.seq { columns.insert(in: session) }
        insert(records, in: session)
        insert(signatures, in: session)
        // Rejected lines and settled entries are rare; each is a statement whose count the outcome reports.
        for (number, (batch, seqOfLine)) in settling.enumerated() {
            outcomes[number].quarantined = try quarantine(batch.rejected, from: batch.source, recorded: recorded, in: session)
            outcomes[number].settled = try settleQuarantine(seqOfLine, source: batch.source, recorded: recorded, in: session)
        }
        try session.checkSent()
        return outcomes
    }

    /// Where the log ends, inside the caller's transaction: its last seq, that event's hash (the
    /// chain's head) and the last batch's number.
    static func logEnd(in session: PostgresSession) throws -> (seq: Int64, head: [UInt8], batch: Int64) {
        try logEnd(from: session.send(logEndQuery).answer())
    }

    static let logEndQuery = PostgresQuery(unsafeSQL: """
        SELECT last.seq, last.hash, (SELECT COALESCE(MAX(batch), 0) FROM batches)
        FROM (SELECT 1) AS one LEFT JOIN (SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1) AS last ON true
        """)

    static func logEnd(from answer: PostgresQueryResult) throws -> (seq: Int64, head: [UInt8], batch: Int64) {
        guard let row = answer.rows.first else { throw PostgresFailure(state: nil, message: "the log's end came back empty") }
        let end = PostgresSession.values(row)
        let head: [UInt8] = if case .blob(let bytes) = end[1] { bytes } else { EventHashChain.genesis }
        return (end[0].int64 ?? 0, head, end[2].int64 ?? 0)
    }

    /// Sends the insert of a batch's row, after its events, without waiting.
    static func insert(_ record: BatchRecord, in session: PostgresSession) {
        insert([record], in: session)
    }

    /// Sends the insert of the batches' rows, after their events, in one statement without waiting.
    static func insert(_ records: [BatchRecord], in session: PostgresSession) {
        guard !records.isEmpty else { return }
        var batch = PostgresArray(.int8), source = PostgresArray(.text), firstLine = PostgresArray(.int8), lastLine = PostgresArray(.int8)
        var firstSeq = PostgresArray(.int8), lastSeq = PostgresArray(.int8), read = PostgresArray(.int8)
        var appended = PostgresArray(.int8), duplicates = PostgresArray(.int8), rejected = PostgresArray(.int8), recorded = PostgresArray(.int8)
        for record in records {
            batch.append(record.batch)
            source.append(record.source)
            firstLine.append(record.firstLine)
            lastLine.append(record.lastLine)
            firstSeq.append(record.firstSeq)
            lastSeq.append(record.lastSeq)
            read.append(record.read)
            appended.append(record.appended)
            duplicates.append(record.duplicates)
            rejected.append(record.rejected)
            recorded.append(record.recorded)
        }
        session.sendChecked(
            unnesting: [batch, source, firstLine, lastLine, firstSeq, lastSeq, read, appended, duplicates, rejected, recorded],
            context: "recording batches"
        ) { rows in
            "INSERT INTO batches (batch, source, first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected, recorded) \(rows)"
        }
    }

    /// Sends the insert of a batch's signature without waiting.
    static func insert(_ signature: BatchSignature, in session: PostgresSession) {
        insert([signature], in: session)
    }

    /// Sends the insert of the batches' signatures, after their rows, in one statement without waiting.
    static func insert(_ signatures: [BatchSignature], in session: PostgresSession) {
        guard !signatures.isEmpty else { return }
        var batch = PostgresArray(.int8), lastSeq = PostgresArray(.int8), head = PostgresArray(.bytea)
        var record = PostgresArray(.bytea), publicKey = PostgresArray(.bytea), signature = PostgresArray(.bytea)
        for signed in signatures {
            batch.append(signed.batch)
            lastSeq.append(signed.lastSeq)
            head.append(bytes: signed.head)
            record.append(bytes: signed.record)
            publicKey.append(bytes: signed.publicKey)
            signature.append(bytes: signed.signature)
        }
        session.sendChecked(unnesting: [batch, lastSeq, head, record, publicKey, signature], context: "signing batches") { rows in
            "INSERT INTO batch_signatures (batch, last_seq, head, record, public_key, signature) \(rows)"
        }
    }

    /// The ids of `ids` (a text array) already in the log.
    static func idsInLog(_ ids: PostgresArray, in session: PostgresSession) throws -> Set<String> {
        try self.ids(from: session.send(idsInLogQuery(ids)).answer())
    }

    static func idsInLogQuery(_ ids: PostgresArray) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(ids)
        return PostgresQuery(unsafeSQL: "SELECT id FROM events WHERE id = ANY($1)", binds: bindings)
    }

    static func ids(from answer: PostgresQueryResult) -> Set<String> {
        Set(answer.rows.compactMap { PostgresSession.values($0).first?.string })
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
    /// The batch number and recorded time of each run of events, in order: an insert mostly holds
    /// one batch, whose two values then go once rather than as two more arrays.
    var runs: [(batch: Int64, recorded: Int64, rows: Int)] = []

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

    mutating func add(_ event: ValidatedEvent, seq eventSeq: Int64, hash eventHash: [UInt8], batch batchNumber: Int64, recorded recordedAt: Int64) {
        seq.append(eventSeq)
        if let last = runs.last, last.batch == batchNumber, last.recorded == recordedAt {
            runs[runs.count - 1].rows += 1
        } else {
            runs.append((batchNumber, recordedAt, 1))
        }
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

    /// Sends the inserts of the events, their lists and their properties without waiting: the
    /// transaction checks them before it commits.
    func insert(in session: PostgresSession) {
        var arrays = [seq, id, type, at, user, device, v, subject, object, value, flag, number, text, original, hash]
        var constants: [Int64] = []
        if runs.count == 1 {
            constants = [runs[0].recorded, runs[0].batch]
        } else {
            var recorded = PostgresArray(.int8, capacity: Int(seq.count)), batch = PostgresArray(.int8, capacity: Int(seq.count))
            for run in runs {
                for _ in 0..<run.rows {
                    recorded.append(run.recorded)
                    batch.append(run.batch)
                }
            }
            arrays += [recorded, batch]
        }
        session.sendChecked(unnesting: arrays, constants: constants, context: "appending events") { rows in
            "INSERT INTO events (seq, id, type, at, \"user\", device, v, subject, object, value, flag, number, text, original, hash, recorded, batch) \(rows)"
        }
        if listSeq.count > 0 {
            session.sendChecked(unnesting: [listSeq, listPosition, listUser], context: "appending events' lists") { rows in
                "INSERT INTO event_lists (seq, position, \"user\") \(rows)"
            }
        }
        if propertySeq.count > 0 {
            session.sendChecked(unnesting: [propertySeq, propertyName, propertyPosition, propertyText, propertyNumber],
                                context: "appending events' properties") { rows in
                "INSERT INTO event_properties (seq, name, position, text, number) \(rows)"
            }
        }
    }
}
