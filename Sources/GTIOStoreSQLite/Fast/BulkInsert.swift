import GRDB
import GTIOStore

/// Inserts packed rows into one table many per statement, binding their text in place: a
/// statement per row spends much of each row opening and halting the statement and copying
/// each bound string.
///
/// A statement of many rows inserts `OR FAIL`: a row that breaks the key still fails the
/// statement, and the caller's transaction with it, but SQLite need not be able to take back
/// the rows the statement already wrote. Under the default (`ABORT`) it copies every page such
/// a statement first touches into a statement journal, and a rebuild reuses the pages it just
/// emptied, so nearly every page it writes was copied there first (docs/PERFORMANCE.md).
public struct BulkInsert {
    private let db: Database
    private let batch: SQLiteStatementBinding
    private let single: SQLiteStatementBinding
    private let width: Int
    private let rowsPerStatement: Int

    /// Rows for `columns` of `table`, `rowsPerStatement` at a time. A statement's parameters
    /// stay within 999, the smallest limit an SQLite build may have (the widest read-model
    /// table, 15 columns, takes 960).
    public init(into table: String, columns: [String], in db: Database, rowsPerStatement: Int = 64) throws {
        let rowsPerStatement = max(1, min(rowsPerStatement, 999 / max(columns.count, 1)))
        let names = columns.joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        self.db = db
        width = columns.count
        self.rowsPerStatement = rowsPerStatement
        batch = SQLiteStatementBinding(try db.cachedStatement(
            sql: "INSERT OR FAIL INTO \(table) (\(names)) VALUES " + Array(repeating: row, count: rowsPerStatement).joined(separator: ", ")))
        single = SQLiteStatementBinding(try db.cachedStatement(sql: "INSERT INTO \(table) (\(names)) VALUES \(row)"))
    }

    /// Inserts every row of `rows`, a statement's worth at a time and the last few one by one.
    public func insert(_ rows: PackedRows) throws {
        precondition(rows.width == width, "rows of \(rows.width) values for \(width) columns")
        precondition(rows.values.count % width == 0, "a row left unfinished: \(rows.values.count) values for \(width) columns")
        try rows.bytes.withUnsafeBufferPointer { bytes in
            var first = 0
            while first < rows.count {
                let full = rows.count - first >= rowsPerStatement
                let statement = full ? batch : single
                let count = full ? rowsPerStatement : 1
                for (offset, value) in rows.values[first * width..<(first + count) * width].enumerated() {
                    let index = Int32(offset + 1)
                    switch value {
                    case .null: statement.bindNull(index)
                    case .integer(let integer): statement.bind(index, integer)
                    case .real(let number): statement.bind(index, number)
                    case .text(let start, let length):
                        statement.bindStatic(index, text: UnsafeBufferPointer(rebasing: bytes[start..<start + Int(length)]))
                    }
                }
                try statement.step(db)
                first += count
            }
        }
    }
}
