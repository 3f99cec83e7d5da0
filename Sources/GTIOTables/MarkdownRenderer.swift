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

    /// Pipes escaped, and each line break (LF, CR or CRLF) one space: a row is one line. By
    /// scalars, not `Character`s: a CRLF is one `Character`, and so is a pipe followed by a
    /// combining mark, which is no pipe.
    public static func escape(_ text: String) -> String {
        var out = ""
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "|": out += "\\|"
            case "\n" where afterCarriageReturn: continue
            case "\r", "\n": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
