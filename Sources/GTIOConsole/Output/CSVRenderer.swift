/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma,
/// a quote or a line break, quotes doubled.
enum CSVRenderer {
    static func render(_ table: ResultTable) -> String {
        var out = table.columns.map(field).joined(separator: ",") + "\r\n"
        for row in table.rows {
            out += row.map { field($0.plainText) }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
