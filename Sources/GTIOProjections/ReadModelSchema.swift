import GTIOStore

/// The read models' tables as this build defines them, and `rm_meta`, which says which
/// definition a store holds and where its tables stand. The tables are derived from the log,
/// so a changed definition is migrated by dropping them all and rebuilding from the log.
public enum ReadModelSchema {
    /// Bumped whenever a table's columns, keys or indexes change, or the rows a rule writes
    /// into it (20: `rm_days` keeps no row for a quiet day, one with no event and nobody active
    /// in the month before; 25: `rm_posts` by hour and points, `rm_follows` by target and
    /// state, open flags by reason; 26: the queue's previews in `rm_flags`; 27: names in
    /// `rm_follows`; 28: free text keyed by `KeyText`; 29: `rm_follows` in the order of a
    /// list of followers; 30: the queue's index carrying its rows), so that every store's
    /// tables are rebuilt by the new rules.
    public static let version: Int64 = 30

    static let meta = TableLayout(name: "rm_meta", columns: [("key", .text), ("value", .integer)], keyCount: 1)

    /// The definition version the store's tables were written with, nil when it has none.
    public static func storedVersion(_ tables: any TableReading) throws -> Int64? {
        try storedMeta(tables, keys: ["schema"])?["schema"]
    }

    /// The values `rm_meta` holds under `keys` (a key it lacks or holds NULL for is left out),
    /// nil when the store has no `rm_meta`: one statement for what a query asks before it answers.
    ///
    /// A failure to read it is thrown, not taken for a store without tables: on PostgreSQL a
    /// failed statement (a role without rights to the table) ends the transaction it was in.
    static func storedMeta(_ tables: any TableReading, keys: [String]) throws -> [String: Int64]? {
        guard try tables.hasTable(meta.name) else { return nil }
        let (sql, arguments) = metaQuery(keys: keys)
        return metaValues(try tables.rows(sql, arguments))
    }

    /// The statement that reads `keys` from `rm_meta` (it must exist), for `metaValues`.
    static func metaQuery(keys: [String]) -> (sql: String, arguments: [StoreValue]) {
        ("SELECT key, value FROM rm_meta WHERE key IN (\(keys.map { _ in "?" }.joined(separator: ",")))", keys.map(StoreValue.text))
    }

    /// The rows of `metaQuery` as values by key.
    static func metaValues(_ rows: [[StoreValue]]) -> [String: Int64] {
        Dictionary(rows.compactMap { row in row[1].int64.map { (row[0].string ?? "", $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Brings the store's read-model tables to this build's definition: creates them when the
    /// store has none, or drops every `rm_` table and resets the read models' checkpoints when
    /// they were written by another definition. Returns the version found when it differed
    /// (0: none), nil when nothing had to change; writes only in those cases.
    @discardableResult
    public static func migrate(_ store: any TableStore) throws -> Int64? {
        let found = try store.readTables { try storedVersion($0) }
        guard found != version else { return nil }
        try store.writeTables { tx in
            guard try storedVersion(tx) != version else { return }
            for table in try tx.tableNames(prefix: "rm_") { try tx.drop(table: table) }
            try create(tx)
            // At seq 0 the tables are a fold of nothing, whose one row is the desk's (all zero):
            // a catch-up writes that row only when a flag or a decision changes it.
            _ = try ReadModelTables.write(ReadModelName.allCases, ReadModels(state: CommunityState()), in: tx)
        }
        return found ?? 0
    }

    /// Creates every table of `choice` with its indexes, and `rm_meta` recording this version,
    /// in tables that hold none of them.
    static func create(_ tx: any TableWriting, choice: TableChoice = .all) throws {
        try tx.create(meta)
        for table in ReadModelTables.tables.values.joined() where choice.contains(table.name) { try tx.create(table) }
        try tx.create(FoldSnapshot.table)
        try set("schema", version, in: tx)
    }

    /// Records where the tables now stand: the last seq applied, "now" of that view, events applied.
    static func writePosition(_ state: CommunityState, in tx: any TableWriting) throws {
        try writePosition(seq: state.lastSeq, newestAt: state.newestAt, events: state.eventCount, in: tx)
    }

    static func writePosition(seq: Int64, newestAt: Int64?, events: Int, in tx: any TableWriting) throws {
        try set("seq", seq, in: tx)
        try set("newest_at", newestAt, in: tx)
        try set("events", Int64(events), in: tx)
    }

    private static func set(_ key: String, _ value: Int64?, in tx: any TableWriting) throws {
        try tx.delete(from: meta, key: [.text(key)])
        try tx.insert([.text(key), value.map(StoreValue.integer) ?? .null], into: meta)
    }
}
