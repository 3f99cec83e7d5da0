/// A row of a statement as it is stepped, read a column at a time: a walk that passes over most
/// rows reads only the numbers it decides by, and makes strings only for the rows it keeps.
/// Valid only inside the call that hands it out.
public protocol TableRow {
    /// The column's value (columns count from 0).
    func value(_ column: Int) -> StoreValue
    /// The column as `StoreValue.int64` reads it: nil for NULL.
    func int64(_ column: Int) -> Int64?
    /// The column as `StoreValue.double` reads it: nil for NULL.
    func double(_ column: Int) -> Double?
}

extension TableRow {
    public func int64(_ column: Int) -> Int64? { value(column).int64 }
    public func double(_ column: Int) -> Double? { value(column).double }

    /// The first `count` columns' values.
    public func values(_ count: Int) -> [StoreValue] { (0..<count).map(value) }
}

/// A row already read as values, for backends that read rows whole.
public struct ValuesRow: TableRow {
    public let values: [StoreValue]

    public init(_ values: [StoreValue]) { self.values = values }

    public func value(_ column: Int) -> StoreValue { values[column] }
}
