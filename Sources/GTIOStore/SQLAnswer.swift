/// The answer to a read-only SQL statement: its column names and rows.
public struct SQLAnswer: Sendable {
    public var columns: [String]
    public var rows: [[StoreValue]]

    public init(columns: [String], rows: [[StoreValue]]) {
        self.columns = columns
        self.rows = rows
    }
}
