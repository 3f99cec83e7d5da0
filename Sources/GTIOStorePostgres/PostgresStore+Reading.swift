import GTIOCatalog
import GTIOStore
import NIOCore
import PostgresNIO

extension PostgresStore {
    public func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws {
        try scanRows(scope) { row in try body(LogRecord(row)) }
    }

    public func scanRows(_ scope: LogScope, _ body: (EventRow) throws -> Void) throws {
        try read { session in try Self.scanRows(scope, in: session, body) }
    }

    /// `scan(_:_:)` in windows of `pageSize` seqs, for tests that cross windows on a small log.
    public func scan(_ scope: LogScope, pageSize: Int, _ body: (LogRecord) throws -> Void) throws {
        try read { session in try Self.scanRows(scope, in: session, pageSize: pageSize) { row in try body(LogRecord(row)) } }
    }

    /// Events read a page at a time in seq order, each page with its lists and properties, all
    /// within the caller's transaction (one snapshot for the whole scan).
    ///
    /// A page is a window of `pageSize` seqs, not the next rows up to a limit: on a log the
    /// planner has no statistics for yet (right after a large ingest, before autovacuum comes
    /// by), `seq > ? AND seq <= ? ORDER BY seq LIMIT ?` is planned as a fetch and sort of every
    /// row from the page to the scan's end, page after page. A window costs its own rows
    /// whatever the plan, and since seq is gapless it holds a full page (fewer when the scope
    /// picks types or times).
    ///
    /// The next window is asked for as soon as this one has come, before the caller goes through
    /// it: the server reads it, and the event loop takes it in, while the caller works.
    static func scanRows(
        _ scope: LogScope, in session: PostgresSession, pageSize: Int = PostgresPage.size, _ body: (EventRow) throws -> Void
    ) throws {
        var conditions = "seq > ? AND seq <= ?"
        var fixed: [StoreValue] = []
        if let atMost = scope.atMost { conditions += " AND at <= ?"; fixed.append(.integer(atMost)) }
        if let atLeast = scope.atLeast { conditions += " AND at >= ?"; fixed.append(.integer(atLeast)) }
        if let types = scope.types { conditions += " AND type IN (" + types.map { "'\($0.rawValue)'" }.joined(separator: ",") + ")" }
        let sql = """
            SELECT seq, type, at, user, device, subject, object, value, text, flag, number FROM events
            WHERE \(conditions) ORDER BY seq
            """
        // The windows cover the seqs from the scope's first event to its last: a few when it
        // asks for a short time (found through the index on `at`), and none before the log's
        // first seq however far before it the scope begins.
        let (spanConditions, spanValues) = bounds(of: scope)
        let span = try session.rows("SELECT MIN(seq), MAX(seq) FROM events WHERE \(spanConditions)", [.integer(scope.afterSeq)] + spanValues)[0]
        guard let first = span[0].int64, let end = span[1].int64 else { return }
        func window(after seq: Int64) -> SentStatement {
            session.send(sql, [.integer(seq), .integer(min(seq + Int64(pageSize), end))] + fixed)
        }
        var after = first - 1
        var next = window(after: after)
        let page = PostgresPage()
        var scanned = 0
        defer { LogScanCounter.add(scanned) }
        while after < end {
            if Interruption.isRequested { throw StoreError.interrupted }
            let rows = try next.answer().rows
            after = min(after + Int64(pageSize), end)
            guard let first = rows.first, let last = rows.last else {
                if after < end { next = window(after: after) }
                continue
            }
            let firstSeq = try PostgresRandomAccessRow(first)[0].decode(Int64.self)
            let lastSeq = try PostgresRandomAccessRow(last)[0].decode(Int64.self)
            // The page's lists and properties first: the connection answers in order, and the
            // page waits for them, not for the next window.
            let lists = session.send(
                "SELECT seq, user FROM event_lists WHERE seq BETWEEN ? AND ? ORDER BY seq, position",
                [.integer(firstSeq), .integer(lastSeq)])
            let properties = session.send(
                "SELECT seq, name, position, text, number FROM event_properties WHERE seq BETWEEN ? AND ? ORDER BY seq, name, position",
                [.integer(firstSeq), .integer(lastSeq)])
            if after < end { next = window(after: after) }
            try page.load(rows, lists: lists.answer().rows, properties: properties.answer().rows)
            for index in 0..<page.count {
                page.current = index
                try body(EventRow(seq: page.seqs[index], type: page.types[index], at: page.ats[index], cursor: page))
            }
            scanned += rows.count
        }
    }

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

/// One page of a raw scan, its text kept in one buffer that lives until the next page: what
/// `EventRow` reads in place, as it reads SQLite's column buffers.
final class PostgresPage: EventRowCursor {
    static let size = 20_000

