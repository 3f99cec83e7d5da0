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
    let lists: Statement
    let db: Database
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
        let statement = lists.sqliteStatement
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, seq)
        defer { sqlite3_reset(statement) }
        while try EventStore.nextRow(statement, in: db) {
            if let user = Self.bytes(statement, 0) { try body(user) }
        }
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
