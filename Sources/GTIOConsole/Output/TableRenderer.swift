import GTIOTables

/// Aligned text columns for a terminal: numbers right-aligned, long text cut with an
/// ellipsis so the table fits `width`, and a row count underneath.
///
/// What is cut first is what can best spare it: free text (previews, notes, names), then the
/// headers of numbers, then the other text columns, and the row's id (its first column of plain
/// text: the item a moderator resolves, the post an analyst looks up) last. A number or a
/// boolean is never cut: a cut number reads as another one.
struct TableRenderer {
    var width: Int?

    func render(_ table: ResultTable) -> String {
        var out = ""
        write(table) { out += $0 }
        return out
    }

    /// Hands `out` the table a line at a time. Widths come from a first pass over the cells'
    /// text, which the second pass makes again rather than keep: a long answer is never held
    /// whole, as rows or as lines.
    func write(_ table: ResultTable, to out: (String) -> Void) {
        var widths = table.columns.map(DisplayWidth.of)
        var cells = Array(repeating: 0, count: widths.count)
        var kinds = Array(repeating: ColumnKind.number, count: widths.count)
        var timestamps = Array(repeating: false, count: widths.count)
        for row in table.rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                let text = display(cell)
                cells[index] = max(cells[index], DisplayWidth.of(text))
                guard width != nil, kinds[index] != .freeText else { continue }
                switch cell {
                case .text: kinds[index] = text.utf8.contains(UInt8(ascii: " ")) ? .freeText : .text
                case .timestamp: kinds[index] = .text; timestamps[index] = true
                case .null, .integer, .number, .bool: break
                }
            }
        }
        for index in widths.indices { widths[index] = max(widths[index], cells[index]) }
        if let id = kinds.indices.first(where: { kinds[$0] == .text && !timestamps[$0] }) { kinds[id] = .id }
        if let width { widths = Self.fit(widths, cells: cells, kinds: kinds, into: width) }
        var header = ""
        for (index, column) in table.columns.enumerated() {
            if index > 0 { header += "  " }
            Self.append(column, fitting: widths[index], right: false, to: &header)
        }
        out(header.trailingSpacesTrimmed + "\n")
        out(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ").trailingSpacesTrimmed + "\n")
        for row in table.rows {
            var line = ""
            for (index, cell) in row.enumerated() where index < widths.count {
                if index > 0 { line += "  " }
                Self.append(display(cell), fitting: widths[index], right: cell.isNumeric, to: &line)
            }
            out(line.trailingSpacesTrimmed + "\n")
        }
        let count = table.rows.count
        out("(\(count) row\(count == 1 ? "" : "s"))\n")
    }

    private func display(_ cell: Cell) -> String {
        switch cell {
        case .null: ""
        case .number(let value):
            value == value.rounded() && abs(value) < 1e12 ? String(Int64(value)) : String(format6(value))
        case .text(let text): text.escapingControls
        default: cell.plainText
        }
    }

    /// Six significant digits: enough to compare scores, short enough to read.
    private func format6(_ value: Double) -> String {
        let magnitude = abs(value)
        guard magnitude >= 1e-4 && magnitude < 1e9 else { return String(format: "%.6g", value) }
        var decimals = 5
        var bound = 1.0
        while magnitude >= bound * 10 && decimals > 0 { bound *= 10; decimals -= 1 }
        var scaled = (value * pow10(decimals)).rounded() / pow10(decimals)
        if scaled == 0 { scaled = 0 }
        var text = String(scaled)
        if let dot = text.firstIndex(of: "."), !text.contains("e") {
            let fraction = text[text.index(after: dot)...]
            if fraction.count > decimals { text = String(text[..<text.index(dot, offsetBy: decimals + 1)]) }
        }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

    /// What a column holds, in the order columns give up width: free text first.
    enum ColumnKind {
        /// Some cell holds a space: a preview, a note, a display name.
        case freeText
        /// Numbers and booleans only (or nothing): their header is cut down to their widest
        /// cell, never further.
        case number
        /// Any other text: ids, timestamps, types.
        case text
        /// The first column of plain text (not timestamps): what the row is about.
        case id
    }

    /// Shrinks columns until the row fits `total`: the widest of the free text first down to 4,
    /// then the headers of numbers down to their widest cell, then the other text and at last
    /// the id, down to 4. A table that still does not fit runs past `total`.
    static func fit(_ widths: [Int], cells: [Int], kinds: [ColumnKind], into total: Int) -> [Int] {
        var widths = widths
        let separators = max(0, widths.count - 1) * 2
        var excess = widths.reduce(0, +) + separators - total
        for kind in [ColumnKind.freeText, .number, .text, .id] where excess > 0 {
            let floor = { (index: Int) in kind == .number ? max(4, cells[index]) : 4 }
            let columns = widths.indices.filter { kinds[$0] == kind }
            while excess > 0 {
                guard let widest = columns.filter({ widths[$0] > floor($0) }).max(by: { widths[$0] < widths[$1] })
                else { break }
                widths[widest] -= 1
                excess -= 1
            }
        }
        return widths
    }

    /// Appends `text` to `line` in a column `width` wide: cut with an ellipsis when longer,
    /// padded with spaces on the left (`right`) or the right. Its width is measured once.
    private static func append(_ text: String, fitting width: Int, right: Bool, to line: inout String) {
        var text = text
        var used = DisplayWidth.of(text)
        if used > width {
            text = DisplayWidth.prefix(text, fitting: max(0, width - 1)) + "…"
            used = DisplayWidth.of(text)
        }
        let padding = max(0, width - used)
        if right { line.appendSpaces(padding) }
        line += text
        if !right { line.appendSpaces(padding) }
    }
}

extension String {
    /// Appends `count` spaces in one copy: a wide table pads millions of cells, and a space at a
    /// time was a third of printing the 20 M-event log's moderation queue.
    fileprivate mutating func appendSpaces(_ count: Int) {
        var left = max(0, count)
        while left > 0 {
            let run = Swift.min(left, String.spaces.utf8.count)
            append(contentsOf: String.spaces[..<String.spaces.utf8.index(String.spaces.startIndex, offsetBy: run)])
            left -= run
        }
    }

    private static let spaces = String(repeating: " ", count: 256)

    var trailingSpacesTrimmed: String {
        // By bytes: a space is one byte in UTF-8 and never part of another character's bytes.
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: " ") { end = utf8.index(before: end) }
        return end == utf8.endIndex ? self : String(self[..<end])
    }
}