    private(set) var count = 0
    var current = 0
    private(set) var seqs: [Int64] = []
    private(set) var types: [EventType] = []
    private(set) var ats: [Int64] = []
    private var flags: [Bool?] = []
    private var numbers: [Double?] = []
    /// Per row, six text columns as (start, count) in `text`; count -1 for NULL.
    private var spans: [Int32] = []
    /// The page's text while it is loaded, then `stored`, whose address never moves.
    private var text: [UInt8] = []
    private var stored = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var lists: [Int64: [String]] = [:]
    private var properties: [Int64: [EventProperty]] = [:]

    /// Takes in a page's rows. Each row's cells are read in turn (a `PostgresRandomAccessRow`
    /// builds an array of them per row, and decoding a tuple is not specialized), into local
    /// arrays (the class's own are checked for exclusive access at every append).
    func load(_ rows: [PostgresRow], lists listRows: [PostgresRow], properties propertyRows: [PostgresRow]) throws {
        var seqs = Self.emptied(&self.seqs), types = Self.emptied(&self.types), ats = Self.emptied(&self.ats)
        var flags = Self.emptied(&self.flags), numbers = Self.emptied(&self.numbers)
        var spans = Self.emptied(&self.spans), text = Self.emptied(&self.text)
        count = 0
        lists.removeAll(keepingCapacity: true)
        properties.removeAll(keepingCapacity: true)
        stored.deallocate()
        stored = .allocate(capacity: 1)
        for row in rows {
            var cells = row.makeIterator()
            let seq = try cells.next()!.decode(Int64.self)
            let typeName = cells.next()!.bytes
            let type = typeName?.readableBytesView.withContiguousStorageIfAvailable(EventType.named(utf8:)) ?? nil
            guard let type else {
                throw StoreError.database("event \(seq) has type \(typeName.map { String(buffer: $0) } ?? "NULL"), unknown to this gtio")
            }
            seqs.append(seq)
            types.append(type)
            ats.append(try cells.next()!.decode(Int64.self))
            for _ in 0..<6 {
                guard let bytes = cells.next()!.bytes else {
                    spans.append(0)
                    spans.append(-1)
                    continue
                }
                spans.append(Int32(text.count))
                spans.append(Int32(bytes.readableBytes))
                text.append(contentsOf: bytes.readableBytesView)
            }
            flags.append(try cells.next()!.decode(Int64?.self).map { $0 != 0 })
            numbers.append(try cells.next()!.decode(Double?.self))
        }
        for row in listRows {
            var cells = row.makeIterator()
            let seq = try cells.next()!.decode(Int64.self)
            lists[seq, default: []].append(try cells.next()!.decode(String.self))
        }
        for row in propertyRows {
            var cells = row.makeIterator()
            let seq = try cells.next()!.decode(Int64.self)
            let name = try cells.next()!.decode(String.self), position = try cells.next()!.decode(Int64.self)
            let value = try cells.next()!.decode(String?.self), number = try cells.next()!.decode(Double?.self)
            properties[seq, default: []].append(EventProperty(name: name, position: Int(position), text: value, number: number))
        }
        stored.deallocate()
        stored = .allocate(capacity: max(text.count, 1))
        _ = stored.initialize(from: text)
        (self.seqs, self.types, self.ats, self.flags, self.numbers, self.spans, self.text) = (seqs, types, ats, flags, numbers, spans, text)
        count = rows.count
    }

    /// `array` emptied, its storage kept, and left empty in its place.
    private static func emptied<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    func bytes(_ column: EventRow.TextColumn) -> UnsafeBufferPointer<UInt8>? {
        let index = (current * 6 + column.rawValue) * 2
        let length = spans[index + 1]
        guard length >= 0 else { return nil }
        let start = Int(spans[index])
        return UnsafeBufferPointer(rebasing: stored[start..<start + Int(length)])
    }

    deinit { stored.deallocate() }

    func flag() -> Bool? { flags[current] }
    func number() -> Double? { numbers[current] }

    func forEachProperty(seq: Int64, _ body: (EventProperty) throws -> Void) throws {
        for property in properties[seq] ?? [] { try body(property) }
    }

    func forEachListed(seq: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        for var user in lists[seq] ?? [] { try user.withUTF8 { try body($0) } }
    }
}
