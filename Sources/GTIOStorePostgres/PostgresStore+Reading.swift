import GTIOCatalog
import GTIOStore
import NIOCore
import PostgresNIO

extension PostgresStore {
    public func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws {
        try scanRows(scope) { row in try body(LogRecord(row)) }
    }

    public func scanRows(_ scope: LogScope, _ body: (EventRow) throws -> Void) throws {
        try read { session in try Self.scanRows(scope, in: session, companion: companion(of: session), body) }
    }

    /// `scan(_:_:)` in windows of `pageSize` seqs, for tests that cross windows on a small log.
    public func scan(_ scope: LogScope, pageSize: Int, _ body: (LogRecord) throws -> Void) throws {
        try read { session in
            try Self.scanRows(scope, in: session, pageSize: pageSize, companion: companion(of: session)) { row in try body(LogRecord(row)) }
        }
    }

    /// Runs its argument with a second connection of the pool in the snapshot of `session`'s
    /// transaction, for a scan to read every other window on; false, without running it, when
    /// there is none to be had (the server's connections all taken, or a standby, where older
    /// releases refuse to export a snapshot and the refusal would end `session`'s transaction).
    private func companion(of session: PostgresSession) -> Companion {
        { body in
            let exported = try session.rows("SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_export_snapshot() END")
            guard let snapshot = exported.first?.first?.string else { return false }
            var joined = false
            do {
                try self.withSession { second in
                    try second.readOnlyTransaction(snapshot: snapshot) {
                        joined = true
                        try body(second)
                    }
                }
            } catch where !joined {
                return false
            }
            return true
        }
    }

    /// A way to run a body with a second session that reads the same snapshot as the first:
    /// true when it ran it.
    typealias Companion = ((PostgresSession) throws -> Void) throws -> Bool

    /// Events read a window of seqs at a time in seq order, each window with its lists and
    /// properties, all within the caller's transaction (one snapshot for the whole scan); each
    /// window's events come as one row of arrays (`PostgresPage`).
    ///
    /// A page is a window of `pageSize` seqs, not the next rows up to a limit: on a log the
    /// planner has no statistics for yet (right after a large ingest, before autovacuum comes
    /// by), `seq > ? AND seq <= ? ORDER BY seq LIMIT ?` is planned as a fetch and sort of every
    /// row from the page to the scan's end, page after page. A window costs its own rows
    /// whatever the plan, and since seq is gapless it holds a full page (fewer when the scope
    /// picks types or times).
    ///
    /// The next window is asked for as soon as this one has come, before the caller goes through
    /// it: the server builds it while the caller works. With a `companion`, a second session in
    /// the same snapshot builds every other window beside the first: a server backend takes
    /// longer to build a window (~45 ms for 20,000 events) than the fold to apply it (~28 ms),
    /// and two backends together outrun it (docs/PERFORMANCE.md). A scope of one window, or a
    /// companion that cannot be had (the server's connections all taken), reads on `session`
    /// alone.
    static func scanRows(
        _ scope: LogScope, in session: PostgresSession, pageSize: Int = PostgresPage.size, companion: Companion? = nil,
        _ body: (EventRow) throws -> Void
    ) throws {
        // The scope's own conditions, its end aside: each window has one.
        var unbounded = scope
        unbounded.throughSeq = nil
        var (conditions, times) = bounds(of: unbounded)
        conditions += " AND seq <= ?"
        if let types = scope.types { conditions += " AND type IN (" + types.map { "'\($0.rawValue)'" }.joined(separator: ",") + ")" }
        let sql = PostgresPage.query(picking: conditions)
        // The scope's types may have no lists or properties to read.
        let lists = scope.types.map { $0.contains { $0.columns.contains(.list) } } ?? true
        let properties = scope.types.map { $0.contains { $0.columns.contains(.properties) } } ?? true
        // The windows cover the seqs from the scope's first event to its last: a few when it
        // asks for a short time (found through the index on `at`), and none before the log's
        // first seq however far before it the scope begins.
        let (spanConditions, spanValues) = bounds(of: scope)
        let span = try session.rows("SELECT MIN(seq), MAX(seq) FROM events WHERE \(spanConditions)", [.integer(scope.afterSeq)] + spanValues)[0]
        guard let first = span[0].int64, let end = span[1].int64 else { return }
        // A window's events, lists and properties, asked for at once.
        func window(after seq: Int64, on session: PostgresSession) -> Window {
            let range: [StoreValue] = [.integer(seq), .integer(min(seq + Int64(pageSize), end))]
            return (
                session.send(sql, [range[0]] + times + [range[1]]),
                lists ? session.send("SELECT seq, user FROM event_lists WHERE seq > ? AND seq <= ? ORDER BY seq, position", range) : nil,
                properties
                    ? session.send(
                        "SELECT seq, name, position, text, number FROM event_properties WHERE seq > ? AND seq <= ? ORDER BY seq, name, position",
                        range)
                    : nil)
        }
        // The windows in seq order, window i read on sessions[i % sessions.count]; as many asked
        // for ahead as there are sessions, each session's next one as soon as its last has come.
        func readWindows(on sessions: [PostgresSession]) throws {
            var asked = first - 1, sent = 0
            var pending: [Window] = []
            func askNext() {
                guard asked < end else { return }
                pending.append(window(after: asked, on: sessions[sent % sessions.count]))
                sent += 1
                asked = min(asked + Int64(pageSize), end)
            }
            for _ in sessions { askNext() }
            let page = PostgresPage()
            var scanned = 0
            defer { LogScanCounter.add(scanned) }
            while !pending.isEmpty {
                if Interruption.isRequested { throw StoreError.interrupted }
                let answer = pending.removeFirst()
                let events = try answer.events.answer().rows
                let listed = try answer.lists?.answer().rows ?? []
                let described = try answer.properties?.answer().rows ?? []
                askNext()
                try page.load(events, lists: listed, properties: described)
                for index in 0..<page.count {
                    page.current = index
                    try body(EventRow(seq: page.seqs[index], type: page.types[index], at: page.ats[index], cursor: page))
                }
                scanned += page.count
            }
        }
        if let companion, end - first >= Int64(pageSize), try companion({ second in try readWindows(on: [session, second]) }) { return }
        try readWindows(on: [session])
    }

