import GRDB
import GTIOStore

/// One write transaction of an SQLite store or scratch database, as the store protocol sees it.
struct SQLiteTransaction: LogWriting, TableWriting {
    let db: Database
    /// Where the tables are: `main` on the tables file's writer and scratch tables, `tables`
    /// (attached read-only) on the log's writer.
    var tablesSchema = "main"
    /// Signs each appended batch's head, when the store was opened with a key.
    var signer: BatchSigner? = nil
    /// The store's ids that the dedup index does not hold yet; a scratch database appends nothing.
    var recentIDs: RecentIDs? = nil

    // MARK: Reading

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [[StoreValue]] {
        try SQLiteTableReader(db, schema: tablesSchema).rows(sql, arguments)
    }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: ([StoreValue]) throws -> Bool) throws {
        try SQLiteTableReader(db, schema: tablesSchema).forEachRow(sql, arguments, body)
    }

    func tableNames(prefix: String) throws -> [String] {
        try SQLiteTableReader(db, schema: tablesSchema).tableNames(prefix: prefix)
    }

    // MARK: The log

    func append(_ batch: EventBatch) throws -> AppendOutcome {
        guard let recentIDs else { throw StoreError.database("this transaction is over tables only: it cannot append events") }
        return try SQLiteStore.append(batch, in: db, signer: signer, recentIDs: recentIDs)
    }

    func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws {
        try SQLiteStore.scan(scope, in: db, body)
    }

    func checkpoints(named names: [String]) throws -> [String: Int64] {
        try SQLiteStore.checkpoints(named: names, in: db)
    }

    func setCheckpoint(_ name: String, seq: Int64) throws {
        try SQLiteStore.setCheckpoint(db, name: name, seq: seq)
    }

    // MARK: Tables

    func create(_ table: TableLayout) throws {
        try db.execute(sql: Self.createSQL(table))
        try createIndexes(of: table)
    }

    /// A table's rows live in its key's B-tree (`WITHOUT ROWID`), unless it holds blobs: there a
    /// row can take megabytes, and SQLite reads a whole row of such a tree to compare keys with
    /// it, so one look-up by key would read several rows. A table with a blob column keeps its
    /// rows by rowid, which a one-column integer key becomes.
    static func createSQL(_ table: TableLayout) -> String {
        let definitions = table.columns.map { "\($0.name) \(sqlType($0.type))" }.joined(separator: ", ")
        let storage = table.columns.contains { $0.type == .blob } ? "" : " WITHOUT ROWID"
        return "CREATE TABLE \(table.name) (\(definitions), PRIMARY KEY (\(table.keyColumns.joined(separator: ", "))))\(storage)"
    }

    /// Without its indexes while it fills, which SQLite then builds each by one sort: at 20 M
    /// events, keeping them current insert by insert made most of a rebuild's table writes.
    func load(_ rows: PackedRows, into table: TableLayout) throws {
        for index in table.indexes { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name(on: table.name))") }
        try deleteAll(from: table.name)
        try insert(rows, into: table)
        try createIndexes(of: table)
    }

    private func createIndexes(of table: TableLayout) throws {
        for index in table.indexes {
            try db.execute(sql: """
                CREATE INDEX \(index.name(on: table.name)) ON \(table.name) (\((index.terms + index.carried).joined(separator: ", ")))\
                \(index.condition.map { " WHERE \($0)" } ?? "")
                """)
        }
    }

    func drop(table name: String) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(name)")
    }

    func deleteAll(from table: String) throws {
        try db.execute(sql: "DELETE FROM \(table)")
    }

    func delete(from table: String, where column: String, is value: StoreValue) throws {
        try run("DELETE FROM \(table) WHERE \(column) = ?", [value])
    }

    func delete(from table: TableLayout, key: [StoreValue]) throws {
        try run(Self.deleteSQL(table), key)
    }

    /// Runs `sql` once with `values` bound to its parameters in order, through the same C-API
    /// binding as the statements that run by the thousand.
    private func run(_ sql: String, _ values: [StoreValue]) throws {
        let statement = SQLiteStatementBinding(try db.cachedStatement(sql: sql))
        statement.bind(values)
        try statement.step(db)
    }

    func replace(_ table: TableLayout, where column: String, in values: [StoreValue], with rows: [[StoreValue]]) throws {
        if !values.isEmpty {
            let delete = SQLiteStatementBinding(try db.cachedStatement(sql: "DELETE FROM \(table.name) WHERE \(column) = ?"))
            for value in values {
                delete.bind(1, value)
                try delete.step(db)
            }
        }
        guard !rows.isEmpty else { return }
        let insert = SQLiteStatementBinding(try db.cachedStatement(sql: Self.insertSQL(table)))
        for row in rows {
            insert.bind(row)
            try insert.step(db)
        }
    }

    static func deleteSQL(_ table: TableLayout) -> String {
        "DELETE FROM \(table.name) WHERE \(table.keyColumns.map { "\($0) = ?" }.joined(separator: " AND "))"
    }

    func insert(_ row: [StoreValue], into table: TableLayout) throws {
        try run(Self.insertSQL(table), row)
    }

    /// An upsert that leaves a row already as given untouched: most rows a catch-up touches
    /// (a user who was merely active, a post hearted without a vote) come out as they were, and
    /// deleting and inserting them would dirty a page of the table and of each of its indexes.
    func rewrite(_ table: TableLayout, keys: [[StoreValue]], rows: [[StoreValue]?]) throws {
        guard !keys.isEmpty else { return }
        let upsert = SQLiteStatementBinding(try db.cachedStatement(sql: Self.upsertSQL(table)))
        var delete: SQLiteStatementBinding?
        for (key, row) in zip(keys, rows) {
            if let row {
                upsert.bind(row)
                try upsert.step(db)
            } else {
                if delete == nil { delete = SQLiteStatementBinding(try db.cachedStatement(sql: Self.deleteSQL(table))) }
                delete?.bind(key)
                try delete?.step(db)
            }
        }
    }

    /// Inserts a row, or updates the row of its key when some column differs.
    static func upsertSQL(_ table: TableLayout) -> String {
        let values = table.columns.dropFirst(table.keyCount).map(\.name)
        let conflict = "ON CONFLICT (\(table.keyColumns.joined(separator: ", ")))"
        guard !values.isEmpty else { return "\(insertSQL(table)) \(conflict) DO NOTHING" }
        return """
            \(insertSQL(table)) \(conflict) DO UPDATE SET \(values.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")) \
            WHERE \(values.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR "))
            """
    }

    func insert(_ rows: PackedRows, into table: TableLayout) throws {
        try BulkInsert(into: table.name, columns: table.columns.map(\.name), in: db).insert(rows)
    }

    static func insertSQL(_ table: TableLayout) -> String {
        let names = table.columns.map(\.name)
        return "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }

    private static func sqlType(_ type: TableLayout.ColumnType) -> String {
        switch type {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }
}
