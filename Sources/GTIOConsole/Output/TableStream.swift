import GTIOTables

/// An answer written to standard output as its rows come, a page at a time, as the one table it
/// is: the header with the first page, the end (a JSON array's bracket, the text table's row
/// count) after the last. What is held is a page, not the answer: `events --limit 0` of a log of
/// millions of events is read and written in pages.
///
/// A text table is aligned page by page, each from its own cells, as `psql` aligns each group
/// of `FETCH_COUNT` rows; CSV, JSON and Markdown come out as they would whole.
struct TableStream {
    let format: OutputFormat
    /// The terminal's width for text tables (nil: no limit).
    let width: Int?
    /// Whether CSV text is written as it is, formulas and all (`CSVRenderer`'s `raw`).
    let rawCSV: Bool
    /// Where the UTF-8 goes, in pieces of about 64 KB.
    let out: ([UInt8]) -> Void
    /// Rows written so far.
    private(set) var rows = 0
    private var started = false

    init(format: OutputFormat, width: Int?, rawCSV: Bool = false, to out: @escaping ([UInt8]) -> Void = { Terminal.write(utf8: $0) }) {
        self.format = format
        self.width = width
        self.rawCSV = rawCSV
        self.out = out
    }

    /// Writes the rows of `page` (the same columns on every page).
    mutating func write(_ page: ResultTable) {
        let (header, before) = (!started, rows)
        switch format {
        case .table:
            TableRenderer(width: width).writeBytes(page, header: header, footer: .none, to: out)
        case .csv:
            inPieces { CSVRenderer.write(page, raw: rawCSV, header: header, to: $0) }
        case .json:
            inPieces { text in
                if header { text("[") }
                JSONRenderer.writeRows(page, after: before, to: text)
            }
        case .markdown:
            inPieces { MarkdownRenderer.write(page, header: header, to: $0) }
        }
        rows += page.rows.count
        started = true
    }

    /// Ends the answer, whose columns are `columns` (for its header, when no page came).
    mutating func finish(columns: [String]) {
        let empty = ResultTable(columns: columns)
        switch format {
        case .table:
            TableRenderer(width: width).writeBytes(empty, header: !started, footer: .total(rows), to: out)
        case .csv where !started, .markdown where !started:
            write(empty)
        case .csv, .markdown:
            break
        case .json:
            out(Array(((started ? "" : "[") + JSONRenderer.closing(after: rows)).utf8))
        }
        started = true
    }

    /// Hands `out` what `produce` writes as text, in pieces of about 64 KB.
    private func inPieces(_ produce: ((String) -> Void) -> Void) {
        var pending = ""
        produce { piece in
            pending += piece
            if pending.utf8.count >= 1 << 16 {
                out(Array(pending.utf8))
                pending = ""
            }
        }
        if !pending.isEmpty { out(Array(pending.utf8)) }
    }
}
