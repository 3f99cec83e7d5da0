import Foundation
import GRDB

/// `TableReading` over one SQLite connection inside a read transaction.
public struct SQLiteTableReader: TableReading {
    let db: Database

    public init(_ db: Database) {
        self.db = db
    }

    public func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [[StoreValue]] {
        var result: [[StoreValue]] = []
        try forEachRow(sql, arguments) { row in
            result.append(row)
            return true
        }
        return result
    }

    public func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: ([StoreValue]) throws -> Bool) throws {
        let statement = try db.cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments.map(\.databaseValue)))
        while let row = try cursor.next() {
            guard try body(row.databaseValues.map(StoreValue.init)) else { return }
        }
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

extension EventStore: TableSource {
    public func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T {
        try read { db in try body(SQLiteTableReader(db)) }
    }
}
