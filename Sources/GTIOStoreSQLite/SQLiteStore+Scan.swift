import Foundation
import GRDB
import GTIOStore
import GRDBSQLite
import GTIOCatalog

extension SQLiteStore {
    /// Reads the typed columns of the events in `scope`, in `seq` order, straight from the
    /// C API: a rebuild reads the whole log, and GRDB's `Row` costs several times the C calls.
    public func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws {
        try scanRows(scope) { row in try body(LogRecord(row)) }
    }

    public func scanRows(_ scope: LogScope, _ body: (EventRow) throws -> Void) throws {
        var delivered = false
        try readDatabase { db in
            // `readDatabase` runs its body again when SQLite answers busy; once rows went to
            // `body`, starting over would deliver them twice (a catch-up would apply them twice).
            guard !delivered else { throw StoreError.busyMidScan }
            try Self.scanRows(scope, in: db) { row in
                delivered = true
                try body(row)
            }
        }
    }

    public func seqSpan(_ scope: LogScope) throws -> ClosedRange<Int64>? {
        try readDatabase { db in try Self.seqSpan(scope, in: db) }
    }

    /// The span of `scope` from `event_days` (its days' first and last seqs) and the log's end.
    static func seqSpan(_ scope: LogScope, in db: Database) throws -> ClosedRange<Int64>? {
        var lower = scope.afterSeq + 1
        var upper = min(scope.throughSeq ?? .max, try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM events")) ?? 0)
        if let atLeast = scope.atLeast {
            guard let days = try EventDays.seqs(atLeast: atLeast, atMost: scope.atMost ?? .max, in: db) else { return nil }
            lower = max(lower, days.lowerBound)
            upper = min(upper, days.upperBound)
        }
        return lower <= upper ? lower...upper : nil
    }

    /// Steps a raw statement: true with a row ready, false when done, throwing SQLite's error.
    static func nextRow(_ handle: OpaquePointer, in db: Database) throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return true
    }

    /// The same scan on a connection the caller holds, e.g. inside a write transaction.
    public static func scan(_ scope: LogScope, in db: Database, _ body: (LogRecord) throws -> Void) throws {
        try scanRows(scope, in: db) { row in try body(LogRecord(row)) }
    }

    /// The index on the columns most scans of a window read (`seq, type, at, user, device,
    /// value`), and the columns it holds beside the envelope's.
    static let windowIndex = "events_window"
    static let windowColumns: LogColumns = [.user, .device, .value]

    /// Steps through the events of `scope` in `seq` order, handing `body` each row as SQLite
    /// holds it: for readers that key ids from their bytes rather than making strings first.
    static func scanRows(_ scope: LogScope, in db: Database, _ body: (EventRow) throws -> Void) throws {
        var scope = scope
        if scope.atLeast != nil {
            // A time range reads only the seqs of its days' events, rather than from `afterSeq`
            // to the end: SQLite walks the seqs and tests each row's `at`, and an insight's 30
            // days at the end of a long log would read every page before them.
            guard let seqs = try seqSpan(scope, in: db) else { return }
            scope.afterSeq = seqs.lowerBound - 1
            scope.throughSeq = seqs.upperBound
        }
        let statement = try db.makeStatement(sql: scanSQL(scope))
        let handle = statement.sqliteStatement
        var index: Int32 = 1
        sqlite3_bind_int64(handle, index, scope.afterSeq)
        if let through = scope.throughSeq { index += 1; sqlite3_bind_int64(handle, index, through) }
        if let atMost = scope.atMost { index += 1; sqlite3_bind_int64(handle, index, atMost) }
        if let atLeast = scope.atLeast { index += 1; sqlite3_bind_int64(handle, index, atLeast) }
        let cursor = SQLiteRowCursor(
            handle: handle, columns: scope.columns, lists: try ListCursor(afterSeq: scope.afterSeq, in: db),
            properties: try PropertyCursor(afterSeq: scope.afterSeq, in: db))
        var scanned = 0
        defer { LogScanCounter.add(scanned) }
        while try nextRow(handle, in: db) {
            scanned += 1
            let seq = sqlite3_column_int64(handle, 0)
            if seq & 0xFFF == 0 && Interruption.isRequested { throw StoreError.interrupted }
            guard let name = SQLiteRowCursor.bytes(handle, 1), let type = EventType.named(utf8: name) else {
                throw StoreError.database("event \(seq) has a type unknown to this gtio")
            }
            try body(EventRow(seq: seq, type: type, at: sqlite3_column_int64(handle, 2), cursor: cursor))
        }
    }

    /// The statement of `scanRows` for `scope` (its days already turned into seqs), its bounds
    /// as parameters in the order `scanRows` binds them.
    static func scanSQL(_ scope: LogScope) -> String {
        // Columns the reader will not ask for are NULL in place, keeping every column's position.
        let named: [(String, LogColumns)] = [
            ("user", .user), ("device", .device), ("subject", .subject), ("object", .object), ("value", .value),
            ("flag", .flag), ("text", .text), ("number", .number),
        ]
        let values = named.map { scope.columns.contains($0.1) ? $0.0 : "NULL" }.joined(separator: ", ")
        // A scan whose columns the window index holds reads the index, the others the rows:
        // said explicitly, as SQLite's choice between the two shifts with its statistics.
        let access = scope.columns.isSubset(of: windowColumns) ? "INDEXED BY \(windowIndex)" : "NOT INDEXED"
        var sql = "SELECT seq, type, at, \(values) FROM events \(access) WHERE seq > ?"
        if scope.throughSeq != nil { sql += " AND seq <= ?" }
        if scope.atMost != nil { sql += " AND at <= ?" }
        if scope.atLeast != nil { sql += " AND at >= ?" }
        if let types = scope.types {
            // A few types as equalities: SQLite tests an IN list of several through a temporary
            // index, a look-up per row (a 600 k-row window with three types: 83 ms against 77).
            let names = types.map { "'\($0.rawValue)'" }
            sql += names.count <= 8 ? " AND (" + names.map { "type = \($0)" }.joined(separator: " OR ") + ")"
                : " AND type IN (" + names.joined(separator: ",") + ")"
        }
        sql += " ORDER BY seq"
        return sql
    }
}
