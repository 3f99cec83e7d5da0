import GRDB

/// Tables in memory: the read models of an as-of view, written once and queried like a store's.
public final class ScratchTables: TableSource, @unchecked Sendable {
    // @unchecked: a DatabaseQueue serializes every access itself.
    private let queue: DatabaseQueue

    public init() throws {
        queue = try DatabaseQueue()
        // The table every read-model write moves its checkpoint in, as in a store.
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE checkpoints (name TEXT PRIMARY KEY, seq INTEGER NOT NULL, updated INTEGER NOT NULL)")
        }
    }

    /// Runs `body` in a write transaction on the scratch database.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.write(body)
    }

    public func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T {
        try queue.read { db in try body(SQLiteTableReader(db)) }
    }
}
