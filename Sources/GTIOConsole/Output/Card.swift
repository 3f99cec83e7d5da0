import GTIOProjections
import GTIOTables

/// One thing on one screen: label/value lines, then titled sections of entries. Values and
/// entries come from the log, written by anyone: their control characters are written out.
enum Card {
    /// A section: its title, its entries, and the line that stands for none (nil: nothing).
    typealias Section = (title: String, entries: [String], none: String?)

    /// The label/value lines aligned, then each section under its title.
    static func render(_ lines: [(String, String)], sections: [Section]) -> String {
        let width = lines.map(\.0.count).max() ?? 0
        var text = lines.map { $0.0.padding(to: width) + "  " + $0.1.escapingControls }.joined(separator: "\n") + "\n"
        for section in sections {
            text += "\n\(section.title)\n"
            let entries = section.entries.isEmpty ? section.none.map { [$0] } ?? [] : section.entries
            text += entries.map { "  " + $0.escapingControls + "\n" }.joined()
        }
        return text
    }
}

extension Card {
    /// A list's section: its first entries, then how many more it holds.
    static func list<Entry>(_ title: String, _ excerpt: Excerpt<Entry>, none: String? = "(none)", _ line: (Entry) -> String) -> Section {
        (title, excerpt.entries.map(line) + (excerpt.omitted > 0 ? ["… and \(excerpt.omitted) more"] : []), none)
    }

    /// A history's section: how many earlier entries it holds, then its latest.
    static func history<Entry>(_ title: String, _ excerpt: Excerpt<Entry>, none: String? = "(none)", _ line: (Entry) -> String) -> Section {
        (title, (excerpt.omitted > 0 ? ["… \(excerpt.omitted) earlier"] : []) + excerpt.entries.map(line), none)
    }
}
