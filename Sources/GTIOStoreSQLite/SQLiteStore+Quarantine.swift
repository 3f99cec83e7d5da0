import Foundation
import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    /// Puts rejected lines in quarantine; the same line of the same source with the same
    /// bytes is kept once, so re-running an interrupted ingest does not double it.
    static func quarantine(_ lines: [RejectedLine], from source: String, recorded: Int64, in db: Database) throws -> Int {
        guard !lines.isEmpty else { return 0 }
        let insert = SQLiteStatementBinding(try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO quarantine (source, line, reason, original, fingerprint, recorded)
            VALUES (?, ?, ?, ?, ?, ?)
            """))
        var added = 0
        for line in lines {
            insert.bind(1, source)
            insert.bind(2, Int64(line.line))
            insert.bind(3, line.reason)
            // Kept as TEXT when it is UTF-8, so the sqlite3 shell shows it; as a BLOB otherwise.
            if let text = String(validating: line.original, as: UTF8.self) {
                insert.bind(4, text)
            } else {
                insert.bind(4, line.original)
            }
            insert.bind(5, line.fingerprint)
            insert.bind(6, recorded)
            added += try insert.step(db)
        }
        return added
    }

    /// The line numbers of the batch's range that have open quarantine entries from its source.
    static func openQuarantineLines(of batch: EventBatch, in db: Database) throws -> Set<Int> {
        guard let first = batch.events.first?.line, let last = batch.events.last?.line else { return [] }
        let lines = try Int.fetchAll(
            db.cachedStatement(sql: "SELECT line FROM quarantine WHERE status = 'open' AND source = ? AND line BETWEEN ? AND ?"),
            arguments: [batch.source, first, last])
        return Set(lines)
    }

    /// Marks open entries settled by a now-valid line at the same source and line number:
    /// `appended` with its seq, or `duplicate` when its id was already in the log.
    static func settleQuarantine(_ seqOfLine: [Int: Int64?], source: String, recorded: Int64, in db: Database) throws -> Int {
        var settled = 0
        for (line, seq) in seqOfLine {
            try db.execute(
                sql: """
                    UPDATE quarantine SET status = ?, seq = ?, settled = ?
                    WHERE status = 'open' AND source = ? AND line = ?
                    """,
                arguments: [seq == nil ? "duplicate" : "appended", seq, recorded, source, line])
            settled += db.changesCount
        }
        return settled
    }

    /// Quarantine entries, oldest first; only open ones unless `includeSettled`.
    public func quarantineEntries(includeSettled: Bool, limit: Int?) throws -> [QuarantineEntry] {
        try readDatabase { db in
            var sql = "SELECT * FROM quarantine"
            if !includeSettled { sql += " WHERE status = 'open'" }
            sql += " ORDER BY entry"
            if let limit, limit > 0 { sql += " LIMIT \(limit)" }
            return try Row.fetchAll(db, sql: sql).map(Self.quarantineEntry)
        }
    }

    /// One quarantine entry by number, nil when there is none.
    public func quarantineEntry(_ entry: Int64) throws -> QuarantineEntry? {
        try readDatabase { db in
            try Row.fetchOne(db, sql: "SELECT * FROM quarantine WHERE entry = ?", arguments: [entry])
                .map(Self.quarantineEntry)
        }
    }

    /// Re-validates open entries with `validate`, each against `replacement(entry)` when it
    /// gives a line (a corrected file) or its stored original otherwise. What is now valid is
    /// appended in one transaction and its entry settled; the rest stay open with a fresh reason.
    public func retryQuarantine(
        entries: [Int64]?,
        replacement: (QuarantineEntry) -> [UInt8]?,
        validate: ([UInt8]) -> Result<ValidatedEvent, Rejection>
    ) throws -> QuarantineRetryOutcome {
        try writeDatabase { db in
            var sql = "SELECT * FROM quarantine WHERE status = 'open'"
            if let entries { sql += " AND entry IN (\(entries.map(String.init).joined(separator: ",")))" }
            let open = try Row.fetchAll(db, sql: sql + " ORDER BY entry").map(Self.quarantineEntry)
            var outcome = QuarantineRetryOutcome()
            let recorded = Self.now()
            for entry in open {
                let bytes = replacement(entry) ?? entry.original
                switch validate(bytes) {
                case .success(let event):
                    let batch = EventBatch(source: entry.source, events: [(entry.line, event)])
                    let appended = try Self.append(batch, in: db, signer: signer, recentIDs: recentIDs)
                    // The append settles an open entry at its source and line already; this one
                    // is left as that made it.
                    try db.execute(
                        sql: "UPDATE quarantine SET status = ?, seq = ?, settled = ? WHERE entry = ? AND status = 'open'",
                        arguments: [appended.appended == 1 ? "appended" : "duplicate", appended.lastSeq, recorded, entry.entry])
                    if appended.appended == 1 { outcome.appended += 1 } else { outcome.duplicates += 1 }
                case .failure(let rejection):
                    try db.execute(
                        sql: "UPDATE quarantine SET reason = ? WHERE entry = ?",
                        arguments: [rejection.description, entry.entry])
                    outcome.stillRejected += 1
                }
            }
            return outcome
        }
    }

    /// A `quarantine` row as an entry; `original` holds text or a blob (bytes not UTF-8).
    static func quarantineEntry(_ row: Row) -> QuarantineEntry {
        let stored: DatabaseValue = row["original"]
        let original: [UInt8] = switch stored.storage {
        case .string(let text): Array(text.utf8)
        case .blob(let data): Array(data)
        default: []
        }
        return QuarantineEntry(
            entry: row["entry"], source: row["source"], line: row["line"], reason: row["reason"], original: original,
            recorded: Timestamp(milliseconds: row["recorded"]), status: row["status"], seq: row["seq"],
            settled: (row["settled"] as Int64?).map(Timestamp.init(milliseconds:)))
    }
}
