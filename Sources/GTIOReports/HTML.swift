/// Escaping for HTML and SVG text and attributes (the page is also well-formed XML).
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // XML allows no other control characters, even escaped: show them as U+FFFD.
            case _ where character.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }:
                out += "\u{FFFD}"
            default: out.append(character)
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
