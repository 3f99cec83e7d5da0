import GTIOTables

extension ResultTable {
    /// Renders the table in `format`; `width` bounds table output (nil: no limit); `rawCSV`
    /// leaves CSV text cells as they are, formulas and all.
    public func rendered(as format: OutputFormat, width: Int? = nil, rawCSV: Bool = false) -> String {
        var text = ""
        write(as: format, width: width, rawCSV: rawCSV) { text += $0 }
        return text
    }

    /// Hands `out` the table in `format` a piece at a time, as `rendered` would give it whole.
    public func write(as format: OutputFormat, width: Int? = nil, rawCSV: Bool = false, to out: (String) -> Void) {
        switch format {
        case .table: TableRenderer(width: width).write(self, to: out)
        case .csv: CSVRenderer.write(self, raw: rawCSV, to: out)
        case .json: JSONRenderer.write(self, to: out)
        case .markdown: MarkdownRenderer.write(self, to: out)
        }
    }
}

extension Terminal {
    /// Writes `table` to standard output (or the capture) in `format`, in pieces of about 64 KB:
    /// a long answer is never held whole as text.
    static func write(_ table: ResultTable, as format: OutputFormat, width: Int? = nil, rawCSV: Bool = false) {
        var stream = TableStream(format: format, width: width, rawCSV: rawCSV)
        stream.write(table)
        stream.finish(columns: table.columns)
    }
}
