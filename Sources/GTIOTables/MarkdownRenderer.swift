/// A GitHub-flavoured Markdown table: numbers right-aligned, pipes in text escaped.
public enum MarkdownRenderer {
    public static func render(_ table: ResultTable) -> String {
        var out = ""
        write(table) { out += $0 }
        return out
    }

    /// Hands `out` the table a line at a time, so that a long answer is never held whole.
    public static func write(_ table: ResultTable, to out: (String) -> Void) {
        let numeric = table.columns.indices.map { index in
            !table.rows.isEmpty && table.rows.allSatisfy { index < $0.count && ($0[index].isNumeric || $0[index] == .null) }
        }
        out("| " + table.columns.map(escape).joined(separator: " | ") + " |\n")
        out("|" + numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n")
        for row in table.rows {
            out("| " + row.map { escape($0.plainText) }.joined(separator: " | ") + " |\n")
        }
    }

    /// Pipes escaped, and each line break (LF, CR or CRLF, the last one `Character`) one space.
    public static func escape(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\r\n", with: " ").replacing("\r", with: " ").replacing("\n", with: " ")
    }
}
