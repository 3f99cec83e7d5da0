import GTIOCatalog
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

    /// Hands `out` the table in pieces of about 64 KB, as text.
    func write(_ table: ResultTable, to out: (String) -> Void) {
        writeBytes(table) { out(String(decoding: $0, as: UTF8.self)) }
    }

    /// Hands `out` the table's UTF-8 in pieces of about 64 KB. Widths come from a first pass over
    /// the cells, which the second pass writes as bytes: a long answer is never held whole, as
    /// rows or as lines, and the cells most tables hold (printable ASCII text, integers,
    /// timestamps) are measured and written without making a string of them. Each text cell is
    /// measured once: the second pass takes its width from the first (`TextWidths`). Bytes, so
    /// that standard output takes them as they are: a string made of them would check them all
    /// again as UTF-8 (which they are, made of strings and ASCII).
    ///
    /// A page of a longer answer leaves out the header (`header`) or the row count (`footer`).
    func writeBytes(_ table: ResultTable, header: Bool = true, footer: Footer = .rows, to out: ([UInt8]) -> Void) {
        var widths = table.columns.map(DisplayWidth.of)
        var cells = Array(repeating: 0, count: widths.count)
        var kinds = Array(repeating: ColumnKind.number, count: widths.count)
        var timestamps = Array(repeating: false, count: widths.count)
        var measured = TextWidths()
        for row in table.rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                let (used, spaced) = measure(cell, into: &measured)
                cells[index] = max(cells[index], used)
                guard width != nil, kinds[index] != .freeText else { continue }
                switch cell {
                case .text: kinds[index] = spaced ? .freeText : .text
                case .timestamp: kinds[index] = .text; timestamps[index] = true
                case .null, .integer, .number, .bool: break
                }
            }
        }
        for index in widths.indices { widths[index] = max(widths[index], cells[index]) }
        if let id = kinds.indices.first(where: { kinds[$0] == .text && !timestamps[$0] }) { kinds[id] = .id }
        if let width { widths = Self.fit(widths, cells: cells, kinds: kinds, into: width) }
        var lines = LineBuffer()
        if header {
            for (index, column) in table.columns.enumerated() {
                if index > 0 { lines.appendSpaces(2) }
                lines.append(column, fitting: widths[index], right: false)
            }
            lines.endLine()
            for (index, columnWidth) in widths.enumerated() {
                if index > 0 { lines.appendSpaces(2) }
                for _ in 0..<columnWidth { lines.bytes.append(contentsOf: "─".utf8) }
            }
            lines.endLine()
        }
        var next = 0
        for row in table.rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                if index > 0 { lines.appendSpaces(2) }
                write(cell, fitting: widths[index], measured: measured, next: &next, to: &lines)
            }
            lines.endLine()
            if lines.bytes.count >= 1 << 16 { lines.take(out) }
        }
        let count: Int? = switch footer {
        case .rows: table.rows.count
        case .none: nil
        case .total(let total): total
        }
        if let count { lines.bytes.append(contentsOf: "(\(count) row\(count == 1 ? "" : "s"))\n".utf8) }
        lines.take(out)
    }

    /// The line under a table: its own row count, none (a page with more to come), or the row
    /// count of all the pages of an answer (its last).
    enum Footer { case rows, none, total(Int) }

    /// The columns `cell` takes as the table shows it, and whether that holds a space; a text
    /// cell's width is noted in `measured`, in the order of the cells.
    private func measure(_ cell: Cell, into measured: inout TextWidths) -> (width: Int, spaced: Bool) {
        switch cell {
        case .null: return (0, false)
        case .integer(let value): return (LineBuffer.digits(value), false)
        case .bool(let flag): return (flag ? 4 : 5, false)
        case .timestamp: return (Timestamp.textLength, false)
        case .text(let text):
            if let plain = LineBuffer.printableASCII(text) {
                measured.note(plain.width, plain: true)
                return plain
            }
            let shown = display(cell)
            let used = DisplayWidth.of(shown)
            measured.note(used, plain: false)
            return (used, shown.utf8.contains(UInt8(ascii: " ")))
        case .number: return (DisplayWidth.of(display(cell)), false)
        }
    }

    /// Writes `cell` in a column `width` wide, as `LineBuffer.append(_:fitting:right:)` would
    /// write its text; a text cell's width is the `next` one in `measured`.
    private func write(_ cell: Cell, fitting width: Int, measured: TextWidths, next: inout Int, to lines: inout LineBuffer) {
        switch cell {
        case .integer(let value) where LineBuffer.digits(value) <= width:
            lines.appendSpaces(width - LineBuffer.digits(value))
            lines.append(value)
        case .timestamp(let moment) where Timestamp.textLength <= width:
            moment.appendText(to: &lines.bytes)
            lines.appendSpaces(width - Timestamp.textLength)
        case .text(let text):
            let (used, plain) = measured[next]
            next += 1
            if used > width {
                lines.append(display(cell), fitting: width, right: false)
            } else {
                // Printable ASCII is shown as it is; other text with its controls written out.
                lines.bytes.append(contentsOf: plain ? text.utf8 : display(cell).utf8)
                lines.appendSpaces(width - used)
            }
        default:
            lines.append(display(cell), fitting: width, right: cell.isNumeric)
        }
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
    ///
    /// The value rounded to at most five decimals, written from its integer of units by hand
    /// (a table of scores formats tens of thousands): the decimal `String(Double)` writes for
    /// the rounded value, as that has at most 14 significant digits, cut after the decimals,
    /// so a value that rounds to a whole number keeps its ".0" (2.999999 shows 3.0).
    func format6(_ value: Double) -> String {
        let magnitude = abs(value)
        guard magnitude >= 1e-4 && magnitude < 1e9 else { return String(format: "%.6g", value) }
        var decimals = 5
        var bound = 1.0
        while magnitude >= bound * 10 && decimals > 0 { bound *= 10; decimals -= 1 }
        let scaled = (magnitude * pow10(decimals)).rounded()
        var units = UInt64(scaled)
        // Written backwards, last digit first.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        var significant = false
        for _ in 0..<decimals {
            let digit = UInt8(units % 10)
            units /= 10
            if digit != 0 || significant { bytes.append(UInt8(ascii: "0") + digit) }
            significant = significant || digit != 0
        }
        if decimals > 0 {
            if !significant { bytes.append(UInt8(ascii: "0")) }
            bytes.append(UInt8(ascii: "."))
        }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(units % 10))
            units /= 10
        } while units > 0
        if value < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
        // Reversed in place: a `ReversedCollection` would be a type the runtime looks up by
        // name on its first use, searching every conformance in the binary (~0.3 ms a process).
        bytes.reverse()
        return String(decoding: bytes, as: UTF8.self)
    }

    private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

    /// The widths of a table's text cells in the order they come, and whether each is printable
    /// ASCII (shown as it is), from the pass that measures the columns for the one that writes.
    struct TextWidths {
        private var widths: [Int] = []

        /// Notes the next text cell's width; `plain`: printable ASCII.
        mutating func note(_ width: Int, plain: Bool) {
            // Plain widths are kept as they are, the others with their bits flipped (negative).
            widths.append(plain ? width : ~width)
        }

        subscript(index: Int) -> (width: Int, plain: Bool) {
            let kept = widths[index]
            return kept >= 0 ? (kept, true) : (~kept, false)
        }
    }

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
}
