import GRDB
import GTIOStore

/// The read models' tables as this build defines them, and `rm_meta`, which says which
/// definition a store holds and where its tables stand. The tables are derived from the log,
/// so a changed definition is migrated by dropping them all and rebuilding from the log.
public enum ReadModelSchema {
    /// Bumped whenever a table's columns, keys or indexes change.
    public static let version: Int64 = 5

    static let metaSQL = "CREATE TABLE IF NOT EXISTS rm_meta (key TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID"

    /// The definition version the store's tables were written with, nil when it has none.
    static func storedVersion(_ tables: any TableReading) -> Int64? {
        guard (try? tables.row("SELECT 1 FROM sqlite_master WHERE name = 'rm_meta'")) != nil,
              let row = try? tables.row("SELECT value FROM rm_meta WHERE key = 'schema'")
        else { return nil }
        return row[0].int64
    }

    /// Brings the store's read-model tables to this build's definition: creates them when the
    /// store has none, or drops every `rm_` table and resets the read models' checkpoints when
    /// they were written by another definition. Returns the version found when it differed
    /// (0: none), nil when nothing had to change; writes only in those cases.
    @discardableResult
    public static func migrate(_ store: EventStore) throws -> Int64? {
        let found = try store.readTables { storedVersion($0) }
        guard found != version else { return nil }
        try store.write { db in
            guard storedVersion(SQLiteTableReader(db)) != version else { return }
            let old = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\'")
            for table in old { try db.execute(sql: "DROP TABLE \(table)") }
            for model in ReadModelName.allCases { try EventStore.setCheckpoint(db, name: model.checkpointName, seq: 0) }
            try create(db)
        }
        return found ?? 0
    }

    /// Creates every table, its indexes and `rm_meta` where missing, recording this version.
    static func create(_ db: Database) throws {
        try db.execute(sql: metaSQL)
        for table in ReadModelTables.tables.values.joined() {
            try db.execute(sql: table.createSQL)
            for index in table.indexSQL { try db.execute(sql: index) }
        }
        try db.execute(sql: "INSERT OR REPLACE INTO rm_meta (key, value) VALUES ('schema', ?)", arguments: [version])
    }

    /// Records where the tables now stand: the last seq applied, "now" of that view, events applied.
    static func writePosition(_ state: CommunityState, in db: Database) throws {
        let position: [(String, Int64?)] = [("seq", state.lastSeq), ("newest_at", state.newestAt), ("events", Int64(state.eventCount))]
        for (key, value) in position {
            try db.execute(sql: "INSERT OR REPLACE INTO rm_meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}
