/// Tables a store keeps beside its log (the read models), written in transactions that move
/// their checkpoints with them, and read in consistent snapshots.
public protocol TableStore: TableSource {
    /// Runs `body` in one write transaction on the tables.
    func writeTables<T>(_ body: (any TableWriting) throws -> T) throws -> T
    /// Drops every table whose name starts with `prefix`, even when their pages are damaged:
    /// for derived tables only, which a rebuild writes again. Throws `.damaged` when the store is
    /// still damaged afterwards (the damage was elsewhere).
    func discardTables(prefix: String) throws
    /// Empty tables of the same kind, kept in memory for as long as this process holds them:
    /// what an as-of view folds into and answers from.
    func scratchTables() throws -> any TableStore
}

/// Writing tables inside one transaction, the rows read back as the transaction sees them.
public protocol TableWriting: TableReading {
    /// Creates the table and its indexes.
    func create(_ table: TableLayout) throws
    /// Drops the table and its indexes.
    func drop(table name: String) throws
    /// Every row of the table removed.
    func deleteAll(from table: String) throws
    /// Removes the rows whose `column` equals `value`.
    func delete(from table: String, where column: String, is value: StoreValue) throws
    /// Removes the row with the key `key` (the table's leading key columns, in order).
    func delete(from table: TableLayout, key: [StoreValue]) throws
    /// Inserts one row, a value per column.
    func insert(_ row: [StoreValue], into table: TableLayout) throws
    /// Inserts many rows at once: what a full rewrite of a table goes through.
    func insert(_ rows: PackedRows, into table: TableLayout) throws
    /// Replaces every row of the table with `rows`: what a rebuild writes. A backend may leave
    /// the secondary indexes out while it loads and build them after, from sorted keys, rather
    /// than keep them up to date row by row.
    func load(_ rows: PackedRows, into table: TableLayout) throws
    /// Leaves each key with the row `rows` gives for it, or with none: what an incremental
    /// update of a read model writes. A backend may leave a row that is already as given
    /// untouched, and one a round trip away does it in a few statements rather than two per key.
    func rewrite(_ table: TableLayout, keys: [[StoreValue]], rows: [[StoreValue]?]) throws
    /// Removes every row whose `column` is one of `values`, then inserts `rows`: the rows of
    /// several parents (a post's brands, a day's sign-ups) replaced at once. With no values it
    /// only inserts, in as few statements as a replacement.
    func replace(_ table: TableLayout, where column: String, in values: [StoreValue], with rows: [[StoreValue]]) throws

    /// Several consumers' checkpoints as this transaction sees them.
    func checkpoints(named names: [String]) throws -> [String: Int64]
    /// Records that consumer `name` has applied the log through `seq`, committed with the
    /// transaction's other writes or not at all.
    func setCheckpoint(_ name: String, seq: Int64) throws
}

extension TableWriting {
    public func load(_ rows: PackedRows, into table: TableLayout) throws {
        try deleteAll(from: table.name)
        try insert(rows, into: table)
    }

    public func replace(_ table: TableLayout, where column: String, in values: [StoreValue], with rows: [[StoreValue]]) throws {
        for value in values { try delete(from: table.name, where: column, is: value) }
        for row in rows { try insert(row, into: table) }
    }

    public func rewrite(_ table: TableLayout, keys: [[StoreValue]], rows: [[StoreValue]?]) throws {
        for (key, row) in zip(keys, rows) {
            try delete(from: table, key: key)
            if let row { try insert(row, into: table) }
        }
    }
}

/// A table as the read models declare it: columns, primary key and secondary indexes. Each
/// backend turns it into its own DDL.
public struct TableLayout: Sendable {
    public enum ColumnType: Sendable {
        case integer, real, text, blob
    }

    public var name: String
    /// The leading `keyCount` columns are the primary key.
    public var columns: [(name: String, type: ColumnType)]
    public var keyCount: Int
    /// A secondary index: its column terms (`"followers DESC"`) and, when it holds only the rows
    /// some queries look for, the condition those rows meet (`"place IS NOT NULL"`).
    public struct Index: Sendable, ExpressibleByArrayLiteral {
        /// Columns, each maybe followed by `DESC`, or expressions in parentheses
        /// (`"(created / 3600000)"`), which a query must write exactly so to use the index.
        public var terms: [String]
        /// SQL both backends read alike; a query whose own condition implies it can use the index.
        public var condition: String?
        /// What the index's name says after the table's, when its terms do not say it.
        public var label: String?
        /// Columns after the terms (free text among them), for queries that read them from the
        /// index alone, where the backend's index entries may be of any length (SQLite's).
        /// PostgreSQL's hold at most ~2.7 KB, and one long name would fail every write of the
        /// table: there they are left out, and a query reads them from the row.
        public var carried: [String]
        /// Free-text columns among the terms, which a query finds by `TableLayout.matching`:
        /// SQLite indexes them whole, PostgreSQL their first `TableLayout.indexedCharacters`.
        public var bounded: [String]

        public init(
            _ terms: [String], where condition: String? = nil, label: String? = nil, carrying carried: [String] = [],
            bounded: [String] = []
        ) {
            self.terms = terms
            self.condition = condition
            self.label = label
            self.carried = carried
            self.bounded = bounded
        }

        public init(arrayLiteral terms: String...) {
            self.init(terms)
        }

        /// Whether `term` is an expression rather than a column.
        public static func isExpression(_ term: String) -> Bool { term.hasPrefix("(") }

        /// The index's name: the table's and its label or its columns' joined.
        public func name(on table: String) -> String {
            if let label { return table + "_" + label }
            return ([table] + terms.map { $0.split(separator: " ")[0].lowercased() }).joined(separator: "_")
        }
    }

    /// Secondary indexes.
    public var indexes: [Index]

    /// The characters of a free-text column that PostgreSQL's indexes hold (`Index.bounded`):
    /// 4 bytes each at most, well inside a btree entry's ~2.7 KB with the other terms.
    public static let indexedCharacters = 200

    /// The condition that finds the rows whose free-text `column` is the text bound to its two
    /// `?`s (the same text twice): an index of either backend serves one of its halves, and
    /// the other keeps the match exact.
    public static func matching(_ column: String) -> String {
        "substr(\(column), 1, \(indexedCharacters)) = substr(?, 1, \(indexedCharacters)) AND \(column) = ?"
    }

    public init(name: String, columns: [(name: String, type: ColumnType)], keyCount: Int, indexes: [Index] = []) {
        self.name = name
        self.columns = columns
        self.keyCount = keyCount
        self.indexes = indexes
    }

    /// The key columns' names.
    public var keyColumns: [String] { columns.prefix(keyCount).map(\.name) }

    /// Every row, in key order.
    public var orderedSelectSQL: String {
        "SELECT * FROM \(name) ORDER BY \(keyColumns.joined(separator: ", "))"
    }
}
