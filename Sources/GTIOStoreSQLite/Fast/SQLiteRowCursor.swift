import GRDB
import GRDBSQLite
import GTIOStore

/// The columns of the row an SQLite statement over `events` is on, read through the C API:
/// a rebuild reads the whole log, and GRDB's `Row` costs several times these calls.
final class SQLiteRowCursor: EventRowCursor {
    private let handle: OpaquePointer
    private let lists: ListCursor

    /// `handle` selects `seq, type, at, user, device, subject, object, value, flag, text` in that order.
    init(handle: OpaquePointer, lists: ListCursor) {
        self.handle = handle
        self.lists = lists
    }

    func bytes(_ column: EventRow.TextColumn) -> UnsafeBufferPointer<UInt8>? {
        Self.bytes(handle, Self.index[column.rawValue])
    }

    func flag() -> Bool? {
        sqlite3_column_type(handle, 8) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 8) != 0
    }

    func forEachListed(seq: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try lists.forEach(seq: seq, body)
    }

    /// The statement's column of each `EventRow.TextColumn`.
    private static let index: [Int32] = [3, 4, 5, 6, 7, 9]

    static func bytes(_ statement: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }
}

/// Steps through `event_lists` beside the events of a scan, both in `seq` order: one pass for
/// the whole scan where a query per `quickadd.shown` cost ~10 k instructions each.
final class ListCursor {
    private let statement: Statement
    private let db: Database
    private var started = false
    /// The seq of the entry the cursor is on; nil past the last.
    private var current: Int64?

    /// A cursor over the entries of events after `afterSeq`.
    init(afterSeq: Int64, in db: Database) throws {
        statement = try db.makeStatement(sql: "SELECT seq, user FROM event_lists WHERE seq > ? ORDER BY seq, position")
        self.db = db
        sqlite3_bind_int64(statement.sqliteStatement, 1, afterSeq)
    }

    /// Calls `body` with each entry of event `seq`, skipping the entries of events before it
    /// (events a scan left out, such as those after an as-of moment).
    func forEach(seq: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if !started {
            started = true
            try advance()
        }
        while let entry = current, entry < seq { try advance() }
        while current == seq {
            if let user = SQLiteRowCursor.bytes(statement.sqliteStatement, 1) { try body(user) }
            try advance()
        }
    }

    private func advance() throws {
        let handle = statement.sqliteStatement
        current = try SQLiteStore.nextRow(handle, in: db) ? sqlite3_column_int64(handle, 0) : nil
    }
}
