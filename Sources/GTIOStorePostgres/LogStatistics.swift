import GTIOStore
import Synchronization

/// The planner's statistics of the log's tables, refreshed whenever this process's appends
/// have grown the log past what they were gathered on.
///
/// Insights, `verify` and `gtio copy` read the log by time, type and seq. Until a table has
/// statistics PostgreSQL guesses how many rows a condition keeps, and autovacuum gathers them
/// a minute or more after a large ingest. On the 1 M-event demo log just ingested, `trend`,
/// `breakdown` and `funnel` were planned as scans of the whole log, and `verify` read the
/// properties' events by sorting the log from each page on. The refresh samples as little as
/// `TableStatistics` does; autovacuum later gathers the full statistics. It runs once the rows
/// this process appended outnumber those the statistics were gathered on, so that they describe
/// at least half of the log it grew, at a handful of refreshes however large the ingest.
final class LogStatistics: Sendable {
    private struct Counts {
        /// The rows the planner believed `events` held when this process last looked; nil
        /// before it looked.
        var believed: Int64?
        /// Events this process appended since it last refreshed the statistics.
        var appended: Int64 = 0
    }

    private let counts = Mutex(Counts())

    /// The events one write transaction appended, noted once it has committed.
    final class Tally {
        var events = 0
    }

    /// The log's tables, analyzed together: lists and properties grow with the events.
    static let tables = ["events", "event_lists", "event_properties"]

    /// Notes `count` events appended and committed; true when the statistics should be looked at.
    func noteAppended(_ count: Int) -> Bool {
        counts.withLock { counts in
            counts.appended += Int64(count)
            guard counts.appended >= Int64(TableStatistics.fewestRows) else { return false }
            return counts.believed.map { counts.appended > $0 } ?? true
        }
    }

    /// Analyzes the log's tables when they were never analyzed or this process appended more
    /// rows than the planner believes `events` holds, in a transaction of its own.
    func refresh(in session: PostgresSession) throws {
        let believed = try session.rows(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass('events')").first?[0].int64 ?? -1
        let appended = counts.withLock { $0.appended }
        // -1: never analyzed (PostgreSQL 14 and later).
        guard believed < 0 || appended > believed else {
            counts.withLock { $0.believed = believed }
            return
        }
        try session.transaction {
            try session.execute("SET LOCAL default_statistics_target = \(TableStatistics.sampleTarget)")
            // SKIP_LOCKED: a table autovacuum is analyzing already is left to it.
            try session.execute("ANALYZE (SKIP_LOCKED) " + Self.tables.joined(separator: ", "))
        }
        counts.withLock { counts in
            counts.believed = max(believed, 0) + appended
            counts.appended -= appended
        }
    }
}
