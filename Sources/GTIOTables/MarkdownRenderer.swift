/// A GitHub-flavoured Markdown table: numbers right-aligned, pipes in text escaped.
public enum MarkdownRenderer {
    public static func render(_ table: ResultTable) -> String {
        var out = ""
        write(table) { out += $0 }
        return out
    }

    /// Hands `out` the table a line at a time, so that a long answer is never held whole;
    /// without the header and its alignment row when `header` is false (a later page of one
    /// answer, aligned as its first page says).
    public static func write(_ table: ResultTable, header: Bool = true, to out: (String) -> Void) {
        if header {
            let numeric = table.columns.indices.map { index in
                !table.rows.isEmpty && table.rows.allSatisfy { index < $0.count && ($0[index].isNumeric || $0[index] == .null) }
            }
            out("| " + table.columns.map(escape).joined(separator: " | ") + " |\n")
            out("|" + numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n")
        }
        for row in table.rows {
            var line = "| "
            for (index, cell) in row.enumerated() {
                if index > 0 { line += " | " }
                line += escape(cell.plainText)
            }
            out(line + " |\n")
        }
    }

    /// Pipes escaped, `<` as `&lt;`, each line break (LF, CR or CRLF) one space, and any other
    /// control character written out (`\u{1B}`): a row is one line, no text from the log becomes
    /// HTML where the Markdown is shown (most renderers pass inline HTML through; `&lt;` shows
    /// as `<`), and none drives the terminal it is printed on. By scalars, not `Character`s:
    /// a CRLF is one `Character`, and so is a pipe followed by a combining mark, which is no pipe.
    public static func escape(_ text: String) -> String {
        // Most text has none of those: kept whole, where a scalar at a time was most of writing
        // a long table. 0xC2 leads the UTF-8 of the C1 controls (and of other Latin-1 signs, which
        // then take the slow way).
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "<") })
        else { return text }
        var out = ""
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "|": out += "\\|"
            case "<": out += "&lt;"
            case "\n" where afterCarriageReturn: continue
            case "\r", "\n": out += " "
            case _ where String.isControl(scalar): out += String.writtenOut(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as an inline code span, shown as it is: fenced by one backtick more than its
    /// longest run of them (CommonMark §6.1), so that no backtick inside can end the span and
    /// let what follows be read as Markdown or HTML; line breaks become spaces, and other
    /// control characters are written out as in `escape`.
    public static func code(_ text: String) -> String {
        let flat = text.unicodeScalars.map { scalar in
            scalar == "\r" || scalar == "\n" ? " " : String.isControl(scalar) ? String.writtenOut(scalar) : String(scalar)
        }.joined()
        var longest = 0, run = 0
        for scalar in flat.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A space on each side, which the span drops, keeps a backtick at either end apart from the fence.
        return longest > 0 ? fence + " " + flat + " " + fence : fence + flat + fence
    }
}
