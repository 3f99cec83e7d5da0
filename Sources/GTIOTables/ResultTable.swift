/// A command's answer as named columns and rows, ready for any output format.
public struct ResultTable: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[Cell]]

    public init(columns: [String], rows: [[Cell]] = []) {
        self.columns = columns
        self.rows = rows
    }
}
