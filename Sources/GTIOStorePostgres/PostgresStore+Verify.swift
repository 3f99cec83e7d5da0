import GTIOCatalog
import GTIOStore
import PostgresNIO

extension PostgresStore {
    /// Walks the whole log in one snapshot, recomputing the hash chain from the stored columns
    /// (see `ChainVerifier`); the unique index on `id` is PostgreSQL's own and needs no check.
    public func verify(_ audit: LogAudit, progress: (Int64) -> Void) throws -> LogVerdict {
        try verify(audit, pageSize: 10_000, progress: progress)
    }

    /// `verify` reading the log and its property rows `pageSize` rows at a time: tests give a
    /// few rows, so that a small log spans many pages.
    package func verify(_ audit: LogAudit, pageSize: Int, progress: (Int64) -> Void = { _ in }) throws -> LogVerdict {
        try read { session in
            let signatures = try session.rows("SELECT batch, last_seq, head, record, public_key, signature FROM batch_signatures ORDER BY batch")
                .map(Self.signature)
            var records: [Int64: BatchRecord] = [:]
            for row in try session.rows("SELECT \(Self.batchColumns) FROM batches") {
                let record = Self.batchRecord(row)
                records[record.batch] = record
            }
            var verifier = ChainVerifier(audit: audit, signatures: signatures, records: records)
            if let verdict = verifier.checkSignatures() { return verdict }

            var chain = EventHashChain()
            var hash = EventHashChain.genesis
            var after = Int64.min
            while true {
                let rows = try session.run("""
                    SELECT seq, id, type, at, recorded, user, device, v, subject, object, value, flag, number, text, original, batch, hash
                    FROM events WHERE seq > ? ORDER BY seq LIMIT \(pageSize)
                    """, [.integer(after)]).rows.map(PostgresSession.values)
                guard let first = rows.first?[0].int64, let last = rows.last?[0].int64 else { break }
                var lists: [Int64: [String]] = [:]
                for row in try session.rows(
                    "SELECT seq, user FROM event_lists WHERE seq BETWEEN ? AND ? ORDER BY seq, position", [.integer(first), .integer(last)]) {
                    lists[row[0].int64 ?? 0, default: []].append(row[1].string ?? "")
                }
                for row in rows {
                    let seq = row[0].int64 ?? 0
                    chain.begin()
                    chain.text(row[1].string); chain.text(row[2].string); chain.integer(row[3].int64)
                    chain.text(row[5].string); chain.text(row[6].string); chain.integer(row[7].int64)
                    chain.text(row[8].string); chain.text(row[9].string); chain.text(row[10].string)
                    chain.integer(row[11].int64); chain.number(row[12].double); chain.text(row[13].string); chain.text(row[14].string)
                    let list = row[2].string == EventType.quickaddShown.rawValue ? lists[seq] ?? [] : []
                    chain.integer(Int64(list.count))
                    for user in list { chain.text(user) }
                    hash = chain.finish().withUnsafeBytes { digest in
                        EventHashChain.link(after: hash, seq: seq, recorded: row[4].int64 ?? 0, batch: row[15].int64 ?? 0, digest: digest)
                    }
                    let storedHash: [UInt8]? = if case .blob(let bytes) = row[16] { bytes } else { nil }
                    let verdict = storedHash.map { stored in
                        stored.withUnsafeBytes { verifier.visit(seq: seq, hash: hash, stored: $0) }
                    } ?? verifier.visit(seq: seq, hash: hash, stored: nil)
                    if let verdict { return verdict }
                    if seq & 0xFFFF == 0 { progress(seq) }
                }
                after = last
                if rows.count < pageSize { break }
            }
            return try verifier.finish(
                lowestSeq: try session.rows("SELECT MIN(seq) FROM events")[0][0].int64,
                batchesEnd: try session.rows("SELECT COALESCE(MAX(last_seq), 0) FROM batches")[0][0].int64 ?? 0,
                backendCheck: { try Self.propertiesDisagree(session, pageSize: pageSize) })
        }
    }

    /// `event_properties` must hold what the originals give (`PropertyAudit`): both read in
    /// pages, in the snapshot that proved the chain.
    private static func propertiesDisagree(_ session: PostgresSession, pageSize: Int) throws -> LogVerdict? {
        let types = PropertyAudit.types.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let end = try session.rows("SELECT COALESCE(MAX(seq), 0) FROM events")[0][0].int64 ?? 0
        return try PropertyAudit.compare(
            // Windows of seqs rather than a LIMIT: without the planner's statistics, a LIMIT
            // with the type condition was planned as a sort of the log from the page on.
            events: windowed(by: pageSize, through: end) { after, through in
                try session.rows(
                    "SELECT seq, original FROM events WHERE seq > ? AND seq <= ? AND type IN (\(types)) ORDER BY seq",
                    [.integer(after), .integer(through)]
                ).map { ($0[0].int64 ?? 0, $0[1].string ?? "") }
            },
            properties: paged(by: pageSize) { last in
                // Keyset pages in the key's order, each after the last row read.
                try session.rows(
                    """
                    SELECT seq, name, position, text, number FROM event_properties
                    WHERE (seq, name, position) > (?, ?, ?) ORDER BY seq, name, position LIMIT \(pageSize)
                    """,
                    [.integer(last?.seq ?? .min), .text(last?.property.name ?? ""), .integer(Int64(last?.property.position ?? 0))]
                ).map {
                    ($0[0].int64 ?? 0,
                     EventProperty(name: $0[1].string ?? "", position: Int($0[2].int64 ?? 0), text: $0[3].string, number: $0[4].double))
                }
            })
    }

    /// Rows one at a time from windows of `size` seqs up to `end`, `window` giving the rows of
    /// the seqs after its first argument through its second.
    private static func windowed<Row>(
        by size: Int, through end: Int64, _ window: @escaping (Int64, Int64) throws -> [Row]
    ) -> () throws -> Row? {
        var rows: [Row] = [], next = 0, after: Int64 = 0
        return {
            while next == rows.count {
                guard after < end else { return nil }
                let through = min(after + Int64(size), end)
                (rows, next, after) = (try window(after, through), 0, through)
            }
            defer { next += 1 }
            return rows[next]
        }
    }

    /// Rows one at a time from pages of `size`, `page` giving the rows after the last one read
    /// (nil for the first page); a page shorter than `size` is the last.
    private static func paged<Row>(by size: Int, _ page: @escaping (Row?) throws -> [Row]) -> () throws -> Row? {
        var rows: [Row] = [], next = 0, done = false
        return {
            if next == rows.count {
                guard !done else { return nil }
                rows = try page(rows.last)
                (next, done) = (0, rows.count < size)
                if rows.isEmpty { return nil }
            }
            defer { next += 1 }
            return rows[next]
        }
    }
}
