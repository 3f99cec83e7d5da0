/// Read-only SQL over a store's tables, in one consistent snapshot: the read models' queries
/// ask it for the rows an answer needs. Statements take `?` placeholders and bound values, so
/// no value is ever spliced into SQL text.
public protocol TableReading {
    /// Every row `sql` selects.
    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [[StoreValue]]
    /// The rows `sql` selects, one at a time, until `body` returns false: a ranking walks an
    /// index only as far as its answer needs.
    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: ([StoreValue]) throws -> Bool) throws
    /// `forEachRow`, told about how many rows the caller expects to read before it stops: a
    /// backend that fetches rows in pages over a connection fetches that many first, so that a
    /// walk of hundreds of rows is not asked for page by growing page.
    func forEachRow(_ sql: String, _ arguments: [StoreValue], expecting rows: Int, _ body: ([StoreValue]) throws -> Bool) throws
    /// `forEachRow`, each row read a column at a time as `body` asks for them (`TableRow`).
    func forEachRow(_ sql: String, _ arguments: [StoreValue], expecting rows: Int?, reading body: (any TableRow) throws -> Bool) throws
    /// The first row `sql` selects, if any: for a statement that gives one row (an aggregate, a
    /// lookup by key, a `LIMIT 1`). A backend may read every row the statement gives.
    func row(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreValue]?
    /// The names of the tables whose names begin with `prefix`, in name order.
    func tableNames(prefix: String) throws -> [String]
    /// Whether the store has a table named `name`: what a query asks before reading a table
    /// that an older store may lack.
    func hasTable(_ name: String) throws -> Bool
    /// The first column of each row `sql` selects, as bytes (nil for anything but a blob), until
    /// `body` returns false. The bytes are the backend's own, valid during the call only: large values
    /// (the saved fold state's parts) are read without copies of their own.
    func forEachBlob(_ sql: String, _ arguments: [StoreValue], _ body: (UnsafeRawBufferPointer?) throws -> Bool) throws
}

extension TableReading {
    /// Each row read whole, then handed out.
    public func forEachRow(_ sql: String, _ arguments: [StoreValue], expecting rows: Int?, reading body: (any TableRow) throws -> Bool) throws {
        let visit: ([StoreValue]) throws -> Bool = { try body(ValuesRow($0)) }
        if let rows { try forEachRow(sql, arguments, expecting: rows, visit) } else { try forEachRow(sql, arguments, visit) }
    }

    /// Rows read in process need no hint.
    public func forEachRow(_ sql: String, _ arguments: [StoreValue], expecting rows: Int, _ body: ([StoreValue]) throws -> Bool) throws {
        try forEachRow(sql, arguments, body)
    }

    public func row(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreValue]? {
        var found: [StoreValue]?
        try forEachRow(sql, arguments) { row in
            found = row
            return false
        }
        return found
    }

    public func row(_ sql: String) throws -> [StoreValue]? { try row(sql, []) }

    public func hasTable(_ name: String) throws -> Bool {
        try tableNames(prefix: name).contains(name)
    }

    public func forEachBlob(_ sql: String, _ arguments: [StoreValue], _ body: (UnsafeRawBufferPointer?) throws -> Bool) throws {
        try forEachRow(sql, arguments) { row in
            guard case .blob(let bytes) = row.first else { return try body(nil) }
            return try bytes.withUnsafeBytes { try body($0) }
        }
    }

    public func rows(_ sql: String) throws -> [[StoreValue]] { try rows(sql, []) }
}

/// Something whose tables can be read in snapshots: a store, or a scratch copy of the read models.
public protocol TableSource: Sendable {
    /// Runs `body` on one read-only snapshot of the tables.
    func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T
}
