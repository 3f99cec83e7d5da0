/// The answer to a read-only SQL statement: its column names and rows.
public struct SQLAnswer: Sendable {
    public var columns: [String]
    public var rows: [[StoreValue]]
    /// Whether the statement had more rows than `SQLLimits.rows` kept.
    public var isTruncated: Bool

    public init(columns: [String], rows: [[StoreValue]], isTruncated: Bool = false) {
        self.columns = columns
        self.rows = rows
        self.isTruncated = isTruncated
    }
}