    /// A window's statements, sent: its events, and its lists and properties when the scope's
    /// types have any.
    typealias Window = (events: SentStatement, lists: SentStatement?, properties: SentStatement?)

    public func readEvents(in range: ClosedRange<Int64>, _ body: (StoredEvent) throws -> Void) throws {
        try read { session in
            var from = range.lowerBound
            while from <= range.upperBound {
                let events = try Self.storedEvents(
                    "SELECT \(Self.eventColumns) FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq LIMIT 5000",
                    [.integer(from), .integer(range.upperBound)], in: session)
                for event in events { try body(event) }
                guard let last = events.last, events.count == 5000 else { return }
                from = last.seq + 1
            }
        }
    }

    public func events(matching filter: EventFilter) throws -> [StoredEvent] {
        try read { session in
            let (sql, arguments) = filter.sql(columns: Self.eventColumns)
            var events = try Self.storedEvents(sql, arguments, in: session)
            if filter.newestFirst { events.reverse() }
            return events
        }
    }

    public func event(at seq: Int64) throws -> StoredEvent? {
        try read { session in
            try Self.storedEvents("SELECT \(Self.eventColumns) FROM events WHERE seq = ?", [.integer(seq)], in: session).first
        }
    }

    static let eventColumns = "seq, id, type, at, recorded, user, device, v, subject, object, value, flag, number, text, original, batch"

    /// Whole events `sql` selects (`eventColumns`), each with its list.
    static func storedEvents(_ sql: String, _ arguments: [StoreValue], in session: PostgresSession) throws -> [StoredEvent] {
        try storedEvents(session.rows(sql, arguments), in: session)
    }

    /// Whole events from rows that begin with `eventColumns`, each with its list.
    static func storedEvents(_ rows: [[StoreValue]], in session: PostgresSession) throws -> [StoredEvent] {
        let shown = rows.filter { $0[2].string == EventType.quickaddShown.rawValue }.compactMap { $0[0].int64 }
        var lists: [Int64: [String]] = [:]
        if !shown.isEmpty {
            let listed = try session.rows(
                "SELECT seq, user FROM event_lists WHERE seq IN (\(shown.map(String.init).joined(separator: ","))) ORDER BY seq, position")
            for row in listed { lists[row[0].int64 ?? 0, default: []].append(row[1].string ?? "") }
        }
        return try rows.map { row in
            let seq = row[0].int64 ?? 0
            let typeName = row[2].string ?? ""
            guard let type = EventType.named(typeName) else {
                throw StoreError.database("event \(seq) has type \(typeName), unknown to this gtio")
            }
            let event = ValidatedEvent(
                id: row[1].string ?? "", type: type, at: Timestamp(milliseconds: row[3].int64 ?? 0), user: row[5].string,
                device: row[6].string, version: row[7].int64 ?? 0, subject: row[8].string, object: row[9].string,
                value: row[10].string, flag: row[11].int64.map { $0 != 0 }, number: row[12].double, text: row[13].string,
                list: lists[seq] ?? [], original: row[14].string ?? "")
            return StoredEvent(seq: seq, recorded: Timestamp(milliseconds: row[4].int64 ?? 0), batch: row[15].int64 ?? 0, event: event)
        }
    }

