import GTIOStore

/// The rows a write transaction changed in each table, and the planner's statistics of the
/// tables it changed much of, refreshed once it has committed.
///
/// PostgreSQL plans from statistics that autovacuum gathers a minute or more after a change.
/// Until then a table that a rebuild or a first catch-up filled looks empty or as it was: on
/// the 1 M-event demo log, `looks popular`'s `MAX(points)` of the live posts was planned as a
/// scan of all of `rm_posts` (8 ms) rather than one step down its `points` index (0.05 ms).
/// The refresh samples a tenth of what autovacuum does: enough for those plans, at ~12 ms
/// rather than ~100 ms for `rm_posts` there; autovacuum later gathers the full statistics.
final class TableStatistics {
    /// Rows changed per table: inserted, updated or deleted, as the server counted them where
    /// a statement may leave rows as they were (a load, a rewrite).
    private var written: [String: Int] = [:]

    /// The fewest rows a table takes in one transaction before its statistics are looked at:
    /// a projector's catch-up of a thousand events writes fewer to any one table.
    static let fewestRows = 1_000

    /// The statistics target of a refresh: 300 rows sampled per unit, 3,000 in all, where
    /// autovacuum's default of 100 samples 30,000.
    static let sampleTarget = 10

    /// Notes that `count` rows of `table` were inserted, updated or deleted.
    func note(_ count: Int, in table: String) {
        written[table, default: 0] += count
    }

    /// Whether some table took enough rows for its statistics to be looked at: most writes
    /// (a projector's catch-ups) need no connection for it.
    var mayBeStale: Bool {
        written.values.contains { $0 >= Self.fewestRows }
    }

    /// Analyzes each table that took at least `fewestRows` and more than a tenth of the rows the
    /// planner believed it had (or that was never analyzed), in a transaction of its own.
    func refresh(in session: PostgresSession) throws {
        let candidates = written.filter { $0.value >= Self.fewestRows }
        guard !candidates.isEmpty else { return }
        let names = candidates.keys.sorted()
        let believed = try session.rows(
            """
            SELECT relname, reltuples::bigint FROM pg_class
            WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace
              AND relname IN (\(names.map { _ in "?" }.joined(separator: ",")))
            """,
            names.map(StoreValue.text))
        let stale = believed.compactMap { row -> String? in
            guard let name = row[0].string, let rows = row[1].int64, let count = candidates[name] else { return nil }
            // -1: never analyzed (PostgreSQL 14 and later).
            return rows < 0 || Int64(count) * 10 > rows ? name : nil
        }
        guard !stale.isEmpty else { return }
        try session.transaction {
            try session.execute("SET LOCAL default_statistics_target = \(Self.sampleTarget)")
            // SKIP_LOCKED: a table autovacuum is analyzing already is left to it.
            try session.execute("ANALYZE (SKIP_LOCKED) " + stale.joined(separator: ", "))
        }
    }
}
