import GTIOTables

extension ResultTable {
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
