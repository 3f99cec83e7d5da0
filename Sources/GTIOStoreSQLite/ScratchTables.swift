import GRDB
import GTIOStore

/// Tables in memory: the read models of an as-of view, written once and queried like a store's.
final class ScratchTables: TableStore, @unchecked Sendable {
    // @unchecked: a DatabaseQueue serializes every access itself.
    private let queue: DatabaseQueue

    init() throws {
        SQLiteLibrary.configure()
        queue = try DatabaseQueue()
        // The table every read-model write moves its checkpoint in, as in a store.
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE checkpoints (name TEXT PRIMARY KEY, seq INTEGER NOT NULL, updated INTEGER NOT NULL)")
        }
    }

    func writeTables<T>(_ body: (any TableWriting) throws -> T) throws -> T {
        try translated { try queue.write { db in try body(SQLiteTransaction(db: db)) } }
    }

    func scratchTables() throws -> any TableStore {
        try ScratchTables()
    }

    func discardTables(prefix: String) throws {
        try translated {
            try queue.write { db in
                for name in try SQLiteTableReader(db).tableNames(prefix: prefix) { try db.drop(table: name) }
            }
        }
    }

    func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T {
        try translated { try queue.read { db in try body(SQLiteTableReader(db)) } }
    }

    /// Runs `body`, its SQLite errors turned into store errors as a store's are: nothing above
    /// the store sees GRDB's types.
    private func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError.database("a view's tables in memory: \(error.message ?? "\(error)")")
        }
    }
}

extension SQLiteStore {
    /// Empty tables in this process's memory, of the kind an as-of view folds into: for stores
    /// of other backends, whose views are folded the same way.
    public static func memoryTables() throws -> any TableStore {
        try ScratchTables()
    }
}
