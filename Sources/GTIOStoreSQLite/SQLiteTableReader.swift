import Foundation
import GRDB
import GRDBSQLite
import GTIOStore

/// `TableReading` over one SQLite connection inside a read transaction.
struct SQLiteTableReader: TableReading {
    let db: Database
    /// The schema the tables are found in: `main` for the tables file's own connections and
    /// scratch tables, `tables` for the log's connections.
    let schema: String

    init(_ db: Database, schema: String = "main") {
        self.db = db
        self.schema = schema
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [[StoreValue]] {
        var result: [[StoreValue]] = []
        try forEachRow(sql, arguments) { row in
            result.append(row)
            return true
        }
        return result
    }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: ([StoreValue]) throws -> Bool) throws {
        let statement = try db.cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments.map(\.databaseValue)))
        while let row = try cursor.next() {
            guard try body(row.databaseValues.map(StoreValue.init)) else { return }
        }
    }

    /// Steps the statement itself: a column is read from SQLite only when `body` asks for it.
    func forEachRow(_ sql: String, _ arguments: [StoreValue], expecting rows: Int?, reading body: (any TableRow) throws -> Bool) throws {
        let statement = SQLiteStatementBinding(try db.cachedStatement(sql: sql))
        statement.bind(arguments)
        try statement.forEachRow(db) { try body(SQLiteRow(handle: $0)) }
    }

    func forEachBlob(_ sql: String, _ arguments: [StoreValue], _ body: (UnsafeRawBufferPointer?) throws -> Bool) throws {
        let statement = try db.cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments.map(\.databaseValue)))
        while let row = try cursor.next() {
            // The cursor's row reads the statement's current column in place: no copy into a `Data`.
            guard sqlite3_column_type(statement.sqliteStatement, 0) == SQLITE_BLOB else {
                if try body(nil) { continue } else { return }
            }
            let more = try row.withUnsafeData(atIndex: 0) { data -> Bool in
                guard let data else { return try body(nil) }
                return try data.withUnsafeBytes { try body($0) }
            }
            guard more else { return }
        }
    }

    /// One look-up of the name, where `tableNames` matches a pattern.
    func hasTable(_ name: String) throws -> Bool {
        try row("SELECT 1 FROM \(schema).sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]) != nil
    }

    func tableNames(prefix: String) throws -> [String] {
        let pattern = prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "_", with: "\\_")
            .replacingOccurrences(of: "%", with: "\\%") + "%"
        return try String.fetchAll(
            db, sql: "SELECT name FROM \(schema).sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\' ORDER BY name",
            arguments: [pattern])
    }
}

extension StoreValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob([UInt8](data))
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }
}

extension SQLiteStore {
    public func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T {
        try readDatabase(naming: tablesPath) { db in try body(SQLiteTableReader(db, schema: TablesFile.schema)) }
    }

    public func write<T>(_ body: (any LogWriting) throws -> T) throws -> T {
        try writeDatabase { db in try body(SQLiteTransaction(db: db, tablesSchema: TablesFile.schema, signer: signer, recentIDs: recentIDs)) }
    }

    public func writeTables<T>(_ body: (any TableWriting) throws -> T) throws -> T {
        try writeTablesDatabase { db in try body(SQLiteTransaction(db: db)) }
    }

    public func scratchTables() throws -> any TableStore {
        try ScratchTables()
    }
}
