/// Escaping for HTML and SVG text and attributes (the page is also well-formed XML).
enum HTML {
    /// By scalars, not `Character`s: a combining mark after `<`, `&` or `"` makes one
    /// `Character` equal to none of them, which would go out with the raw byte inside it.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            // XML allows no other control characters, even escaped: show them as U+FFFD.
            case _ where scalar.value < 0x20: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A table with a header row; `numeric` columns are right-aligned.
    static func table(_ columns: [String], _ rows: [[String]], numeric: Set<Int> = [], caption: String? = nil) -> String {
        var out = "<div class=\"scroll\"><table>"
        if let caption { out += "<caption>\(escape(caption))</caption>" }
        out += "<thead><tr>" + columns.enumerated().map { cell("th", $1, numeric.contains($0)) }.joined() + "</tr></thead><tbody>"
        for row in rows {
            out += "<tr>" + row.enumerated().map { cell("td", $1, numeric.contains($0)) }.joined() + "</tr>"
        }
        return out + "</tbody></table></div>\n"
    }

    private static func cell(_ tag: String, _ text: String, _ numeric: Bool) -> String {
        "<\(tag)\(numeric ? " class=\"num\"" : "")>\(escape(text))</\(tag)>"
    }
}
