/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma,
/// a quote or a line break, quotes doubled.
public enum CSVRenderer {
    public static func render(_ table: ResultTable) -> String {
        var out = table.columns.map(field).joined(separator: ",") + "\r\n"
        for row in table.rows {
            out += row.map { field($0.plainText) }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
