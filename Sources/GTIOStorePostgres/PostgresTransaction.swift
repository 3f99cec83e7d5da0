import GTIOStore
import PostgresNIO

/// One transaction of a PostgreSQL store, as the store protocols see it: a read snapshot or a
/// write over the log and the read models' tables.
struct PostgresTransaction: LogWriting, TableWriting {
    let session: PostgresSession
    /// Signs each appended batch's head, when the store was opened with a key.
    let signer: BatchSigner?
    /// Counts the rows written to each table, when the store refreshes their statistics after.
    var statistics: TableStatistics? = nil
    /// Which tables held rows when this transaction first loaded one.
    let filled = FilledTables()
    /// Counts the events appended, when the store refreshes the log's statistics after.
    var appends: LogStatistics.Tally? = nil

    // MARK: Reading

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [[StoreValue]] {
        try session.rows(sql, arguments)
    }

    /// One round trip, where a cursor would take three: the statements `row` is for give one row.
    func row(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreValue]? {
        try session.run(sql, arguments).rows.first.map(PostgresSession.values)
    }

    /// Rows through a cursor, a page at a time: a ranking that stops after a few rows reads
    /// only the first page, however many rows the statement would give.
    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: ([StoreValue]) throws -> Bool) throws {
        try forEachRow(sql, arguments, expecting: 64, body)
    }

    /// Rows through a cursor, the first page as large as the rows expected (each page is a
    /// round trip), the next ones four times as large as the one before, up to 4,096 rows.
    func forEachRow(_ sql: String, _ arguments: [StoreValue], expecting rows: Int, _ body: ([StoreValue]) throws -> Bool) throws {
        // DECLARE and CLOSE go out without the caller waiting for them (see `SentStatement`):
        // a failed DECLARE fails the FETCH after it, which then reports the DECLARE's error.
        let cursor = "gtio_rows_\(UInt32.random(in: 0...UInt32.max))"
        let declared = session.send("DECLARE \(cursor) NO SCROLL CURSOR FOR " + sql, arguments)
        defer { _ = session.send("CLOSE \(cursor)") }
        var page = min(max(rows, 1), 4096)
        while true {
            let rows: PostgresQueryResult
            do {
                rows = try session.run("FETCH \(page) FROM \(cursor)")
            } catch {
                try declared.check()
                throw error
            }
            for row in rows {
                guard try body(PostgresSession.values(row)) else { return }
            }
            if rows.count < page { return }
            page = min(page * 4, 4096)
        }
    }

    func tableNames(prefix: String) throws -> [String] {
        let pattern = prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "_", with: "\\_")
            .replacingOccurrences(of: "%", with: "\\%") + "%"
        return try session.rows(
            """
            SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE ? ESCAPE '\\'
            ORDER BY tablename COLLATE "C"
            """, [.text(pattern)]
        ).map { $0[0].string ?? "" }
    }

    /// A lookup of the name in the store's schema, without a query of the catalog: the first one
    /// of a fresh connection costs the server a plan from cold caches (`pg_tables` several
    /// milliseconds, `pg_class` ~1 ms, this ~0.3 ms). Any relation of that name answers yes: a
    /// view or sequence named like a store's table is not something gtio makes.
    func hasTable(_ name: String) throws -> Bool {
        try session.rows(
            "SELECT to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)) IS NOT NULL", [.text(name)]
        )[0][0].bool
    }

    // MARK: The log

    func append(_ batch: EventBatch) throws -> AppendOutcome {
        try append([batch])[0]
    }

    func append(_ batches: [EventBatch]) throws -> [AppendOutcome] {
        let outcomes = try PostgresStore.append(batches, in: session, signer: signer)
        appends?.events += outcomes.reduce(0) { $0 + $1.appended }
        return outcomes
    }

    func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws {
        try PostgresStore.scanRows(scope, in: session) { row in try body(LogRecord(row)) }
    }

    func checkpoints(named names: [String]) throws -> [String: Int64] {
        try PostgresStore.checkpoints(named: names, in: session)
    }

    func setCheckpoint(_ name: String, seq: Int64) throws {
        try PostgresStore.setCheckpoint(name, seq: seq, in: session)
    }

    // MARK: Tables

    func create(_ table: TableLayout) throws {
        let definitions = table.columns.map { "\(Self.quoted($0.name)) \(Self.sqlType($0.type))" }.joined(separator: ", ")
        let key = table.keyColumns.map(Self.quoted).joined(separator: ", ")
        try session.execute("CREATE TABLE \(table.name) (\(definitions), PRIMARY KEY (\(key)))")
        for (name, type) in table.columns where type == .blob {
            // Out of line but not compressed: see migration 3.
            try session.execute("ALTER TABLE \(table.name) ALTER COLUMN \(Self.quoted(name)) SET STORAGE EXTERNAL")
        }
        for index in table.indexes {
            let columns = index.terms.map { term -> String in
                if TableLayout.Index.isExpression(term) { return term }
                var words = term.split(separator: " ").map(String.init)
                words[0] = index.bounded.contains(words[0])
                    ? "(substr(\(Self.quoted(words[0])), 1, \(TableLayout.indexedCharacters)))" : Self.quoted(words[0])
                return words.joined(separator: " ")
            }
            try session.execute("""
                CREATE INDEX \(index.name(on: table.name)) ON \(table.name) (\(columns.joined(separator: ", ")))\
                \(index.condition.map { " WHERE \($0)" } ?? "")
                """)
        }
    }

    func drop(table name: String) throws {
        try session.execute("DROP TABLE IF EXISTS \(name)")
    }

    func deleteAll(from table: String) throws {
        try session.execute("DELETE FROM \(table)")
    }

    func delete(from table: String, where column: String, is value: StoreValue) throws {
        _ = try session.run("DELETE FROM \(table) WHERE \(column) = ?", [value])
    }

    func delete(from table: TableLayout, key: [StoreValue]) throws {
        let condition = table.keyColumns.map { "\($0) = ?" }.joined(separator: " AND ")
        _ = try session.run("DELETE FROM \(table.name) WHERE \(condition)", key)
    }

    func insert(_ row: [StoreValue], into table: TableLayout) throws {
        statistics?.note(1, in: table.name)
        let names = table.columns.map { Self.quoted($0.name) }
        _ = try session.run(
            "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
            row)
    }

    /// All rows in one statement: a column's values as one array each, unnested together.
    func insert(_ rows: PackedRows, into table: TableLayout) throws {
        guard rows.count > 0 else { return }
        statistics?.note(rows.count, in: table.name)
        try insert(Self.arrays(of: rows, for: table), into: table)
    }

    /// Into a table that holds rows, the rows whose keys are not among the new ones deleted, then
    /// the new ones upserted, a row already as given left untouched (as `rewrite` does); into an
    /// empty one, the rows inserted. Sent without waiting: a rebuild builds the next table's
    /// arrays while the server writes these, and the transaction checks them before it commits.
    /// A rebuild mostly gives the rows a table holds: deleting them all and inserting them again
    /// left every old row dead until autovacuum came, and took 268 ms for `rm_posts` of the 1 M-
    /// event log where this takes 80; but an upsert into an empty table costs twice an insert.
    ///
    /// The planner's statistics count the rows the server says each statement changed: a
    /// rebuild that gives a table its rows again changes none, and leaves them as they are.
    func load(_ rows: PackedRows, into table: TableLayout) throws {
        let statistics = self.statistics, name = table.name
        let changed: ((Int) -> Void)? = statistics.map { statistics in { statistics.note($0, in: name) } }
        guard rows.count > 0 else {
            session.sendChecked("DELETE FROM \(table.name)", changed: changed)
            return
        }
        let arrays = Self.arrays(of: rows, for: table)
        guard table.keyCount > 0, try filled.holdsRows(table.name, in: self) else {
            // Without a key there is nothing to match rows by: the old ones go.
            if table.keyCount == 0 { session.sendChecked("DELETE FROM \(table.name)", changed: changed) }
            filled.add(table.name)
            session.sendChecked(unnesting: arrays, context: "loading \(table.name)", changed: changed, Self.inserting(into: table))
            return
        }
        let keyColumns = table.columns.prefix(table.keyCount)
        let names = Self.names(keyColumns)
        let matching = keyColumns.map { "kept.\(Self.quoted($0.name)) = \(table.name).\(Self.quoted($0.name))" }
        session.sendChecked(unnesting: Array(arrays.prefix(table.keyCount)), context: "loading \(table.name)", changed: changed) { keys in
            "DELETE FROM \(table.name) WHERE NOT EXISTS (SELECT 1 FROM (\(keys)) AS kept (\(names)) WHERE \(matching.joined(separator: " AND ")))"
        }
        session.sendChecked(unnesting: arrays, context: "loading \(table.name)", changed: changed, Self.upserting(into: table))
    }

    /// A column's values of `rows` as one array each.
    private static func arrays(of rows: PackedRows, for table: TableLayout) -> [PostgresArray] {
        var arrays = Self.arrays(for: table.columns[...], capacity: rows.count)
        rows.bytes.withUnsafeBufferPointer { text in
            for (index, value) in rows.values.enumerated() {
                let column = table.columns[index % rows.width]
                let stored: StoreValue = switch (value, column.type) {
                case (.null, _): .null
                case (.integer(let integer), _): .integer(integer)
                case (.real(let number), _): .real(number)
                case (.text(let start, let count), .blob): .blob(Array(text[start..<start + Int(count)]))
                case (.text(let start, let count), _):
                    .text(String(decoding: UnsafeBufferPointer(rebasing: text[start..<start + Int(count)]), as: UTF8.self))
                }
                arrays[index % rows.width].append(stored, as: column.type)
            }
        }
        return arrays
    }

    /// Two statements at most: the keys left without a row deleted, then the other rows
    /// upserted, skipping a row already as given (updating it would still write a new version).
    /// The keys are distinct, as one upsert may not touch a row twice.
    func rewrite(_ table: TableLayout, keys: [[StoreValue]], rows: [[StoreValue]?]) throws {
        let keyColumns = table.columns.prefix(table.keyCount)
        let gone = zip(keys, rows).compactMap { $1 == nil ? $0 : nil }
        if !gone.isEmpty {
            let deleted = try session.run(unnesting: Self.arrays(of: gone, for: keyColumns)) { keys in
                "DELETE FROM \(table.name) WHERE (\(Self.names(keyColumns))) IN (\(keys))"
            }
            statistics?.note(deleted, in: table.name)
        }
        let kept = rows.compactMap { $0 }
        guard !kept.isEmpty else { return }
        let changed = try session.run(unnesting: Self.arrays(of: kept, for: table.columns[...]), Self.upserting(into: table))
        statistics?.note(changed, in: table.name)
    }

    /// The statement that inserts the rows a `SELECT` gives into `table`, updating a row whose key
    /// it holds already unless that row is as given (an update writes a new row version even when
    /// nothing changed).
    ///
    /// The rows already as given are left out before the insert, by an anti-join: `ON CONFLICT`
    /// locks every row it meets, even one its `WHERE` then leaves alone, and a rebuild mostly
    /// gives each table the rows it holds (`rm_hearts`' 135 k rows: 0.26 s upserted, 0.06 s left
    /// out first).
    private static func upserting(into table: TableLayout) -> (_ rows: String) -> String {
        let keyColumns = table.columns.prefix(table.keyCount)
        let values = table.columns.dropFirst(table.keyCount).map { quoted($0.name) }
        let action = values.isEmpty ? "DO NOTHING" : """
            DO UPDATE SET \(values.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")) \
            WHERE (\(values.map { "\(table.name).\($0)" }.joined(separator: ", "))) \
            IS DISTINCT FROM (\(values.map { "EXCLUDED.\($0)" }.joined(separator: ", ")))
            """
        var same = keyColumns.map { "held.\(quoted($0.name)) = given.\(quoted($0.name))" }
        if !values.isEmpty {
            same.append("""
                (\(values.map { "held.\($0)" }.joined(separator: ", "))) \
                IS NOT DISTINCT FROM (\(values.map { "given.\($0)" }.joined(separator: ", ")))
                """)
        }
        let columns = names(table.columns[...])
        return { rows in
            """
            INSERT INTO \(table.name) (\(columns)) SELECT * FROM (\(rows)) AS given (\(columns)) \
            WHERE NOT EXISTS (SELECT 1 FROM \(table.name) AS held WHERE \(same.joined(separator: " AND "))) \
            ON CONFLICT (\(names(keyColumns))) \(action)
            """
        }
    }

    /// Two statements whatever the number of values: the rows of every value deleted, then the
    /// new rows inserted (one array per column).
    func replace(_ table: TableLayout, where column: String, in values: [StoreValue], with rows: [[StoreValue]]) throws {
        if !values.isEmpty {
            let type = table.columns.first { $0.name == column }?.type ?? .text
            let keys = Self.arrays(of: values.map { [$0] }, for: [(name: column, type: type)][...])
            let deleted = try session.run(unnesting: keys) { values in
                "DELETE FROM \(table.name) WHERE \(Self.quoted(column)) IN (\(values))"
            }
            statistics?.note(deleted, in: table.name)
        }
        guard !rows.isEmpty else { return }
        statistics?.note(rows.count, in: table.name)
        try insert(Self.arrays(of: rows, for: table.columns[...]), into: table)
    }

    /// Inserts the rows of `arrays`, one per column of `table` in order.
    private func insert(_ arrays: [PostgresArray], into table: TableLayout) throws {
        try session.run(unnesting: arrays, Self.inserting(into: table))
    }

    /// The statement that inserts the rows a `SELECT` gives into every column of `table`.
    private static func inserting(into table: TableLayout) -> (_ rows: String) -> String {
        { rows in "INSERT INTO \(table.name) (\(names(table.columns[...]))) \(rows)" }
    }

    /// An empty array per column, of the column's type.
    private static func arrays(for columns: ArraySlice<(name: String, type: TableLayout.ColumnType)>, capacity: Int) -> [PostgresArray] {
        columns.map { PostgresArray(arrayKind($0.type), capacity: capacity) }
    }

    /// `rows` (each a value per column of `columns`) as an array per column.
    private static func arrays(of rows: [[StoreValue]], for columns: ArraySlice<(name: String, type: TableLayout.ColumnType)>) -> [PostgresArray] {
        var arrays = arrays(for: columns, capacity: rows.count)
        for row in rows {
            for (index, (value, column)) in zip(row, columns).enumerated() { arrays[index].append(value, as: column.type) }
        }
        return arrays
    }

    /// The columns' names, quoted where they must be, for a column list.
    private static func names(_ columns: ArraySlice<(name: String, type: TableLayout.ColumnType)>) -> String {
        columns.map { quoted($0.name) }.joined(separator: ", ")
    }

    /// A column name as PostgreSQL needs it: `user` is a reserved word.
    static func quoted(_ name: String) -> String {
        name == "user" ? "\"user\"" : name
    }

    static func sqlType(_ type: TableLayout.ColumnType) -> String {
        switch type {
        case .integer: "bigint"
        case .real: "double precision"
        case .text: "text COLLATE \"C\""
        case .blob: "bytea"
        }
    }

    static func arrayKind(_ type: TableLayout.ColumnType) -> PostgresArray.Kind {
        switch type {
        case .integer: .int8
        case .real: .float8
        case .text: .text
        case .blob: .bytea
        }
    }
}
