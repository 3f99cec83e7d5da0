import GTIOTables

/// One thing on one screen: label/value lines, then titled sections of entries.
enum Card {
    static func render(_ lines: [(String, String)], sections: [(String, [String])] = []) -> String {
        let width = lines.map(\.0.count).max() ?? 0
        var text = lines.map { $0.0.padding(to: width) + "  " + $0.1.escapingControls }.joined(separator: "\n") + "\n"
        for (title, entries) in sections {
            text += "\n\(title)\n" + (entries.isEmpty ? "  (none)\n" : entries.map { "  " + $0.escapingControls + "\n" }.joined())
        }
        return text
    }
}