    /// The conditions of `scope` but its types, as `seq > ? AND …`, and the values of all but
    /// the first `?` (the seq to read after, which a paged scan moves on).
    private static func bounds(of scope: LogScope) -> (conditions: String, values: [StoreValue]) {
        var conditions = "seq > ?"
        var values: [StoreValue] = []
        if let through = scope.throughSeq { conditions += " AND seq <= ?"; values.append(.integer(through)) }
        if let atMost = scope.atMost { conditions += " AND at <= ?"; values.append(.integer(atMost)) }
        if let atLeast = scope.atLeast { conditions += " AND at >= ?"; values.append(.integer(atLeast)) }
        return (conditions, values)
    }

    public func seqSpan(_ scope: LogScope) throws -> ClosedRange<Int64>? {
        try read { session in
            let (conditions, values) = Self.bounds(of: scope)
            let row = try session.rows("SELECT MIN(seq), MAX(seq) FROM events WHERE \(conditions)", [.integer(scope.afterSeq)] + values)[0]
            guard let first = row[0].int64, let last = row[1].int64 else { return nil }
            return first...last
        }
    }

    public func timeExtent(throughSeq: Int64?, atMost: Int64?) throws -> ClosedRange<Int64>? {
        try read { session in
            var sql = "SELECT MIN(at), MAX(at) FROM events WHERE TRUE"
            var arguments: [StoreValue] = []
            if let throughSeq { sql += " AND seq <= ?"; arguments.append(.integer(throughSeq)) }
            if let atMost { sql += " AND at <= ?"; arguments.append(.integer(atMost)) }
            let row = try session.rows(sql, arguments)[0]
            guard let first = row[0].int64, let last = row[1].int64, first <= last else { return nil }
            return first...last
        }
    }

    public func status() throws -> StoreStatus {
        try read { session in
            // Index look-ups rather than a count: see `SQLiteStore.status()`.
            let row = try session.rows("""
                SELECT (SELECT MIN(seq) FROM events), (SELECT MAX(seq) FROM events),
                       (SELECT MIN(at) FROM events), (SELECT MAX(at) FROM events)
                """)[0]
            let firstSeq = row[0].int64, lastSeq = row[1].int64 ?? 0
            let checkpoints = try session.rows("SELECT name, seq FROM checkpoints ORDER BY name")
                .map { (name: $0[0].string ?? "", seq: $0[1].int64 ?? 0) }
            return StoreStatus(
                path: location,
                events: firstSeq.map { lastSeq - $0 + 1 } ?? 0,
                lastSeq: lastSeq,
                firstAt: row[2].int64.map(Timestamp.init(milliseconds:)),
                lastAt: row[3].int64.map(Timestamp.init(milliseconds:)),
                batches: try session.rows("SELECT COUNT(*) FROM batches")[0][0].int64 ?? 0,
                quarantined: try session.rows("SELECT COUNT(*) FROM quarantine WHERE status = 'open'")[0][0].int64 ?? 0,
                sizeBytes: try session.rows("SELECT pg_database_size(current_database())")[0][0].int64 ?? 0,
                checkpoints: checkpoints)
        }
    }

    public func lastSignature() throws -> BatchSignature? {
        try read { session in
            try session.rows("""
                SELECT batch, last_seq, head, record, public_key, signature FROM batch_signatures ORDER BY batch DESC LIMIT 1
                """).first.map(Self.signature)
        }
    }

    static func signature(_ row: [StoreValue]) -> BatchSignature {
        func bytes(_ index: Int) -> [UInt8] { if case .blob(let bytes) = row[index] { bytes } else { [] } }
        return BatchSignature(
            batch: row[0].int64 ?? 0, lastSeq: row[1].int64 ?? 0, head: bytes(2), record: bytes(3), publicKey: bytes(4),
            signature: bytes(5))
    }
}
