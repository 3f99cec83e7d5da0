/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma,
/// a quote or a line break, quotes doubled.
///
/// Text that a spreadsheet would run as a formula (a leading `=`, `+`, `-`, `@`, tab or carriage
/// return: OWASP's rule for CSV injection) gets a leading `'` unless `raw`; numbers stay numbers,
/// and so does text that is a number (`-1`, a property's value as an insight groups by it),
/// which a spreadsheet reads as that number, never as a formula. Event data is the app's users'
/// text, and these files are opened in spreadsheets.
public enum CSVRenderer {
    public static func render(_ table: ResultTable, raw: Bool = false) -> String {
        var out = ""
        write(table, raw: raw) { out += $0 }
        return out
    }

    /// Hands `out` the CSV text a line at a time, so that a long answer is never held whole;
    /// without the header row when `header` is false (a later page of one answer).
    public static func write(_ table: ResultTable, raw: Bool = false, header: Bool = true, to out: (String) -> Void) {
        if header { out(table.columns.map(field).joined(separator: ",") + "\r\n") }
        for row in table.rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index > 0 { line += "," }
                line += field(raw ? cell.plainText : neutralised(cell))
            }
            out(line + "\r\n")
        }
    }

    /// The cell's text, with a `'` before text a spreadsheet would take for a formula.
    static func neutralised(_ cell: Cell) -> String {
        guard case .text(let text) = cell, let first = text.unicodeScalars.first,
              ["=", "+", "-", "@", "\t", "\r"].contains(first), !isNumber(text)
        else { return cell.plainText }
        return "'" + text
    }

    /// Whether `text` is a plain decimal number (`-12`, `-0.5`, `-1e-07`), which a spreadsheet
    /// reads as that number.
    static func isNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard digits() > 0 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// `text` as a field: quoted when it holds a comma, a quote, CR or LF, its quotes doubled.
    /// Both go by bytes or scalars, not `Character`s: a CRLF is one `Character` equal to neither
    /// CR nor LF, and a quote followed by a combining mark one that is no quote.
    public static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == comma || $0 == quote || $0 == lineFeed || $0 == carriageReturn }) else { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "\""
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
}
