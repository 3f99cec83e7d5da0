import GRDB
import GRDBSQLite
import GTIOCatalog
import GTIOStore

/// The columns of the row an SQLite statement over `events` is on, read through the C API:
/// a rebuild reads the whole log, and GRDB's `Row` costs several times these calls.
final class SQLiteRowCursor: EventRowCursor {
    private let handle: OpaquePointer
    /// The columns the scan selected; the others read as NULL.
    private let columns: LogColumns
    private let lists: ListCursor
    private let properties: PropertyCursor

    /// `handle` selects `seq, type, at, user, device, subject, object, value, flag, text, number`
    /// in that order, with NULL in place of each column not in `columns`.
    init(handle: OpaquePointer, columns: LogColumns, lists: ListCursor, properties: PropertyCursor) {
        self.handle = handle
        self.columns = columns
        self.lists = lists
        self.properties = properties
    }

    func bytes(_ column: EventRow.TextColumn) -> UnsafeBufferPointer<UInt8>? {
        assert(columns.contains(LogColumns(column)), "a scan read the \(column) column it did not select")
        return Self.bytes(handle, Self.index[column.rawValue])
    }

    func flag() -> Bool? {
        assert(columns.contains(.flag), "a scan read the flag column it did not select")
        return sqlite3_column_type(handle, 8) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 8) != 0
    }

    func number() -> Double? {
        assert(columns.contains(.number), "a scan read the number column it did not select")
        return sqlite3_column_type(handle, 10) == SQLITE_NULL ? nil : sqlite3_column_double(handle, 10)
    }

    func forEachListed(seq: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try lists.forEach(seq: seq, body)
    }

    func forEachProperty(seq: Int64, _ body: (EventProperty) throws -> Void) throws {
        try properties.forEach(seq: seq, body)
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

/// Steps through `event_properties` beside the events of a scan, both in `seq` order, as
/// `ListCursor` does for lists: only the few events with nested fields have rows.
final class PropertyCursor {
    private let statement: Statement
    private let db: Database
    private var started = false
    private var current: Int64?

    /// A cursor over the properties of events after `afterSeq`.
    init(afterSeq: Int64, in db: Database) throws {
        statement = try db.makeStatement(
            sql: "SELECT seq, name, position, text, number FROM event_properties WHERE seq > ? ORDER BY seq, name, position")
        self.db = db
        sqlite3_bind_int64(statement.sqliteStatement, 1, afterSeq)
    }

    /// Calls `body` with each property of event `seq`, skipping those of events before it.
    func forEach(seq: Int64, _ body: (EventProperty) throws -> Void) throws {
        try start()
        while let entry = current, entry < seq { try advance() }
        while current == seq {
            try body(property())
            try advance()
        }
    }

    /// The next row whatever its seq, nil past the last: for a walk of the table itself.
    func next() throws -> (seq: Int64, property: EventProperty)? {
        try start()
        guard let seq = current else { return nil }
        let row = (seq, property())
        try advance()
        return row
    }

    /// The property of the row the cursor is on.
    private func property() -> EventProperty {
        let handle = statement.sqliteStatement
        let name = SQLiteRowCursor.bytes(handle, 1).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let text = SQLiteRowCursor.bytes(handle, 3).map { String(decoding: $0, as: UTF8.self) }
        let number = sqlite3_column_type(handle, 4) == SQLITE_NULL ? nil : sqlite3_column_double(handle, 4)
        return EventProperty(name: name, position: Int(sqlite3_column_int64(handle, 2)), text: text, number: number)
    }

    private func start() throws {
        guard !started else { return }
        started = true
        try advance()
    }

    private func advance() throws {
        let handle = statement.sqliteStatement
        current = try SQLiteStore.nextRow(handle, in: db) ? sqlite3_column_int64(handle, 0) : nil
    }
}
