import GTIOCatalog
import GTIOStore
import PostgresNIO

extension PostgresStore {
    /// Puts rejected lines in quarantine, inside the append transaction (which holds the append
    /// lock, so entry numbers follow one another as in SQLite); the same line of the same source
    /// with the same bytes is kept once.
    static func quarantine(_ lines: [RejectedLine], from source: String, recorded: Int64, in session: PostgresSession) throws -> Int {
        var added = 0
        for line in lines {
            let result = try session.run(
                """
                INSERT INTO quarantine (entry, source, line, reason, original, fingerprint, recorded)
                SELECT COALESCE(MAX(entry), 0) + 1, ?, ?, ?, ?, ?, ? FROM quarantine
                ON CONFLICT (source, line, fingerprint) DO NOTHING
                """,
                [.text(source), .integer(Int64(line.line)), .text(line.reason), .blob(line.original),
                 .integer(line.fingerprint), .integer(recorded)])
            added += result.metadata.rows ?? 0
        }
        return added
    }

    /// Asks, for each batch, which line numbers of its range have open quarantine entries from
    /// its source, in one statement for all of them; nil when no batch has events.
    static func askOpenQuarantineLines(of batches: [EventBatch], in session: PostgresSession) -> SentStatement? {
        var indexes = PostgresArray(.int8), sources = PostgresArray(.text), firsts = PostgresArray(.int8), lasts = PostgresArray(.int8)
        for (index, batch) in batches.enumerated() {
            guard let first = batch.events.first?.line, let last = batch.events.last?.line else { continue }
            indexes.append(Int64(index))
            sources.append(batch.source)
            firsts.append(Int64(first))
            lasts.append(Int64(last))
        }
        guard indexes.count > 0 else { return nil }
        var bindings = PostgresBindings(capacity: 4)
        for array in [indexes, sources, firsts, lasts] { bindings.append(array) }
        return session.send(PostgresQuery(unsafeSQL: """
            SELECT ranges.batch, quarantine.line
            FROM (SELECT unnest($1) AS batch, unnest($2) AS source, unnest($3) AS first, unnest($4) AS last) AS ranges
            JOIN quarantine ON quarantine.source = ranges.source AND quarantine.line BETWEEN ranges.first AND ranges.last
            WHERE quarantine.status = 'open'
            """, binds: bindings))
    }

    /// The answer of `askOpenQuarantineLines`: each batch's open lines.
    static func openQuarantineLines(from answer: PostgresQueryResult?, of batches: [EventBatch]) -> [Set<Int>] {
        var open = Array(repeating: Set<Int>(), count: batches.count)
        for row in answer?.rows ?? [] {
            let values = PostgresSession.values(row)
            if let batch = values[0].int64, let line = values[1].int64 { open[Int(batch)].insert(Int(line)) }
        }
        return open
    }

    /// Marks open entries settled by a now-valid line at the same source and line number.
    static func settleQuarantine(_ seqOfLine: [Int: Int64?], source: String, recorded: Int64, in session: PostgresSession) throws -> Int {
        var settled = 0
        for (line, seq) in seqOfLine {
            let result = try session.run(
                "UPDATE quarantine SET status = ?, seq = ?, settled = ? WHERE status = 'open' AND source = ? AND line = ?",
                [.text(seq == nil ? "duplicate" : "appended"), seq.map(StoreValue.integer) ?? .null, .integer(recorded),
                 .text(source), .integer(Int64(line))])
            settled += result.metadata.rows ?? 0
        }
        return settled
    }

    static let quarantineColumns = "entry, source, line, reason, original, recorded, status, seq, settled"

    public func quarantineEntries(includeSettled: Bool, limit: Int?) throws -> [QuarantineEntry] {
        try read { session in
            var sql = "SELECT \(Self.quarantineColumns) FROM quarantine"
            if !includeSettled { sql += " WHERE status = 'open'" }
            sql += " ORDER BY entry"
            if let limit, limit > 0 { sql += " LIMIT \(limit)" }
            return try session.rows(sql).map(Self.quarantineEntry)
        }
    }

    public func quarantineEntry(_ entry: Int64) throws -> QuarantineEntry? {
        try read { session in
            try session.rows("SELECT \(Self.quarantineColumns) FROM quarantine WHERE entry = ?", [.integer(entry)])
                .first.map(Self.quarantineEntry)
        }
    }

    public func retryQuarantine(
        entries: [Int64]?, replacement: (QuarantineEntry) -> [UInt8]?,
        validate: ([UInt8]) -> Result<ValidatedEvent, Rejection>
    ) throws -> QuarantineRetryOutcome {
        try write(.log, session: { session in
            var sql = "SELECT \(Self.quarantineColumns) FROM quarantine WHERE status = 'open'"
            if let entries { sql += " AND entry IN (\(entries.map(String.init).joined(separator: ",")))" }
            let open = try session.rows(sql + " ORDER BY entry").map(Self.quarantineEntry)
            var outcome = QuarantineRetryOutcome()
            let recorded = Self.now()
            for entry in open {
                switch validate(replacement(entry) ?? entry.original) {
                case .success(let event):
                    let batch = EventBatch(source: entry.source, events: [(entry.line, event)])
                    let appended = try Self.append(batch, in: session, signer: signer)
                    // The append settles an open entry at its source and line already; this one
                    // is left as that made it.
                    _ = try session.run(
                        "UPDATE quarantine SET status = ?, seq = ?, settled = ? WHERE entry = ? AND status = 'open'",
                        [.text(appended.appended == 1 ? "appended" : "duplicate"), appended.lastSeq.map(StoreValue.integer) ?? .null,
                         .integer(recorded), .integer(entry.entry)])
                    if appended.appended == 1 { outcome.appended += 1 } else { outcome.duplicates += 1 }
                case .failure(let rejection):
                    _ = try session.run("UPDATE quarantine SET reason = ? WHERE entry = ?", [.text(rejection.description), .integer(entry.entry)])
                    outcome.stillRejected += 1
                }
            }
            return outcome
        })
    }

    static func quarantineEntry(_ row: [StoreValue]) -> QuarantineEntry {
        let original: [UInt8] = if case .blob(let bytes) = row[4] { bytes } else { Array((row[4].string ?? "").utf8) }
        return QuarantineEntry(
            entry: row[0].int64 ?? 0, source: row[1].string ?? "", line: row[2].int, reason: row[3].string ?? "",
            original: original, recorded: Timestamp(milliseconds: row[5].int64 ?? 0), status: row[6].string ?? "",
            seq: row[7].int64, settled: row[8].int64.map(Timestamp.init(milliseconds:)))
    }
}
