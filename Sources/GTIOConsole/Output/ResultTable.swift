/// A command's answer as named columns and rows, ready for any output format.
public struct ResultTable: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[Cell]]

    public init(columns: [String], rows: [[Cell]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// Renders the table in `format`; `width` bounds table output (nil: no limit).
    public func rendered(as format: OutputFormat, width: Int? = nil) -> String {
        switch format {
        case .table: TableRenderer(width: width).render(self)
        case .csv: CSVRenderer.render(self)
        case .json: JSONRenderer.render(self)
        case .markdown: MarkdownRenderer.render(self)
        }
    }
}
