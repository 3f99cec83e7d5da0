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
            let query = PostgresChainWindow.query(limit: pageSize)
            // The next page is asked for as soon as this one's last seq is known, so that the
            // server builds it while this one is hashed.
            var next = session.send(query, [.integer(.min)])
            while true {
                let page = try PostgresChainWindow(next.answer().rows)
                guard let first = page.seqs.first, let last = page.seqs.last else { break }
                let listed = session.send(
                    "SELECT seq, user FROM event_lists WHERE seq BETWEEN ? AND ? ORDER BY seq, position", [.integer(first), .integer(last)])
                let more = page.count == pageSize
                if more { next = session.send(query, [.integer(last)]) }
                var lists: [Int64: [String]] = [:]
                for row in try listed.answer().rows.map(PostgresSession.values) {
                    lists[row[0].int64 ?? 0, default: []].append(row[1].string ?? "")
                }
                for index in 0..<page.count {
                    let seq = page.seqs[index]
                    let list = page.isType(index, .quickaddShown) ? lists[seq] ?? [] : []
                    page.content(index, list: list, into: &chain)
                    hash = chain.finish().withUnsafeBytes { digest in
                        EventHashChain.link(after: hash, seq: seq, recorded: page.recorded(index), batch: page.batch(index), digest: digest)
                    }
                    let verdict = page.withHash(index) { stored in
                        stored.map { verifier.visit(seq: seq, hash: hash, stored: $0) } ?? verifier.visit(seq: seq, hash: hash, stored: nil)
                    }
                    if let verdict { return verdict }
                    if seq & 0xFFFF == 0 { progress(seq) }
                }
                if !more { break }
            }
            var unchecked: [String] = []
            return try verifier.finish(
                lowestSeq: try session.rows("SELECT MIN(seq) FROM events")[0][0].int64,
                batchesEnd: try session.rows("SELECT COALESCE(MAX(last_seq), 0) FROM batches")[0][0].int64 ?? 0,
                backendCheck: {
                    try Self.propertiesDisagree(session, pageSize: pageSize) ?? Self.indexesDisagree(session, unchecked: &unchecked)
                }
            ).leaving(unchecked)
        }
    }

    /// The log's indexes must hold its rows as they are: answers find events through them (a
    /// day's through `events_at`), and an entry changed or lost in the database's files would
    /// hide an event from them while the rows, and so the chain, stay intact. Only the amcheck
    /// extension (`bt_index_check` with `heapallindexed`) holds an index to its table's rows:
    /// where the database lacks it, or the role may not run it, that is said, not failed.
    private static func indexesDisagree(_ session: PostgresSession, unchecked: inout [String]) throws -> LogVerdict? {
        let what = "the log's indexes against its rows"
        guard let found = try session.rows("""
            SELECT quote_ident(n.nspname), quote_ident(current_user) FROM pg_extension e
            JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'amcheck'
            """).first, let schema = found[0].string, let role = found[1].string
        else {
            unchecked.append("\(what): this database lacks the amcheck extension (CREATE EXTENSION amcheck; docs/POSTGRESQL.md)")
            return nil
        }
        let check = "\(schema).bt_index_check"
        let tables = PostgresRoles.logTables.map { "'\($0)'::regclass" }.joined(separator: ", ")
        let indexes = try session.rows("""
            SELECT c.oid::bigint, c.relname, t.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_class t ON t.oid = i.indrelid JOIN pg_am a ON a.oid = c.relam
            WHERE i.indrelid IN (\(tables)) AND a.amname = 'btree' AND i.indisvalid AND i.indisready ORDER BY c.relname
            """)
        for row in indexes {
            let name = row[1].string ?? "", table = row[2].string ?? ""
            // A failed check ends its savepoint, not the snapshot the chain was read in.
            try session.execute("SAVEPOINT gtio_index_check")
            do {
                _ = try session.run("SELECT \(check)(?::bigint::oid::regclass, true)", [row[0]])
                try session.execute("RELEASE SAVEPOINT gtio_index_check")
            } catch let failure as PostgresFailure where failure.state == "42501" || failure.state?.hasPrefix("XX") == true {
                try session.execute("ROLLBACK TO SAVEPOINT gtio_index_check")
                guard failure.state != "42501" else {
                    unchecked.append("\(what): this role may not run amcheck (GRANT EXECUTE ON FUNCTION \(check)(regclass, boolean) TO \(role))")
                    return nil
                }
                return .broken(seq: try seq(namedIn: failure.message, of: table, session) ?? 0, problem: """
                    index \(name): \(failure.message) (what is read through it would miss events; \
                    REINDEX INDEX \(name), as the tables' owner, makes it again from the rows)
                    """)
            }
        }
        return nil
    }

    /// The seq of the row of `table` at the heap place "(page,offset)" amcheck's `message`
    /// names first, when it names one and a row is there.
    private static func seq(namedIn message: String, of table: String, _ session: PostgresSession) throws -> Int64? {
        let seqs = ["events": "seq", "event_lists": "seq", "event_properties": "seq", "batches": "first_seq", "batch_signatures": "last_seq"]
        guard let column = seqs[table], let open = message.firstIndex(of: "("), let close = message[open...].firstIndex(of: ")") else { return nil }
        let inside = message[message.index(after: open)..<close]
        guard inside.split(separator: ",").count == 2, inside.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ",") }) else { return nil }
        return try session.rows("SELECT \(column) FROM \(table) WHERE ctid = ?::tid", [.text("(\(inside))")]).first?[0].int64
    }

    /// `event_properties` must hold what the originals give (`PropertyAudit`): both read in
    /// pages, in the snapshot that proved the chain, each stream's next page asked for before
    /// the rows of the one in hand are validated.
    private static func propertiesDisagree(_ session: PostgresSession, pageSize: Int) throws -> LogVerdict? {
        let types = PropertyAudit.types.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let end = try session.rows("SELECT COALESCE(MAX(seq), 0) FROM events")[0][0].int64 ?? 0
        return try PropertyAudit.compare(
            // Windows of seqs rather than a LIMIT: without the planner's statistics, a LIMIT
            // with the type condition was planned as a sort of the log from the page on.
            events: windowed(by: pageSize, through: end) { after, through in
                session.send(
                    "SELECT seq, original FROM events WHERE seq > ? AND seq <= ? AND type IN (\(types)) ORDER BY seq",
                    [.integer(after), .integer(through)])
            } rows: { row in
                (row[0].int64 ?? 0, row[1].string ?? "")
            },
            properties: paged(by: pageSize) { (last: (seq: Int64, property: EventProperty)?) in
                // Keyset pages in the key's order, each after the last row read.
                session.send(
                    """
                    SELECT seq, name, position, text, number FROM event_properties
                    WHERE (seq, name, position) > (?, ?, ?) ORDER BY seq, name, position LIMIT \(pageSize)
                    """,
                    [.integer(last?.seq ?? .min), .text(last?.property.name ?? ""), .integer(Int64(last?.property.position ?? 0))])
            } rows: { row in
                (row[0].int64 ?? 0,
                 EventProperty(name: row[1].string ?? "", position: Int(row[2].int64 ?? 0), text: row[3].string, number: row[4].double))
            })
    }

    /// Rows one at a time from windows of `size` seqs up to `end`, `window` sending the
    /// statement for the seqs after its first argument through its second; the next window is
    /// sent as soon as one's answer is taken.
    private static func windowed<Row>(
        by size: Int, through end: Int64, _ window: @escaping (Int64, Int64) -> SentStatement,
        rows decode: @escaping ([StoreValue]) -> Row
    ) -> () throws -> Row? {
        var rows: [Row] = [], next = 0, after: Int64 = 0
        var sent: SentStatement?
        func sendNext() {
            guard after < end else { return sent = nil }
            let through = min(after + Int64(size), end)
            sent = window(after, through)
            after = through
        }
        sendNext()
        return {
            while next == rows.count {
                guard let answer = sent else { return nil }
                let result = try answer.answer()
                sendNext()
                (rows, next) = (result.rows.map { decode(PostgresSession.values($0)) }, 0)
            }
            defer { next += 1 }
            return rows[next]
        }
    }

    /// Rows one at a time from pages of `size`, `page` sending the statement for the rows after
    /// the last one read (nil for the first page); a page shorter than `size` is the last. The
    /// next page is sent as soon as one's last row is known.
    private static func paged<Row>(
        by size: Int, _ page: @escaping (Row?) -> SentStatement, rows decode: @escaping ([StoreValue]) -> Row
    ) -> () throws -> Row? {
        var rows: [Row] = [], next = 0
        var sent: SentStatement? = page(nil)
        return {
            if next == rows.count {
                guard let answer = sent else { return nil }
                (rows, next) = (try answer.answer().rows.map { decode(PostgresSession.values($0)) }, 0)
                sent = rows.count < size ? nil : page(rows.last)
                if rows.isEmpty { return nil }
            }
            defer { next += 1 }
            return rows[next]
        }
    }
}
