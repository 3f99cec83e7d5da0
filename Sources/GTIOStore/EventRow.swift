import GRDB
import GRDBSQLite
import GTIOCatalog

/// The event a scan is on, read straight from SQLite's row: its bytes are only valid during the
/// scan's call for this row, so keep what you need as values, not the row.
public struct EventRow {
    /// The columns of an event that hold text.
    public enum TextColumn: Int32, Sendable {
        case user = 3, device = 4, subject = 5, object = 6, value = 7, text = 9
    }

    let handle: OpaquePointer
    let lists: ListCursor
    public let seq: Int64
    public let type: EventType

    public var at: Int64 { sqlite3_column_int64(handle, 2) }

    public var flag: Bool? {
        sqlite3_column_type(handle, 8) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 8) != 0
    }

    /// The column's UTF-8 bytes, nil when it is NULL.
    public func bytes(_ column: TextColumn) -> UnsafeBufferPointer<UInt8>? {
        Self.bytes(handle, column.rawValue)
    }

    public func text(_ column: TextColumn) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of each user a `quickadd.shown` listed, in order.
    public func forEachListed(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard type == .quickaddShown else { return }
        try lists.forEach(seq: seq, body)
    }

    /// The users a `quickadd.shown` listed; empty for every other type.
    public func listed() throws -> [String] {
        var users: [String] = []
        try forEachListed { users.append(String(decoding: $0, as: UTF8.self)) }
        return users
    }

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
            if let user = EventRow.bytes(statement.sqliteStatement, 1) { try body(user) }
            try advance()
        }
    }

    private func advance() throws {
        let handle = statement.sqliteStatement
        current = try EventStore.nextRow(handle, in: db) ? sqlite3_column_int64(handle, 0) : nil
    }
}
