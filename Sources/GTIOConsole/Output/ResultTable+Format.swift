import GTIOTables

extension ResultTable {
    /// Renders the table in `format`; `width` bounds table output (nil: no limit); `rawCSV`
    /// leaves CSV text cells as they are, formulas and all.
    public func rendered(as format: OutputFormat, width: Int? = nil, rawCSV: Bool = false) -> String {
        switch format {
        case .table: TableRenderer(width: width).render(self)
        case .csv: CSVRenderer.render(self, raw: rawCSV)
        case .json: JSONRenderer.render(self)
        case .markdown: MarkdownRenderer.render(self)
        }
    }
}
