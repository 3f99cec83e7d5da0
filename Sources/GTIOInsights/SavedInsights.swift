import GTIOStore

/// Insights an analyst saved by name, kept in the store beside the log (`insights`): a saved
/// command is run again as typed, against the log as it stands then.
public enum SavedInsights {
    static let table = TableLayout(name: "insights", columns: [("name", .text), ("command", .text)], keyCount: 1)

    /// The commands an insight may be: the six insight commands.
    public static let commands = ["trend", "breakdown", "top", "funnel", "retention", "paths"]

    /// Whether `name` may name an insight: 1–64 letters, digits, `-` and `_`, safe as part of
    /// a file name (the report writes `insight-NAME.csv`). A name in a shared store's table may
    /// have been written by hand: whoever turns it into a path asks this first.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= 64 && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    /// Saves `command` under `name`; returns the command it replaced, nil when `name` was free.
    @discardableResult
    public static func save(_ name: String, command: String, in store: any TableStore) throws -> String? {
        try store.writeTables { tx in
            if try !tx.hasTable(table.name) { try tx.create(table) }
            let replaced = try tx.row("SELECT command FROM insights WHERE name = ?", [.text(name)])?[0].string
            try tx.delete(from: table, key: [.text(name)])
            try tx.insert([.text(name), .text(command)], into: table)
            return replaced
        }
    }

    /// Forgets `name`; false when nothing was saved under it.
    public static func delete(_ name: String, in store: any TableStore) throws -> Bool {
        try store.writeTables { tx in
            guard try tx.hasTable(table.name),
                  try tx.row("SELECT 1 FROM insights WHERE name = ?", [.text(name)]) != nil
            else { return false }
            try tx.delete(from: table, key: [.text(name)])
            return true
        }
    }

    /// Every saved insight by name.
    public static func all(in source: any TableSource) throws -> [(name: String, command: String)] {
        try source.readTables { tables in
            guard try tables.hasTable(table.name) else { return [] }
            return try tables.rows("SELECT name, command FROM insights ORDER BY name").map { ($0[0].string ?? "", $0[1].string ?? "") }
        }
    }
}
