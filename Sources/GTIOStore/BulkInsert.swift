import GRDB
import GRDBSQLite

/// Inserts rows into one table many per statement, binding their text in place: rewriting the
/// read-model tables one row per statement cost ~10 k instructions a row (cachegrind, 200 k
/// demo events), a fifth of it opening and halting the statement and another copying each
/// bound string. Call `finish()` after the last row.
public struct BulkInsert {
    private let db: Database
    private let batch: SQLiteStatementBinding
    private let single: SQLiteStatementBinding
    private let width: Int
    private let rowsPerStatement: Int
    private var pending: [[DatabaseValue]] = []
    /// The text and blob bytes of the pending rows, bound straight from here (SQLITE_STATIC).
    private var bytes: [UInt8] = []

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
            sql: "INSERT INTO \(table) (\(names)) VALUES " + Array(repeating: row, count: rowsPerStatement).joined(separator: ", ")))
        single = SQLiteStatementBinding(try db.cachedStatement(sql: "INSERT INTO \(table) (\(names)) VALUES \(row)"))
        pending.reserveCapacity(rowsPerStatement)
    }

    /// Adds a row of `columns.count` values; inserts when a statement's worth is pending.
    public mutating func insert(_ row: [DatabaseValue]) throws {
        precondition(row.count == width, "a row of \(row.count) values for \(width) columns")
        pending.append(row)
        if pending.count == rowsPerStatement { try flush(with: batch) }
    }

    /// Inserts the rows still pending, one per statement.
    public mutating func finish() throws {
        let rows = pending
        for row in rows {
            pending = [row]
            try flush(with: single)
        }
        pending = []
    }

    private mutating func flush(with insert: SQLiteStatementBinding) throws {
        bytes.removeAll(keepingCapacity: true)
        var spans: [(offset: Int, count: Int)] = []
        spans.reserveCapacity(pending.count * width)
        for row in pending {
            for value in row {
                let start = bytes.count
                switch value.storage {
                case .string(var text): text.withUTF8 { bytes.append(contentsOf: $0) }
                case .blob(let data): bytes.append(contentsOf: data)
                default: break
                }
                spans.append((start, bytes.count - start))
            }
        }
        // One spare byte, so that even an empty buffer has an address to bind '' from.
        bytes.append(0)
        try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            var index: Int32 = 0
            for (row, values) in pending.enumerated() {
                for (column, value) in values.enumerated() {
                    index += 1
                    let span = spans[row * width + column]
                    switch value.storage {
                    case .null: insert.bindNull(index)
                    case .int64(let integer): insert.bind(index, integer)
                    case .double(let number): insert.bind(index, number)
                    case .string: insert.bindStatic(index, text: base + span.offset, count: span.count)
                    case .blob: insert.bindStatic(index, blob: base + span.offset, count: span.count)
                    }
                }
            }
            try insert.step(db)
        }
        pending.removeAll(keepingCapacity: true)
    }
}
