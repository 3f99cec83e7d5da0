import GRDB

/// Where the values of table rows go, one after another and row after row: packed for a bulk
/// insert (`PackedRows`) or as GRDB values (`ValueRow`). Read-model rows are written once
/// against it, so that a full rewrite and a rewrite of a few rows cannot build them apart.
public protocol RowSink {
    mutating func appendNull()
    mutating func append(_ integer: Int64)
    mutating func append(_ number: Double)
    mutating func append(_ text: String)
}

extension RowSink {
    public mutating func append(_ integer: Int) { append(Int64(integer)) }
    /// As SQLite keeps a boolean (and GRDB binds one): 1 or 0.
    public mutating func append(_ flag: Bool) { append(Int64(flag ? 1 : 0)) }
    public mutating func append(_ integer: Int64?) { if let integer { append(integer) } else { appendNull() } }
    public mutating func append(_ text: String?) { if let text { append(text) } else { appendNull() } }
}

/// One row as GRDB values: for statements that take `StatementArguments`, and for comparisons.
public struct ValueRow: RowSink {
    public private(set) var values: [DatabaseValue] = []

    public init() {}

    public mutating func appendNull() { values.append(.null) }
    public mutating func append(_ integer: Int64) { values.append(integer.databaseValue) }
    public mutating func append(_ number: Double) { values.append(number.databaseValue) }
    public mutating func append(_ text: String) { values.append(text.databaseValue) }
}
