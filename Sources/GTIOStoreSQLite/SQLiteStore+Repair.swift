import GRDB
import GTIOStore

extension SQLiteStore {
    /// Drops the tables named `prefix…`; when SQLite cannot (their pages are damaged), removes
    /// them from the schema instead and rewrites the tables file without their pages (VACUUM).
    /// The log's file is never touched: this is for derived tables, which a rebuild writes again.
    public func discardTables(prefix: String) throws {
        do {
            try writeTablesDatabase { db in
                for name in try SQLiteTableReader(db).tableNames(prefix: prefix) { try db.drop(table: name) }
            }
            return
        } catch StoreError.damaged {
            // Dropping walks the damaged pages to free them; forget them instead, below.
        }
        guard let tablesWriter else { throw StoreError.readOnly(path: path) }
        do {
            try tablesWriter.writeWithoutTransaction { db in
                let pattern = prefix.replacingOccurrences(of: "_", with: "\\_") + "%"
                try db.execute(sql: "PRAGMA writable_schema = ON")
                defer { try? db.execute(sql: "PRAGMA writable_schema = OFF") }
                try db.inTransaction {
                    try db.execute(
                        sql: "DELETE FROM sqlite_master WHERE tbl_name LIKE ? ESCAPE '\\'", arguments: [pattern])
                    // Every connection must reload the schema: a changed cookie tells them to.
                    let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
                    try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
                    return .commit
                }
            }
            // A fresh connection sees the schema without them; VACUUM copies only what is left.
            try tablesWriter.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
            }
            let answers = try tablesWriter.writeWithoutTransaction { db in try String.fetchAll(db, sql: "PRAGMA main.quick_check") }
            guard answers == ["ok"] else { throw StoreError.damaged(path: tablesPath) }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: tablesPath)
        }
    }
}
