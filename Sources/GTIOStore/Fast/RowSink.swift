/// Where the values of table rows go, one after another and row after row: packed for a bulk
/// insert (`PackedRows`) or as values (`ValueRow`). Read-model rows are written once
/// against it, so that a full rewrite and a rewrite of a few rows cannot build them apart.
public protocol RowSink {
    mutating func appendNull()
    mutating func append(_ integer: Int64)
    mutating func append(_ number: Double)
    mutating func append(_ text: String)
}

extension RowSink {
    public mutating func append(_ integer: Int) { append(Int64(integer)) }
    /// As SQL keeps a boolean in these tables: 1 or 0.
    public mutating func append(_ flag: Bool) { append(Int64(flag ? 1 : 0)) }
    public mutating func append(_ integer: Int64?) { if let integer { append(integer) } else { appendNull() } }
    public mutating func append(_ text: String?) { if let text { append(text) } else { appendNull() } }
    public mutating func append(_ number: Double?) { if let number { append(number) } else { appendNull() } }
}

/// One row as values: for rewriting a row by its key, and for comparisons.
public struct ValueRow: RowSink {
    public private(set) var values: [StoreValue] = []

    public init() {}

    public mutating func appendNull() { values.append(.null) }
    public mutating func append(_ integer: Int64) { values.append(.integer(integer)) }
    public mutating func append(_ number: Double) { values.append(.real(number)) }
    public mutating func append(_ text: String) { values.append(.text(text)) }
}
