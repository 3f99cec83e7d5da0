import GRDB
import GTIOStore

extension SQLiteStore {
    /// Runs one statement that only reads, in a read-only transaction; a statement that would
    /// change anything is refused before it runs (`.writeRefused`), and SQLite's own complaint
    /// about a statement comes back as `.badSQL`.
    public func readOnlySQL(_ text: String) throws -> SQLAnswer {
        do {
            return try Self.retryingWhenBusy {
                try pool.read { db in
                    let statement = try db.makeStatement(sql: text)
                    guard statement.isReadonly else { throw StoreError.writeRefused(String(text.prefix(40))) }
                    let rows = try Row.fetchAll(statement).map { Array($0.databaseValues.map(StoreValue.init)) }
                    return SQLAnswer(columns: statement.columnNames, rows: rows)
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.badSQL(error.message ?? "\(error)")
        }
    }
}
