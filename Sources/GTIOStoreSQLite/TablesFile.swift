import Foundation
import GRDB
import GTIOStore

/// The second file of an SQLite store, `STORE-tables`: the read models' tables, their
/// checkpoints, and whatever else is written through `TableStore` (saved insights, access keys).
///
/// Each SQLite file has one writer at a time. With the tables in the log's file, an append
/// waited for every catch-up of the read models to commit (the collector's p99 was the longest
/// catch-up, docs/PERFORMANCE.md); in a file of their own, the log's writer and the tables'
/// writer go side by side. The log's connections attach this file read-only, as `tables`, so
/// every read (and a decision's check) sees both, and `BEGIN IMMEDIATE` on the log takes no
/// lock here; the tables' writer never writes the log.
///
/// A transaction writes one file or the other, never both, so a crash cannot leave half of
/// one: at worst the tables stand behind the log, which the next writer catches up. The file
/// records which log it belongs to (`log_identity`), so that tables are never read beside
/// another log, or beside an older copy of their own (checkpoints past the log's end).
enum TablesFile {
    /// The schema name under which the log's connections see this file.
    static let schema = "tables"

    /// The size of the pages of a tables file this build creates, four times SQLite's default:
    /// the file is written in bulk (a rebuild, the first catch-up of a large ingest), which
    /// does less work per row on larger pages, and an answer reads only a few of them. The
    /// log's file keeps 4 KB pages, which its scattered id look-ups want (docs/PERFORMANCE.md).
    /// A tables file made before keeps its pages (docs/STORE.md says how to convert one).
    static let pageSize = 16384

    /// The tables file of the store at `path`.
    static func path(ofStore path: String) -> String { path + "-tables" }

    /// Where the log's connections attach it: a URI, so that it is attached read-only. Each
    /// byte of the path that a URI's path may not hold as it is (`?`, `#`, `%`, a space, any
    /// byte of a non-ASCII character) is percent-encoded, as SQLite's URIs want them. By hand:
    /// Foundation's `addingPercentEncoding` costs a one-shot start three scans of the binary's
    /// protocol conformances (~0.2 ms).
    static func attachURI(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var uri = Array("file:".utf8)
        for byte in path.utf8 {
            if uriPathBytes.contains(byte) {
                uri.append(byte)
            } else {
                uri += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: uri + Array("?mode=ro".utf8), as: UTF8.self)
    }

    /// The bytes a URI's path holds as they are, the set of Foundation's `urlPathAllowed`:
    /// letters, digits, `-._~`, `/` and the delimiters a path segment allows but `;`.
    private static let uriPathBytes = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@/".utf8))

    /// The tables that belong to the log, which stay in its file; everything else a store
    /// created there before the tables had a file of their own moves here.
    static let logTables: Set<String> = [
        "events", "event_lists", "event_ids", "event_ids_through", "batches", "quarantine", "batch_signatures",
        "event_properties", "event_days", "log_identity", "grdb_migrations",
    ]

    /// The tables file's own tables, as named migrations; the read models create theirs.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 tables") { db in
            try db.execute(sql: """
                PRAGMA application_id = \(StoreSchema.applicationID);
                CREATE TABLE checkpoints (
                    name    TEXT PRIMARY KEY,
                    seq     INTEGER NOT NULL,
                    updated INTEGER NOT NULL
                );
                CREATE TABLE log_identity (id TEXT NOT NULL);
                """)
        }
        migrator.registerMigration("v2 tables of blobs kept by rowid") { db in
            // Made as `SQLiteTransaction.createSQL` now makes them: a look-up by key in a
            // `WITHOUT ROWID` table of blobs read several whole rows (the fold state's header,
            // among parts of megabytes). The rows are copied as they are.
            let tables = try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' AND sql LIKE '%WITHOUT ROWID'
                """)
            for table in tables {
                let name: String = table["name"], sql: String = table["sql"]
                let blobs = try Row.fetchAll(db, sql: "SELECT type FROM pragma_table_info(?)", arguments: [name])
                    .contains { ($0[0] as String).uppercased() == "BLOB" }
                guard blobs else { continue }
                let indexes = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", arguments: [name])
                try db.execute(sql: "ALTER TABLE \(name) RENAME TO \(name)_without_rowid")
                try db.execute(sql: String(sql.dropLast(" WITHOUT ROWID".count)))
                try db.execute(sql: "INSERT INTO \(name) SELECT * FROM \(name)_without_rowid")
                try db.execute(sql: "DROP TABLE \(name)_without_rowid")
                for index in indexes { try db.execute(sql: index) }
            }
        }
        return migrator
    }

    /// Copies into the tables file (`writer`, its writer) every table the log's file at
    /// `logPath` still holds beyond its own, rows and indexes, in one transaction: the upgrade
    /// of a store written before the tables had a file of their own. A table already copied (a
    /// crash before the log dropped its copy) is left as it is; checkpoints are copied again.
    /// The log's migration drops them from the log's file afterwards.
    static func moveLegacyTables(from logPath: String, into writer: DatabasePool) throws {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS legacy", arguments: [attachURI(logPath)])
            defer { try? db.execute(sql: "DETACH DATABASE legacy") }
            try db.inTransaction {
                let entries = try Row.fetchAll(db, sql: """
                    SELECT type, name, tbl_name, sql FROM legacy.sqlite_master
                    WHERE type IN ('table', 'index') AND sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                    ORDER BY type DESC
                    """)
                let present = Set(try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master"))
                for entry in entries {
                    let name: String = entry["name"], table: String = entry["tbl_name"], sql: String = entry["sql"]
                    guard !logTables.contains(table) else { continue }
                    if name == "checkpoints" {
                        try db.execute(sql: "INSERT OR REPLACE INTO main.checkpoints SELECT * FROM legacy.checkpoints")
                    } else if !present.contains(name) {
                        try db.execute(sql: sql)
                        if entry["type"] == "table" {
                            try db.execute(sql: "INSERT INTO main.\(name) SELECT * FROM legacy.\(name)")
                        }
                    }
                }
                return .commit
            }
        }
    }

    /// Records the log's identity in a new tables file, and refuses tables that belong to
    /// another log or stand past this one's end. `db` is a connection of the log's that has
    /// the tables file attached; `writer` (nil in a read-only process) writes the tables file.
    static func checkBelongs(to storePath: String, reading db: Database, writer: DatabasePool?) throws {
        // The tables' snapshot first: the log's, taken after, is then at least as far along.
        let recorded = try String.fetchOne(db, sql: "SELECT id FROM tables.log_identity")
        let lastCheckpoint = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM tables.checkpoints")
        let identity = try String.fetchOne(db, sql: "SELECT id FROM main.log_identity")
        let lastSeq = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) FROM main.events") ?? 0
        let tables = path(ofStore: storePath)
        if let recorded, recorded != identity {
            throw StoreError.foreignTables(path: storePath, tables: tables, reason: "they were built from another log (the store file was replaced or removed without them)")
        }
        if let lastCheckpoint, lastCheckpoint > lastSeq {
            throw StoreError.foreignTables(path: storePath, tables: tables, reason: "they stand at seq \(lastCheckpoint), past the log's end at seq \(lastSeq) (the store file was replaced by an older copy)")
        }
        if recorded == nil, let identity, let writer {
            try writer.write { try $0.execute(sql: "INSERT INTO log_identity (id) VALUES (?)", arguments: [identity]) }
        }
    }
}
