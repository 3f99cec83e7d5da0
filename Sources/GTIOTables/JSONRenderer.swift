import GTIOCatalog

/// JSON output: an array of objects with the table's columns as keys, in column order.
public enum JSONRenderer {
    public static func render(_ table: ResultTable) -> String {
        var out = ""
        write(table) { out += $0 }
        return out
    }

    /// Hands `out` the JSON text a row at a time, so that a long answer is never held whole.
    public static func write(_ table: ResultTable, to out: (String) -> Void) {
        out("[")
        writeRows(table, after: 0, to: out)
        out(closing(after: table.rows.count))
    }

    /// The objects of `table`'s rows, as members of an array that holds `written` before them:
    /// an answer written a page at a time is one array. The keys are quoted once, not once a row.
    public static func writeRows(_ table: ResultTable, after written: Int, to out: (String) -> Void) {
        let keys = table.columns.map { string($0) + ":" }
        for (index, row) in table.rows.enumerated() {
            var object = index == 0 && written == 0 ? "\n  {" : ",\n  {"
            for (column, cell) in zip(keys.indices, row) {
                if column > 0 { object += "," }
                object += keys[column]
                object += value(cell)
            }
            out(object + "}")
        }
    }

    /// What ends an array of `written` objects begun with `[`.
    public static func closing(after written: Int) -> String { written == 0 ? "]\n" : "\n]\n" }

    /// One object with `members` in order, on one line.
    public static func object(_ members: [(String, Cell)]) -> String {
        object(encoded: members.map { ($0.0, value($0.1)) })
    }

    /// One object whose member values are already JSON text (nested arrays and objects).
    public static func object(encoded members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func value(_ cell: Cell) -> String {
        switch cell {
        case .null: "null"
        case .integer, .bool: cell.plainText
        case .number(let number): number.isFinite ? cell.plainText : "null"
        case .text, .timestamp: string(cell.plainText)
        }
    }

    public static func string(_ text: String) -> String { JSONValue.quoted(text) }
}
